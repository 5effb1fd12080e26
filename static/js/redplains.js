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
