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

/* A paper order (R14) with the tablet's legal pickers: a step shows when the order type and the steps
 * before it match; hidden steps are disabled so they are not sent; the button waits for a whole order. */
(function () {
  "use strict";
  function sync(form) {
    var typeInput = form.querySelector("input[name=type]:checked");
    var type = typeInput ? typeInput.value : "", path = [], complete = type === "hold";
    for (var depth = 1; depth <= 3; depth++) {
      var prefix = path.join("|"), shown = null;
      form.querySelectorAll('fieldset[data-group=step][data-depth="' + depth + '"]').forEach(function (fs) {
        var on = type !== "" && fs.dataset.type === type && fs.dataset.prefix === prefix && path.length === depth - 1;
        fs.hidden = !on; fs.disabled = !on;
        if (on) shown = fs;
      });
      if (!shown) continue;
      var pick = shown.querySelector("input:checked");
      if (pick) { path.push(pick.value); complete = pick.dataset.complete === "1"; }
      else if (depth === 1) { complete = false; }
    }
    form.querySelectorAll("fieldset[data-group=fleet]").forEach(function (fs) {
      var on = fs.dataset.type === type && path.length > 0 && fs.dataset.prefix === path[0];
      fs.hidden = !on; fs.disabled = !on;
    });
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
  function clearFrom(form, depth) {
    form.querySelectorAll("fieldset[data-group=step]").forEach(function (fs) {
      if (Number(fs.dataset.depth) >= depth) fs.querySelectorAll("input:checked").forEach(function (i) { i.checked = false; });
    });
  }
  function syncAll() { document.querySelectorAll("form[data-paper-order]").forEach(sync); }
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("form[data-paper-order]");
    if (!form) return;
    if (ev.target.name === "type") clearFrom(form, 1);
    var m = /^s(\d)$/.exec(ev.target.name || "");
    if (m) clearFrom(form, Number(m[1]) + 1);
    sync(form);
  });
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSettle", syncAll);
})();
