/* The legal-choice pickers of an order form, shared by the tablet's order cards (tablet.js) and the
 * console's paper order (console.js). Every legal choice is in the page (from the engine's legal_steps):
 * a step's fieldset shows when the order type and the steps before it match, a fleet's when the first step
 * matches; hidden fieldsets are disabled so they are not sent. */
window.LegalPickers = (function () {
  "use strict";
  /* Show what the picks so far allow; returns {type, path, complete}. */
  function show(form) {
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
      /* An unpicked step leaves the order as complete as the last pick made it: a march's second step
       * is optional, so «Проход» and one province is a whole order (the first step is never optional). */
      if (pick) { path.push(pick.value); complete = pick.dataset.complete === "1"; }
      else if (depth === 1) { complete = false; }
    }
    form.querySelectorAll("fieldset[data-group=fleet]").forEach(function (fs) {
      var on = fs.dataset.type === type && path.length > 0 && fs.dataset.prefix === path[0];
      fs.hidden = !on; fs.disabled = !on;
    });
    return { type: type, path: path, complete: complete };
  }
  /* Untick every step from `depth` on (a new type or an earlier step makes them meaningless). */
  function clearFrom(form, depth) {
    form.querySelectorAll("fieldset[data-group=step]").forEach(function (fs) {
      if (Number(fs.dataset.depth) >= depth) fs.querySelectorAll("input:checked").forEach(function (i) { i.checked = false; });
    });
  }
  /* A pick changed: clear what came after it. */
  function changed(form, target) {
    if (target.name === "type") clearFrom(form, 1);
    var m = /^s(\d)$/.exec(target.name || "");
    if (m) clearFrom(form, Number(m[1]) + 1);
  }
  return { show: show, clearFrom: clearFrom, changed: changed };
})();
