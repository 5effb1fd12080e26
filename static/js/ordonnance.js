// «Ордонанс», the moderator's entry of a laid card: a card picked from the deck list ticks its symbols
// (one tap for the whole card); the symbols can still be ticked one by one. Works after live refreshes.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".roster-card");
    if (!button) return;
    var form = button.closest("form");
    var wanted = (button.getAttribute("data-symbols") || "").split(" ");
    form.querySelectorAll("input[name=symbols]").forEach(function (box) {
      box.checked = wanted.indexOf(box.value) !== -1;
    });
  });
})();
