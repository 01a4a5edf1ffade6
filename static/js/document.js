/* The document beside a form: zoom buttons on any [data-doc-view] panel (also ones htmx
   swaps in later, hence one listener on the document). The zoom is a CSS variable the
   stylesheet turns into the image's or PDF's width. */
(function () {
  "use strict";
  var STEP = 0.25, MIN = 0.5, MAX = 4;

  function setZoom(view, zoom) {
    zoom = Math.min(MAX, Math.max(MIN, Math.round(zoom * 100) / 100));
    view.style.setProperty("--zoom", String(zoom));
    view.toggleAttribute("data-zoomed", zoom !== 1);
    view.dataset.zoom = String(zoom);
    var level = view.querySelector("[data-zoom-level]");
    if (level) { level.textContent = Math.round(zoom * 100) + "%"; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-zoom]");
    var view = button && button.closest("[data-doc-view]");
    if (!view) { return; }
    var zoom = parseFloat(view.dataset.zoom || "1");
    var action = button.getAttribute("data-zoom");
    setZoom(view, action === "in" ? zoom + STEP : action === "out" ? zoom - STEP : 1);
  });
}());
