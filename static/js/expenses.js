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
    p.text.textContent = percent + " %";
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
