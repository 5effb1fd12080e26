/* A past turn's replay: ← and → step through its frames (the links stay plain links without JavaScript). */
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var rel = event.key === "ArrowRight" ? "next" : event.key === "ArrowLeft" ? "prev" : null;
    if (!rel) return;
    var link = document.querySelector("[data-replay] a[rel=" + rel + "]");
    if (link) { event.preventDefault(); link.click(); }
  });
})();
