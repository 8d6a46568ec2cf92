// Shipwrights: local +/- buttons (data-sw-step) for the box-data form and the play page's
// Round Card form, and "another Round Card" rows on the box-data form. No inline script (CSP).
// The play page re-runs this file after each htmx swap: the flag keeps one set of listeners.
(function () {
  "use strict";
  if (window.shipwrightsSteppers) { return; }
  window.shipwrightsSteppers = true;

  // A blank value means "not entered": + makes it 1 and - makes it 0, never a guess.
  function step(button) {
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input || input.disabled) { return; }
    var by = parseInt(button.dataset.swStep, 10);
    var now = parseInt(input.value, 10);
    var value = isNaN(now) ? Math.max(by, 0) : now + by;
    if (input.min !== "" && value < Number(input.min)) { value = Number(input.min); }
    if (input.max !== "" && value > Number(input.max)) { value = Number(input.max); }
    input.value = String(value);
    input.removeAttribute("aria-invalid");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function addCardRow(button) {
    var template = document.getElementById("sw-card-template");
    if (!template) { return false; }
    var rows = document.querySelectorAll("[data-sw-card-row]"), next = 0;
    rows.forEach(function (row) {
      var i = parseInt(row.dataset.swCardRow, 10);
      if (!isNaN(i) && i >= next) { next = i + 1; }
    });
    var html = template.innerHTML.replace(/__i__/g, String(next))
      .replace(/__n__/g, String(next + 1));
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var row = holder.firstElementChild;
    button.closest("p").before(row);
    var first = row.querySelector("input");
    if (first) { first.focus(); }
    return true;
  }

  document.addEventListener("click", function (e) {
    var target = e.target.closest ? e.target : e.target.parentElement;
    var stepper = target && target.closest("button[data-sw-step][aria-controls]");
    if (stepper) { e.preventDefault(); step(stepper); return; }
    var add = target && target.closest("button[data-sw-add-card]");
    if (add && addCardRow(add)) { e.preventDefault(); }
  });

  // After a refused save, take the person straight to the value at fault.
  function focusProblem() {
    var bad = document.querySelector("[data-sw-catalogue] [aria-invalid=true]");
    if (bad) {
      var field = bad.matches("fieldset") ? bad.querySelector("input") : bad;
      if (field) { field.focus(); }
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", focusProblem);
  } else { focusProblem(); }
})();
