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

// The moderator's frame (templates/tables/partials/frame.html) follows the table: after the live refresh swaps the
// page's parts, the tour, whose move and the next act are copied from the fresh hidden #orda-frame-live.
(function () {
  "use strict";
  function sync() {
    var data = document.getElementById("orda-frame-live");
    var frame = document.querySelector("[data-table-frame]");
    if (!data || !frame) return;
    var round = frame.querySelector("[data-frame-round]");
    var whose = frame.querySelector("[data-frame-whose]");
    if (round) round.textContent = data.dataset.round || "";
    if (whose) {
      whose.textContent = data.dataset.whose || "";
      whose.classList.toggle("over", data.dataset.over === "1");
    }
    var slot = frame.querySelector(".frame-next");
    if (!slot) return;
    var label = data.dataset.nextLabel || "", anchor = data.dataset.nextAnchor || "";
    var link = slot.querySelector("[data-frame-next]");
    if (!label) { if (link) link.remove(); return; }
    if (!link) {
      link = document.createElement("a");
      link.className = "button primary";
      link.setAttribute("data-frame-next", "");
      slot.appendChild(link);
    }
    link.setAttribute("href", "#" + anchor);
    link.textContent = label + " ↓";
  }
  document.addEventListener("table:refreshed", sync);
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
