// Policy editor enhancements (app/policies). Everything also works by submitting forms;
// this file adds live checks, keyboard moves and focus that follows the moved rule.
(function () {
  "use strict";

  var CHECK_EVENT = "policy-check";
  var timer = null;

  // Ask the server to check the rule form: htmx listens for the event on the form's checker.
  function requestCheck(form) {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var checker = form.querySelector("[data-rule-check]");
      if (checker) { checker.dispatchEvent(new CustomEvent(CHECK_EVENT, { bubbles: false })); }
    }, 150);
  }

  // A button press wins over a check still waiting: the check would race the apply.
  document.addEventListener("submit", function (event) {
    if (event.target.matches("form[data-rule-form]")) { window.clearTimeout(timer); }
  }, true);

  // A check's answer redraws the form as it was when the check was sent: one that comes back
  // after the user changed or typed anything more is not shown (the next check follows).
  var edits = 0;
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("form[data-rule-form]")) { edits += 1; }
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.matches("[data-rule-check]")) { event.detail.xhr.bookdeskEdits = edits; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var sent = event.detail.xhr.bookdeskEdits;
    if (sent !== undefined && sent !== edits) { event.detail.shouldSwap = false; }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-rule-form]");
    if (!form) { return; }
    if (event.target.matches("[data-condition-field]")) { syncRow(event.target.closest("tr")); }
    if (event.target.matches("[data-condition-op]")) { syncRow(event.target.closest("tr")); }
    var picker = event.target.closest("[data-tag-picker]");
    if (picker) {  // its summary follows the ticks (app.js)
      picker.setAttribute("data-changed", "1");
      return;  // checked when the picker closes, so it stays open while ticking
    }
    requestCheck(form);
  });

  // A tag picker that closes after a change triggers the check.
  document.addEventListener("toggle", function (event) {
    var picker = event.target;
    if (!picker.matches || !picker.matches("[data-tag-picker]") || picker.open) { return; }
    if (picker.getAttribute("data-changed")) {
      picker.removeAttribute("data-changed");
      var form = picker.closest("form[data-rule-form]");
      if (form) { requestCheck(form); }
    }
  }, true);

  // Close an open tag picker on a click elsewhere or on Escape.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("[data-tag-picker][open]").forEach(function (picker) {
      if (!picker.contains(event.target)) { picker.removeAttribute("open"); }
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var picker = event.target.closest && event.target.closest("[data-tag-picker][open]");
    if (picker) {
      picker.removeAttribute("open");
      picker.querySelector("summary").focus();
    }
  });

  // A condition row: comparisons that do not suit the field are greyed out; "between" shows
  // its second value.
  function syncRow(row) {
    if (!row) { return; }
    var field = row.querySelector("[data-condition-field]");
    var op = row.querySelector("[data-condition-op]");
    if (!field || !op) { return; }
    var kind = field.selectedOptions[0] ? field.selectedOptions[0].getAttribute("data-kind") : "";
    Array.prototype.forEach.call(op.options, function (option) {
      var suits = option.getAttribute("data-kind");
      option.disabled = suits !== "any" && suits !== kind;
    });
    if (op.selectedOptions[0] && op.selectedOptions[0].disabled) {
      var first = Array.prototype.find.call(op.options, function (o) { return !o.disabled; });
      if (first) { op.value = first.value; }
    }
    var second = row.querySelector("[data-between]");
    if (second) { second.hidden = op.value !== "between"; }
  }

  function init(root) {
    root.querySelectorAll("tr[data-condition-row]").forEach(syncRow);
  }

  // Alt+Up / Alt+Down on any control of a rule card moves the rule.
  document.addEventListener("keydown", function (event) {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) { return; }
    var card = event.target.closest && event.target.closest("[data-rule-card]");
    if (!card) { return; }
    var which = event.key === "ArrowUp" ? "move-up" : "move-down";
    var button = card.querySelector("[data-move='" + which + "']");
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // After the list is redrawn, the keyboard focus follows the rule that was acted on.
  function restoreFocus(root) {
    var target = root.querySelector("[data-focus]");
    if (!target) { return; }
    if (target.disabled) {
      // The rule reached the top or bottom: keep the focus on the other move button.
      var card = target.closest("[data-rule-card]");
      var other = target.getAttribute("data-move") === "move-up" ? "move-down" : "move-up";
      target = card ? card.querySelector("[data-move='" + other + "']:not([disabled])") ||
        card.querySelector("a") : null;
    }
    if (target) { target.focus(); }
  }

  document.addEventListener("htmx:afterSettle", function () {
    init(document);
    restoreFocus(document);
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
})();
