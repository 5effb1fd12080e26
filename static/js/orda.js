// «Орда»: a click on a highlighted hex of the board presses the matching move or attack button of the panel;
// on the board editor, a click on a hex submits it with the current brush.
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var g = ev.target.closest && ev.target.closest("svg.orda-board g.hex");
    if (!g || ev.target.closest("a")) return;
    var key = g.getAttribute("data-hex");
    var editor = document.getElementById("orda-board-editor");
    if (editor) {
      editor.querySelector("input[name=hex]").value = key;
      editor.submit();
      return;
    }
    var kind = g.classList.contains("can-target") ? "target" : (g.classList.contains("can-move") ? "move" : null);
    if (!kind) return;
    var button = document.querySelector('button[data-kind="' + kind + '"][data-hex="' + key + '"]');
    if (button) button.click();
  });
})();
// A refused act's page is rendered at the act's address (…/act/<name>/): the address goes back to the table's, so
// the unit links (?unit=…), a reload and the live refresh work from it as from the table's page.
(function () {
  "use strict";
  var root = document.querySelector("[data-table-url]");
  if (!root || !window.history || !window.history.replaceState) return;
  var home = root.getAttribute("data-table-url");
  if (window.location.pathname !== home) window.history.replaceState(null, "", home);
})();
