// Red Plains deployment by tapping: tap one of your units in the list (or its counter), then a cell of your
// zone on the field; the cell's select in the form follows, and the form is what is posted (no JS needed).
(function () {
  "use strict";
  var picking = null;

  function forms() { return document.querySelectorAll("form[data-deploy]"); }

  function mark() {
    document.querySelectorAll("[data-pick-unit]").forEach(function (row) {
      row.classList.toggle("picking", row.getAttribute("data-pick-unit") === picking);
    });
    var zone = {};
    forms().forEach(function (f) {
      f.querySelectorAll("select[data-cell-for] option").forEach(function (o) { if (o.value) zone[o.value] = true; });
    });
    document.querySelectorAll("[data-cell]").forEach(function (g) {
      g.classList.toggle("pickable", picking !== null && zone[g.getAttribute("data-cell")] === true);
    });
  }

  document.addEventListener("click", function (ev) {
    var row = ev.target.closest("[data-pick-unit]");
    if (row && !ev.target.closest("select")) { picking = row.getAttribute("data-pick-unit"); mark(); return; }
    var counter = ev.target.closest("[data-unit]");
    if (counter && document.querySelector('select[data-cell-for="' + counter.getAttribute("data-unit") + '"]')) {
      picking = counter.getAttribute("data-unit"); mark(); return;
    }
    var cell = ev.target.closest("[data-cell]");
    if (cell && picking) {
      var select = document.querySelector('select[data-cell-for="' + picking + '"]');
      var value = cell.getAttribute("data-cell");
      if (select && select.querySelector('option[value="' + value + '"]')) {
        document.querySelectorAll("select[data-cell-for]").forEach(function (s) { if (s.value === value) s.value = ""; });
        select.value = value;
        picking = null;
        mark();
      }
    }
  });
  document.addEventListener("table:refreshed", mark);
})();

// W2.5 on the moderator's board: tap a dashed place next to the field's edge to tick (or untick) that cell in
// the «add cells» form below; the form is what is posted (its list of boxes works without this script too).
(function () {
  "use strict";
  function box(id) { return document.querySelector('input[data-extend-cell="' + id + '"]'); }
  function mark() {
    document.querySelectorAll("[data-add-cell]").forEach(function (g) {
      var b = box(g.getAttribute("data-add-cell"));
      g.classList.toggle("chosen", !!(b && b.checked));
    });
  }
  document.addEventListener("click", function (ev) {
    var ghost = ev.target.closest("[data-add-cell]");
    if (!ghost) return;
    var b = box(ghost.getAttribute("data-add-cell"));
    if (b) { b.checked = !b.checked; mark(); }
  });
  document.addEventListener("change", function (ev) { if (ev.target.closest("[data-extend-cell]")) mark(); });
  document.addEventListener("table:refreshed", mark);
})();

// The order picker: the second select lists only what the order chosen in the first names (the cavalry's second
// action, the target, the direction, the Dragon's turn and distance); it is hidden when there is nothing to choose.
// Without JS both lists are whole and the server checks the pair.
(function () {
  "use strict";
  var all = new WeakMap();

  function sync(orderSelect) {
    var key = orderSelect.getAttribute("data-order");
    var detail = document.querySelector('select[data-detail="' + key + '"]');
    if (!detail) return;
    if (!all.has(detail)) {
      all.set(detail, Array.prototype.map.call(detail.querySelectorAll("option[data-group]"),
                                               function (o) { return o.cloneNode(true); }));
    }
    var keep = detail.value;
    var group = orderSelect.value;
    var mine = all.get(detail).filter(function (o) { return o.getAttribute("data-group") === group; });
    detail.innerHTML = "";
    mine.forEach(function (o) { detail.appendChild(o.cloneNode(true)); });
    var chosen = mine.filter(function (o) { return o.value === keep && !o.disabled; })[0] ||
      mine.filter(function (o) { return !o.disabled; })[0];
    if (chosen) detail.value = chosen.value;
    detail.hidden = mine.length <= 1;
  }

  function init() { document.querySelectorAll("select[data-order]").forEach(sync); }

  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("select[data-order]")) sync(ev.target);
  });
  document.addEventListener("table:refreshed", init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
