/* The document beside a form: zoom buttons on any [data-doc-view] panel (also ones htmx
   swaps in later, hence one listener on the document). A zoom scales the size the image or
   PDF has at 100% (measured on the first zoom), so every panel zooms the same way whatever
   its own layout. The hide button gives the form the whole width; the choice is kept in
   localStorage, so the next record opens the same way. */
(function () {
  "use strict";
  var STEP = 0.25, MIN = 0.5, MAX = 4;

  function base(target) {
    if (!target.dataset.baseWidth) {
      var box = target.getBoundingClientRect();
      target.dataset.baseWidth = String(box.width);
      target.dataset.baseHeight = String(box.height);
    }
    return [parseFloat(target.dataset.baseWidth), parseFloat(target.dataset.baseHeight)];
  }

  function setZoom(view, zoom) {
    zoom = Math.min(MAX, Math.max(MIN, Math.round(zoom * 100) / 100));
    var target = view.querySelector("[data-zoom-target]");
    if (target) {
      var size = base(target);
      target.style.setProperty("--zoom-width", size[0] * zoom + "px");
      target.style.setProperty("--zoom-height", size[1] * zoom + "px");
    }
    view.toggleAttribute("data-zoomed", zoom !== 1);
    view.dataset.zoom = String(zoom);
    var level = view.querySelector("[data-zoom-level]");
    if (level) { level.textContent = Math.round(zoom * 100) + "%"; }
  }

  var HIDDEN_KEY = "bookdesk.document-hidden";

  function remembered() {
    try {
      return window.localStorage.getItem(HIDDEN_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function remember(hidden) {
    try {
      window.localStorage.setItem(HIDDEN_KEY, hidden ? "1" : "0");
    } catch (error) {
      /* storage refused (a private window): the choice holds for this page only */
    }
  }

  function setHidden(beside, hidden) {
    beside.toggleAttribute("data-doc-hidden", hidden);
    beside.querySelector("[data-doc-toggle]").setAttribute("aria-expanded", String(!hidden));
  }

  document.querySelectorAll("[data-doc-toggle]").forEach(function (button) {
    button.hidden = false;
    setHidden(button.closest(".beside"), remembered());
  });

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-doc-toggle]");
    if (toggle) {
      var beside = toggle.closest(".beside");
      setHidden(beside, !beside.hasAttribute("data-doc-hidden"));
      remember(beside.hasAttribute("data-doc-hidden"));
      return;
    }
    var button = event.target.closest("[data-zoom]");
    var view = button && button.closest("[data-doc-view]");
    if (!view) { return; }
    var zoom = parseFloat(view.dataset.zoom || "1");
    var action = button.getAttribute("data-zoom");
    setZoom(view, action === "in" ? zoom + STEP : action === "out" ? zoom - STEP : 1);
  });
}());
