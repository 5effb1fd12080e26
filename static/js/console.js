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
