// Partner form: say before sending that a partner needs a role (customer, vendor or both).
// Progressive enhancement only: the server checks the same rule and never sends the form on.
(function () {
  "use strict";

  function roleBoxes(form) {
    return [form.querySelector("input[name=is_customer]"), form.querySelector("input[name=is_vendor]")]
      .filter(function (box) { return box; });
  }

  function checkRoles(form) {
    var boxes = roleBoxes(form);
    var ok = boxes.some(function (box) { return box.checked; });
    var message = ok ? "" : (form.getAttribute("data-roles-message") || "");
    boxes.forEach(function (box) { box.setCustomValidity(message); });
    return ok;
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-partner-form]");
    if (form && event.target.matches("input[name=is_customer], input[name=is_vendor]")) {
      checkRoles(form);
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-partner-form]");
    if (form && !checkRoles(form)) {
      event.preventDefault();
      roleBoxes(form)[0].reportValidity();
    }
  }, true);
})();
