// Bookdesk progressive enhancements. Everything works without this file; it only smooths edges.
// Loaded with `defer` from base.html; no inline scripts anywhere (strict CSP).
(function () {
  "use strict";

  var MESSAGES_ID = "messages";

  // <details> menus: close on outside click and on Escape, one open at a time.
  function closeMenus(except) {
    document.querySelectorAll("details.menu[open]").forEach(function (menu) {
      if (menu !== except) { menu.removeAttribute("open"); }
    });
  }
  document.addEventListener("click", function (event) {
    closeMenus(event.target.closest("details.menu"));
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var open = document.querySelector("details.menu[open]");
    if (open) {
      open.removeAttribute("open");
      var summary = open.querySelector("summary");
      if (summary) { summary.focus(); }
    }
  });

  // A frame whose document takes the focus (a PDF viewer) never matches :focus in Chromium:
  // it is marked while it holds the focus, so it shows the ring (static/css/app.css).
  window.addEventListener("blur", function () {
    var frame = document.activeElement;
    if (frame && frame.tagName === "IFRAME") { frame.classList.add("has-focus"); }
  });
  window.addEventListener("focus", function () {
    document.querySelectorAll("iframe.has-focus").forEach(function (frame) {
      frame.classList.remove("has-focus");
    });
  });

  // Phones: the menu button opens and closes the top bar's panel (navigation, language,
  // sign-out). Until this runs the button stays hidden and the whole navigation shows.
  var topbar = document.querySelector(".topbar");
  var toggle = topbar && topbar.querySelector(".navtoggle");
  function setNavOpen(open) {
    topbar.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  if (toggle) {
    toggle.hidden = false;
    topbar.classList.add("has-navtoggle");
    toggle.addEventListener("click", function () {
      setNavOpen(toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && topbar.classList.contains("is-open") &&
          !document.querySelector("details.menu[open]")) {
        setNavOpen(false);
        toggle.focus();
      }
    });
  }

  // Forms marked data-autosubmit submit when one of their selects/checkboxes changes (filters).
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-autosubmit]");
    if (form && event.target.matches("select, input[type=checkbox], input[type=radio]")) {
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  });

  // Buttons/links marked data-confirm ask first, in the page's dialog (base.html): window.confirm
  // would label its buttons in the browser's language. Confirmed, the click is made again.
  var confirmDialog = document.getElementById("confirm-dialog");
  function clickConfirmed(el) {
    el.setAttribute("data-confirmed", "");
    el.click();
  }
  function askThenRepeat(el) {
    var text = confirmDialog.querySelector(".confirm-dialog__text");
    text.textContent = el.getAttribute("data-confirm");
    confirmDialog.returnValue = "";
    confirmDialog.addEventListener("close", function () {
      if (confirmDialog.returnValue === "yes") { clickConfirmed(el); } else { el.focus(); }
    }, {once: true});
    confirmDialog.showModal();
  }
  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-confirm]");
    if (!el || el.hasAttribute("data-confirmed")) {
      if (el) { el.removeAttribute("data-confirmed"); }
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (confirmDialog) {
      askThenRepeat(el);
    } else if (window.confirm(el.getAttribute("data-confirm"))) {
      clickConfirmed(el);
    }
  }, true);

  // File inputs (macros/forms.html file_picker): the browser would label its control in its own
  // language; the page's button and the chosen files' names show instead. The transparent input
  // over them still takes the clicks, drops and keyboard focus.
  function showFileNames(picker) {
    var input = picker.querySelector("input[type=file]");
    var names = Array.prototype.map.call(input.files || [], function (file) { return file.name; });
    picker.querySelector(".filepick__names").textContent =
      names.length ? names.join(", ") : picker.getAttribute("data-none");
  }
  function enhanceFilePickers(root) {
    root.querySelectorAll("[data-file-picker]:not(.is-enhanced)").forEach(function (picker) {
      picker.classList.add("is-enhanced");
      picker.querySelectorAll("[hidden]").forEach(function (el) { el.hidden = false; });
      showFileNames(picker);
    });
  }
  enhanceFilePickers(document);
  document.addEventListener("htmx:load", function (event) { enhanceFilePickers(event.target); });
  document.addEventListener("change", function (event) {
    var picker = event.target.closest("[data-file-picker]");
    if (picker) { showFileNames(picker); }
  });

  // Tick-box pickers (a <details> of checkboxes: tags on the tax grid and in policies): the
  // summary names what is ticked as the user ticks, as the server draws it.
  document.addEventListener("change", function (event) {
    var picker = event.target.closest("details[data-picker], details[data-tag-picker]");
    if (!picker || !event.target.matches("input[type=checkbox]")) { return; }
    var names = [];
    picker.querySelectorAll("input[type=checkbox]:checked").forEach(function (box) {
      var label = box.closest("label");
      var text = label && (label.querySelector("[data-tag-label]") || label);
      names.push(text ? text.textContent.trim() : box.value);
    });
    var target = picker.querySelector("[data-picker-names]") || picker.querySelector("summary");
    target.textContent = names.length ? names.join(", ") : (picker.getAttribute("data-empty") || "—");
  });

  // A required field left empty: the browser would say so in its own language. Fields the page
  // already gave a message of its own (catalog.js, forms.js) keep theirs.
  var MISSING = {
    file: "data-file-missing", checkbox: "data-check-missing", radio: "data-check-missing"
  };
  var ownMessage = new WeakSet();
  document.addEventListener("invalid", function (event) {
    var field = event.target;
    if (!field.validity.valueMissing || (field.validity.customError && !ownMessage.has(field))) {
      return;
    }
    var message = MISSING[field.type] || "data-value-missing";
    field.setCustomValidity(document.body.getAttribute(message));
    ownMessage.add(field);
  }, true);
  function clearOwnMessage(event) {
    if (ownMessage.has(event.target)) {
      event.target.setCustomValidity("");
      ownMessage.delete(event.target);
    }
  }
  document.addEventListener("input", clearOwnMessage);
  document.addEventListener("change", clearOwnMessage);

  // A network failure on an htmx request: say so in the message area instead of doing nothing.
  function showMessage(text) {
    var area = document.getElementById(MESSAGES_ID);
    if (!area) { return; }
    var div = document.createElement("div");
    div.className = "alert alert--error";
    div.setAttribute("role", "alert");
    div.textContent = text;
    area.replaceChildren(div);
  }
  document.addEventListener("htmx:sendError", function () {
    var text = document.body.getAttribute("data-network-error") ||
      "The server could not be reached. Check your connection and try again.";
    showMessage(text);
  });

  // After an error message is swapped in, move focus there so keyboard users notice it.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === MESSAGES_ID) {
      event.detail.target.setAttribute("tabindex", "-1");
      event.detail.target.focus();
    }
  });

  // A filter sent twice unchanged (a select runs it, then the Filter button) is one place in
  // the history, not two, or Back would seem to do nothing (htmx lets this event change it).
  document.addEventListener("htmx:beforeHistoryUpdate", function (event) {
    var history = event.detail.history;
    if (history.type === "push" && new URL(history.path, location.href).href === location.href) {
      history.type = "replace";
    }
  });

  // A table wider than its box fades out on the side that has more (data-more, app.css), so
  // on a phone the columns off screen, amounts among them, show that they are there.
  function markMore(wrap) {
    var left = wrap.scrollLeft > 1;
    var right = wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1;
    if (left || right) {
      wrap.dataset.more = left && right ? "both" : (left ? "left" : "right");
    } else {
      delete wrap.dataset.more;
    }
  }
  var resized = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { markMore(entry.target.closest(".table-wrap")); });
  }) : null;
  function watchTables(root) {
    root.querySelectorAll(".table-wrap").forEach(function (wrap) {
      markMore(wrap);
      if (resized) { resized.observe(wrap); resized.observe(wrap.firstElementChild || wrap); }
    });
  }
  document.addEventListener("scroll", function (event) {
    if (event.target.classList && event.target.classList.contains("table-wrap")) {
      markMore(event.target);
    }
  }, true);
  document.addEventListener("htmx:load", function () { watchTables(document); });
  watchTables(document);
})();
