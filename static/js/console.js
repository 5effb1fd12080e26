/* The moderators' console: destructive acts ask first (data-confirm), and a form is sent once (data-once).
 * Every text comes from the page, already translated. The server refuses a second press anyway: each act
 * names the phase, battle or roll it was pressed for. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.dataset.sent === "1") { event.preventDefault(); return; }
    var question = form.dataset.confirm;
    if (question && !window.confirm(question)) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    form.querySelectorAll("button[data-once]").forEach(function (b) {
      /* Disabled after this tick, so the pressed button's name/value still goes with the form. */
      setTimeout(function () { b.disabled = true; }, 0);
    });
  }, false);
  /* Back from the browser's cache: the forms can be sent again. */
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (f) {
      delete f.dataset.sent;
      f.querySelectorAll("button[data-once]").forEach(function (b) { b.disabled = false; });
    });
  });
})();

/* A paper order (R14) with the tablet's legal pickers (pickers.js); the button waits for a whole order. */
(function () {
  "use strict";
  function sync(form) {
    var picked = window.LegalPickers.show(form), type = picked.type, complete = picked.complete;
    var button = form.querySelector("[data-submit]");
    if (button) button.disabled = !complete;
    var missing = form.querySelector("[data-missing]");
    if (missing) missing.textContent = complete ? "" : missingText(form, missing, type);
  }
  /* What is still to choose, in words: the order type, or the first shown step with nothing picked. */
  function missingText(form, box, type) {
    if (!type) return box.dataset.needType;
    var open = Array.prototype.find.call(form.querySelectorAll("fieldset[data-group]"), function (fs) {
      return !fs.hidden && !fs.querySelector("input:checked");
    });
    if (open) {
      var legend = open.querySelector("legend");
      var what = legend ? legend.textContent.trim() : "";
      return box.dataset.needStep + " «" + what + "».";
    }
    return box.dataset.needMore;
  }
  function syncAll() { document.querySelectorAll("form[data-paper-order]").forEach(sync); }
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("form[data-paper-order]");
    if (!form) return;
    window.LegalPickers.changed(form, ev.target);
    sync(form);
  });
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSettle", syncAll);
})();
