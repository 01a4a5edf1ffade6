// Taxes and salaries: tick every record of a month at once. Progressive enhancement only:
// the month tick box is hidden until this script shows it.
(function () {
  "use strict";

  function showMonthBoxes() {
    document.querySelectorAll("input[data-select-all]").forEach(function (box) {
      box.hidden = false;
    });
  }
  showMonthBoxes();
  document.addEventListener("htmx:afterSwap", showMonthBoxes);

  document.addEventListener("change", function (event) {
    var box = event.target.closest("input[data-select-all]");
    if (box) {
      var table = box.closest("table");
      table.querySelectorAll("tbody input[name=ids]").forEach(function (row) {
        row.checked = box.checked;
      });
      return;
    }
    var row = event.target.closest("tbody input[name=ids]");
    if (row) { syncMonth(row.closest("table")); }
  });

  function syncMonth(table) {
    var all = table.querySelector("input[data-select-all]");
    if (!all) { return; }
    var boxes = Array.prototype.slice.call(table.querySelectorAll("tbody input[name=ids]"));
    var ticked = boxes.filter(function (b) { return b.checked; }).length;
    all.checked = ticked === boxes.length && ticked > 0;
    all.indeterminate = ticked > 0 && ticked < boxes.length;
  }
})();
