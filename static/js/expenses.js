// Expenses: upload progress for the htmx upload form. The form also works as a plain post.
(function () {
  "use strict";

  function parts(form) {
    var box = form.querySelector("[data-upload-progress]");
    return box ? { box: box, bar: box.querySelector("progress"),
                   text: box.querySelector("[data-upload-percent]") } : null;
  }

  function show(form, percent) {
    var p = parts(form);
    if (!p) { return; }
    p.box.hidden = false;
    p.bar.value = percent;
    // The page's language writes the percent (CLDR: "42%"), as the server-side format_percent.
    p.text.textContent = new Intl.NumberFormat(document.documentElement.lang || undefined,
                                               { style: "percent" }).format(percent / 100);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("form[data-upload-form]");
    if (form) { show(form, 0); }
  });

  document.addEventListener("htmx:xhr:progress", function (event) {
    var form = event.target.closest && event.target.closest("form[data-upload-form]");
    var detail = event.detail || {};
    if (form && detail.lengthComputable && detail.total) {
      show(form, Math.min(100, Math.round(detail.loaded * 100 / detail.total)));
    }
  });
})();

// The expense list's "select all on this page" box ticks or clears every row's box.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    if (!event.target.matches || !event.target.matches("#expense-list [data-select-page]")) {
      return;
    }
    var boxes = document.querySelectorAll("#expense-list [data-select]:not(:disabled)");
    Array.prototype.forEach.call(boxes, function (box) { box.checked = event.target.checked; });
  });
})();
