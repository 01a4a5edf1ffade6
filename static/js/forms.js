// Record forms (app/forms): row tables, tag pickers, paired dates, currency and exchange rate.
// Progressive enhancement only: every action also works by submitting the form.
(function () {
  "use strict";

  // Row tables: add a row from the <template>, remove a row, without a round trip.
  document.addEventListener("click", function (event) {
    var add = event.target.closest("[data-add-row]");
    var remove = event.target.closest("[data-remove-row]");
    if (add) {
      event.preventDefault();
      addRow(add.closest("[data-rowtable]"));
    } else if (remove) {
      event.preventDefault();
      removeRow(remove.closest("tr[data-row]"));
    }
  });

  function addRow(table) {
    var template = table.querySelector("template[data-row-template]");
    var body = table.querySelector("tbody[data-rows]");
    if (!template || !body) { return; }
    var index = parseInt(table.getAttribute("data-next-index") || "0", 10);
    table.setAttribute("data-next-index", String(index + 1));
    var html = template.innerHTML.split("__index__").join(String(index));
    var holder = document.createElement("tbody");
    holder.innerHTML = html;
    var row = holder.querySelector("tr");
    var empty = body.querySelector(".rowtable__empty");
    if (empty) { empty.remove(); }
    body.appendChild(row);
    if (window.htmx) { window.htmx.process(row); }
    var first = row.querySelector("input:not([type=hidden]), select");
    if (first) { first.focus(); }
  }

  function removeRow(row) {
    if (!row) { return; }
    var next = row.nextElementSibling;
    if (next && next.classList.contains("rowtable__errors")) { next.remove(); }
    row.remove();
  }

  // Close an open picker when clicking elsewhere.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details[data-picker][open]").forEach(function (picker) {
      if (!picker.contains(event.target)) { picker.removeAttribute("open"); }
    });
  });

  // Paired dates: the start may not be after the end (the server checks again).
  function checkOrder(start) {
    var end = document.getElementById(start.getAttribute("data-not-after"));
    if (!end) { return; }
    var late = start.value && end.value && start.value > end.value;
    start.setCustomValidity(late ? (start.getAttribute("data-not-after-message") || "") : "");
  }
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches("[data-not-after]")) { checkOrder(target); }
    document.querySelectorAll("[data-not-after='" + target.id + "']").forEach(checkOrder);
  });

  // Before sending: the same two checks the server makes, so the answer comes at once.
  // One message list of a kind ("client-error", "totals-error") under an input, or none.
  function showMessage(input, kind, message) {
    var field = input.closest(".field") || input.parentNode;
    var old = field.querySelector("[data-" + kind + "]");
    if (old) { old.remove(); }
    if (!message) { return field; }
    var list = document.createElement("ul");
    list.className = "field__errors";
    list.setAttribute("data-" + kind, "");
    list.setAttribute("aria-live", "polite");
    list.id = input.id + "-" + kind;
    var item = document.createElement("li");
    item.textContent = message;
    list.appendChild(item);
    field.appendChild(list);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", list.id);
    return field;
  }

  function fieldError(input, message) {
    var field = showMessage(input, "client-error", message);
    field.classList.toggle("has-error", Boolean(message));
    if (!message) { input.removeAttribute("aria-invalid"); }
    return Boolean(message);
  }

  function orderProblem(start) {
    var end = document.getElementById(start.getAttribute("data-not-after"));
    var late = end && start.value && end.value && start.value > end.value;
    return fieldError(start, late ? start.getAttribute("data-not-after-message") : "");
  }

  function rateProblem(select) {
    var rate = document.getElementById(select.getAttribute("data-rate-field") || "exchange_rate");
    if (!rate) { return false; }
    var foreign = select.value && select.value !== select.getAttribute("data-default-currency");
    var option = select.options[select.selectedIndex];
    var touched = !(option && option.defaultSelected) || rate.value !== rate.defaultValue;
    if (!touched && !select.form.hasAttribute("data-new")) { return fieldError(rate, ""); }
    var value = rate.value.replace(/[\s\u00a0]/g, "").replace(",", ".");
    var missing = foreign && (!value || Number(value) === 1);
    return fieldError(rate, missing ? rate.getAttribute("data-rate-message") || "" : "");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    if (submitter && submitter.name === "table_op") { return; }
    var bad = [];
    form.querySelectorAll("[data-not-after]").forEach(function (start) {
      if (orderProblem(start)) { bad.push(start); }
    });
    form.querySelectorAll("select[data-default-currency]").forEach(function (select) {
      if (rateProblem(select)) { bad.push(document.getElementById("exchange_rate")); }
    });
    if (bad.length) {
      event.preventDefault();
      bad[0].focus();
    }
  });

  // Currency: a currency other than the company's needs an exchange rate; say so up front.
  function syncRate(select) {
    var rate = document.getElementById(select.getAttribute("data-rate-field") || "exchange_rate");
    var hint = document.querySelector("[data-rate-hint]");
    if (!rate) { return; }
    var foreign = select.value && select.value !== select.getAttribute("data-default-currency");
    rate.required = Boolean(foreign);
    rate.closest(".field").classList.toggle("is-required", Boolean(foreign));
    if (hint) { hint.hidden = !foreign; }
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-default-currency]")) { syncRate(event.target); }
  });
  document.querySelectorAll("select[data-default-currency]").forEach(syncRate);

  // Live totals (app/forms/totals.py, answered as an HX-Trigger "totals" event): VAT and gross
  // computed from net and rate, and a message on every amount that does not add up. A cell
  // being typed in is never overwritten; the values put in are remembered in totals_auto, so
  // the server tells them from typed ones next time.
  function totalsMessage(input, message) {
    var field = showMessage(input, "totals-error", message);
    if (!message && !field.querySelector(".field__errors")) { input.removeAttribute("aria-invalid"); }
  }

  document.addEventListener("totals", function (event) {
    var form = event.target.closest && event.target.closest("form");
    var answer = event.detail || {};
    if (!form) { return; }
    var auto = {};
    var was = answer.was || {};
    Object.keys(answer.values || {}).forEach(function (name) {
      var input = form.elements.namedItem(name);
      // Typed in since the request left: the user's text stays. A cell only tabbed into still
      // holds the computed value, so it follows, its text still selected whole for typing over.
      if (!input || input.value !== was[name]) { return; }
      var whole = input === document.activeElement && input.value !== "" &&
        input.selectionStart === 0 && input.selectionEnd === input.value.length;
      input.value = answer.values[name];
      if (whole) { input.select(); }
      auto[name] = answer.values[name];
    });
    Object.keys(answer.auto || {}).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (!(name in (answer.values || {})) && input && input.value === answer.auto[name]) {
        auto[name] = answer.auto[name];
      }
    });
    var store = form.querySelector("[data-totals-auto]");
    if (store) { store.value = JSON.stringify(auto); }
    Object.keys(answer.errors || {}).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input) { totalsMessage(input, answer.errors[name]); }
    });
    Object.keys(answer.sums || {}).forEach(function (name) {
      var cell = form.querySelector('[data-sum="' + name + '"]');
      if (!cell) { return; }
      cell.querySelector("[data-sum-value]").textContent = answer.sums[name] || "\u2014";
      cell.querySelector("[data-sum-saved]").textContent = (answer.saved || {})[name] || "";
    });
  });

  // Once the form is really being sent (no check above stopped it), a live totals request
  // still waiting for its delay is not started: leaving the page would only abort it.
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { event.target.setAttribute("data-sending", ""); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var input = event.target;
    if (input.hasAttribute("data-totals") && input.closest("form[data-sending]")) {
      event.preventDefault();
    }
  });
})();
