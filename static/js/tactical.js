// «Тактические правила»: the six dice buttons type hand dice into the action form; the army builder greys the
// weapons and equipment the chosen troop type's army list entry does not offer (the server refuses them anyway).
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-die]");
    if (!b) return;
    var input = document.getElementById("id_hand_dice");
    if (!input) return;
    var v = b.getAttribute("data-die");
    var dice = input.value.trim() ? input.value.trim().split(/[\s,]+/) : [];
    if (v === "clear") dice.pop(); else dice.push(v);
    input.value = dice.join(" ");
  });

  function grey(form) {
    var entries;
    try { entries = JSON.parse(form.getAttribute("data-entries") || "[]"); } catch (err) { return; }
    var entrySel = form.querySelector("select[name$='entry']");
    if (!entrySel) return;
    var entry = entries.filter(function (x) { return x.id === entrySel.value; })[0];
    if (!entry) return;
    var allowed = {weapon: entry.weapons, armour: entry.armour, shield: entry.shields, horse_armour: entry.horse_armour};
    Object.keys(allowed).forEach(function (field) {
      var sel = form.querySelector("select[name$='-" + field + "']");
      if (!sel) return;
      var ok = (allowed[field] || []).map(function (x) { return x === null ? "" : x; });
      var first = null;
      Array.prototype.forEach.call(sel.options, function (o) {
        o.disabled = ok.indexOf(o.value) === -1;
        if (!o.disabled && first === null) first = o.value;
      });
      if (sel.selectedOptions[0] && sel.selectedOptions[0].disabled && first !== null) sel.value = first;
    });
    var jav = form.querySelector("input[name$='-javelin']");
    if (jav) { jav.disabled = !entry.javelin; if (!entry.javelin) jav.checked = false; }
  }
  function setup() {
    document.querySelectorAll("form[data-entries]").forEach(function (form) {
      grey(form);
      var s = form.querySelector("select[name$='entry']");
      if (s && !s.dataset.trBound) { s.dataset.trBound = "1"; s.addEventListener("change", function () { grey(form); }); }
    });
  }
  setup();
  document.addEventListener("table:refreshed", setup);
})();

// The action panel shows only the fields of the chosen action (a clash, a melee, a volley, a test...).
(function () {
  "use strict";
  var FIELDS = {
    clash: ["attacker", "defender", "attacked_from", "counter"],
    melee: ["melee_units", "attacked_from"],
    volley: ["attacker", "defender", "distance_cm", "cover", "defensive"],
    exchange: ["attacker", "defender", "distance_cm", "cover"],
    test: ["test_kind", "attacker"]
  };
  // each test's own fields, besides the unit tested (none for the Initiative)
  var TESTS = {
    unit: ["killed", "broken", "attacked_from"],
    rally: ["in_command"],
    disorderly: ["stage", "target_1", "target_2", "target_3", "shoots", "advantageous", "shot_with_losses"],
    disorder: ["cause"],
    recover: [],
    loyalty: [],
    general_death: []
  };
  var ALWAYS = ["kind", "modifier", "modifier_reason", "hand_dice", "server_rest"];
  function apply(form) {
    var kind = form.querySelector("select[name=kind]");
    if (!kind) return;
    var show = (FIELDS[kind.value] || []).concat(ALWAYS);
    if (kind.value === "test") {
      var tk = form.querySelector("select[name=test_kind]");
      var test = tk ? tk.value : "unit";
      if (test === "initiative") show = show.filter(function (n) { return n !== "attacker"; });
      show = show.concat(TESTS[test] || []);
    }
    form.querySelectorAll("[data-field]").forEach(function (box) {
      box.hidden = show.indexOf(box.getAttribute("data-field")) === -1;
    });
    // A fleeing unit takes no steadiness test (it rallies instead): not offered for one.
    var steadiness = kind.value === "test" && (form.querySelector("select[name=test_kind]") || {}).value === "unit";
    var unit = form.querySelector("select[name=attacker]");
    if (unit) {
      unit.querySelectorAll("option[data-fleeing]").forEach(function (o) {
        o.disabled = steadiness;
        if (steadiness && o.selected) unit.value = "";
      });
    }
  }
  function setup() {
    document.querySelectorAll("form.tr-form").forEach(function (form) {
      if (!form.querySelector("[data-field=kind]")) return;
      apply(form);
      if (form.dataset.trKinds) return;
      form.dataset.trKinds = "1";
      form.addEventListener("change", function (e) {
        if (e.target.name === "kind" || e.target.name === "test_kind") apply(form);
      });
    });
  }
  setup();
  document.addEventListener("table:refreshed", setup);
})();

// "Show the odds" reads the page again by GET: the form's CSRF token stays out of the address.
document.addEventListener("submit", function (e) {
  "use strict";
  var token = e.target.querySelector("input[name=csrfmiddlewaretoken]");
  if (token) token.disabled = !!(e.submitter && e.submitter.name === "preview");
});

// The manoeuvring map: tapping a card place writes it into the form being filled — the place of a terrain card
// to lay, or the next card of a march's path (the player's target, the moderator's march).
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    if (e.target.closest("[data-clear-path]")) {
      var path = document.getElementById("id_t-steps") || document.getElementById("id_steps");
      if (path) path.value = "";
      return;
    }
    var td = e.target.closest("td[data-cell]");
    if (!td) return;
    var place = document.getElementById("id_l-cell");
    if (place) { place.value = td.getAttribute("data-cell"); return; }
    var steps = document.getElementById("id_t-steps") || document.getElementById("id_steps");
    if (!steps) return;
    var now = steps.value.trim();
    steps.value = (now ? now + " " : "") + td.getAttribute("data-cell");
  });
})();
