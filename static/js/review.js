// Review pages: the keyboard loop, row selection with Shift-click ranges, the key list.
// Every key only clicks or focuses something that is on the page for the mouse too: elements
// carry data-key="d" (several keys: data-key="j ArrowRight"). Plain keys are ignored while the
// user types in a field; Esc leaves the field, Ctrl+Enter saves from inside one.
(function () {
  "use strict";

  var busy = false;
  var cursor = -1;
  var lastChecked = null;

  function typing(el) {
    return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function byKey(key) {
    var found = null;
    document.querySelectorAll("[data-key]").forEach(function (el) {
      if (!found && visible(el) && el.getAttribute("data-key").split(" ").indexOf(key) >= 0) {
        found = el;
      }
    });
    return found;
  }

  function focusItem() {
    var item = document.getElementById("review-item");
    if (item) { item.focus({ preventScroll: false }); }
  }

  // A refused step marks the fields to fix: the first of them takes the focus, not the income.
  function invalidField() {
    return document.querySelector("#review-item [aria-invalid='true'], " +
      "#review-item .has-error :is(input, select, textarea):not([type=hidden])");
  }

  // The key list is a dialog over the page where the user is; closing it gives back the focus
  // and the scroll position it found (however it closes: ?, Esc, its button, another key).
  var keysReturn = null;

  function keyList() {
    return document.getElementById("review-keys");
  }

  function openKeys() {
    var keys = keyList();
    if (!keys || keys.open) { return; }
    keysReturn = { focus: document.activeElement, x: window.scrollX, y: window.scrollY };
    keys.showModal();
  }

  function keysClosed() {
    if (!keysReturn) { return; }
    var back = keysReturn;
    keysReturn = null;
    if (back.focus && back.focus !== document.body && back.focus.isConnected) {
      back.focus.focus({ preventScroll: true });
    } else if (document.activeElement && document.activeElement !== document.body) {
      document.activeElement.blur();
    }
    window.scrollTo(back.x, back.y);
  }

  function closeKeys() {
    var keys = keyList();
    if (keys && keys.open) { keys.close(); }
    keysClosed();
  }

  function toggleKeys() {
    var keys = keyList();
    if (keys && keys.open) { closeKeys(); } else { openKeys(); }
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-keys-open]")) { openKeys(); }
  });

  if (keyList()) { keyList().addEventListener("close", keysClosed); }

  // Enter on a button, link, select, summary or field is that control's own; the queue takes it
  // only from the page itself, a row, or the table (a click on a row's text focuses the table).
  function ownsEnter(el) {
    return !el || el === document.body || el === document.documentElement ||
      el.matches("#review-queue tr[data-row], #review-queue .table-wrap");
  }

  function firstRevenueType() {
    var select = document.querySelector("#review-item select[name$='-revenue_type']");
    if (select) { select.focus(); }
    return !!select;
  }

  // The queue: a row cursor moved with j/k or the arrows.
  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("#review-queue tr[data-row]"));
  }

  function moveCursor(step) {
    var list = rows();
    if (!list.length) { return false; }
    cursor = Math.max(0, Math.min(list.length - 1, cursor + step));
    list.forEach(function (row, index) { row.classList.toggle("is-cursor", index === cursor); });
    list[cursor].scrollIntoView({ block: "nearest" });
    return true;
  }

  function cursorRow() {
    var list = rows();
    return cursor >= 0 && cursor < list.length ? list[cursor] : null;
  }

  function queueKey(key) {
    if (!rows().length) { return false; }
    if (key === "j" || key === "ArrowDown") { return moveCursor(1); }
    if (key === "k" || key === "ArrowUp") { return moveCursor(-1); }
    var row = cursorRow();
    if (!row) { return false; }
    if (key === "x") {
      var box = row.querySelector("[data-select]");
      box.checked = !box.checked;
      updateCount();
      return true;
    }
    if (key === "Enter" || key === "o") {
      row.querySelector("[data-open]").click();
      return true;
    }
    return false;
  }

  function screenKey(key) {
    if (key === "e") { return firstRevenueType(); }
    var el = byKey(key);
    if (!el) { return false; }
    el.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    // An open dialog (a confirmation) has the keys, not the queue behind it.
    if (event.defaultPrevented || event.isComposing ||
        document.querySelector("dialog[open]:not(#review-keys)")) {
      return;
    }
    var target = event.target;
    var keys = keyList();
    if (keys && keys.open) {
      // Its own keys (Esc, Tab, Enter or Space on its button, modifiers) stay the dialog's; ?
      // closes it; a key the list names closes it, then does what the list says it does.
      if (event.key === "?") { event.preventDefault(); closeKeys(); return; }
      var shortcut = /^(.|Arrow.*)$/.test(event.key) || (event.key === "Enter" && event.ctrlKey);
      if (!shortcut || event.key === " ") { return; }
      closeKeys();
      target = document.activeElement || document.body;
    }
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      var save = byKey("ctrl+Enter");
      if (save && !busy) { event.preventDefault(); save.click(); }
      return;
    }
    if (typing(target)) {
      if (event.key === "Escape") { target.blur(); focusItem(); }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "?") { event.preventDefault(); toggleKeys(); return; }
    if (busy) { return; }
    if (event.key === "Enter" && !ownsEnter(target)) { return; }
    var handled = document.getElementById("review-item") ? screenKey(event.key) :
      (queueKey(event.key) || screenKey(event.key));
    if (handled) { event.preventDefault(); }
  });

  // A step is one request at a time: keys pressed while one is under way are dropped. A
  // swapped-in form is wired up only when htmx settles (20 ms later), so until then a key would
  // click its button as a plain form post: the step ends at settle when the response swaps.
  var swapping = false;
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:beforeSwap", function (event) {
    swapping = swapping || !!event.detail.shouldSwap;
  });
  document.addEventListener("htmx:afterRequest", function () { busy = swapping; });
  document.addEventListener("htmx:swapError", function () { busy = swapping = false; });
  document.addEventListener("htmx:afterSettle", function (event) {
    busy = swapping = false;
    var target = event.detail && event.detail.target;
    var id = target ? target.id : "";
    if (id === "review-item") {
      var field = invalidField();
      if (!field) { focusItem(); }
      window.scrollTo({ top: 0 });
      if (field) { field.focus(); }
    }
    if (id === "review-queue") { cursor = -1; lastChecked = null; }
  });

  // Selection: Shift-click selects the range from the last clicked row; "all on this page".
  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll("#review-queue [data-select]"));
  }

  function updateCount() {
    var count = boxes().filter(function (box) { return box.checked; }).length;
    var label = document.querySelector("[data-selected-count]");
    if (label) {
      label.textContent = count === 0 ? "" : count === 1 ? label.getAttribute("data-template-one") :
        label.getAttribute("data-template-many").replace("__N__", String(count));
    }
    var button = document.getElementById("bulk-done");
    if (button) {
      button.textContent = count > 0 ?
        button.getAttribute("data-label-many").replace("__N__", String(count)) :
        button.getAttribute("data-label-none");
    }
    var all = document.querySelector("[data-select-page]");
    if (all) { all.checked = count > 0 && count === boxes().length; }
  }

  document.addEventListener("click", function (event) {
    var box = event.target.closest("[data-select]");
    if (!box) { return; }
    var list = boxes();
    var index = list.indexOf(box);
    if (event.shiftKey && lastChecked !== null && lastChecked !== index) {
      var low = Math.min(lastChecked, index);
      var high = Math.max(lastChecked, index);
      for (var i = low; i <= high; i += 1) { list[i].checked = box.checked; }
    }
    lastChecked = index;
    updateCount();
  });

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-select-page]")) {
      boxes().forEach(function (box) { box.checked = event.target.checked; });
      updateCount();
    }
  });

  // A screen opened by a link or a reload starts on the income too, as it does after a step.
  var item = document.getElementById("review-item");
  if (item && document.activeElement === document.body) {
    (invalidField() || item).focus({ preventScroll: !invalidField() });
  }
})();
