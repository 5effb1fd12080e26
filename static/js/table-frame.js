/* A table's moderator frame (templates/tables/partials/frame.html) follows the table: the live refresh
 * (table-live.js) swaps in a fresh hidden [data-frame-source] with the page's parts — the frame itself stays
 * outside them, a direct child of <main> — and its round, whose move and next act are copied into the bar. */
(function () {
  "use strict";
  function follow() {
    var data = document.querySelector("[data-frame-source]");
    var frame = document.querySelector("[data-table-frame]");
    if (!data || !frame) return;
    var round = frame.querySelector("[data-frame-round]");
    var whose = frame.querySelector("[data-frame-whose]");
    if (round) round.textContent = data.getAttribute("data-round") || "";
    if (whose) {
      whose.textContent = data.getAttribute("data-whose") || "";
      whose.classList.toggle("over", data.getAttribute("data-over") === "1");
    }
    var slot = frame.querySelector(".frame-next");
    if (!slot) return;
    var label = data.getAttribute("data-next-label") || "", anchor = data.getAttribute("data-next-anchor") || "";
    var link = slot.querySelector("[data-frame-next]");
    if (!label) { if (link) link.remove(); return; }
    if (!link) {
      link = document.createElement("a");
      link.className = "button primary";
      link.setAttribute("data-frame-next", "");
      slot.appendChild(link);
    }
    link.setAttribute("href", "#" + anchor);
    link.textContent = label + " \u2193";
  }
  document.addEventListener("table:refreshed", follow);
})();
