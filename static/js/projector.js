/* The projector follows the console within a second: it polls a small version token (about twice a second)
 * and asks for the stage only when the token changed, so a quickly clicking moderator never skips a step in
 * front of the hall. One request at a time; a failed poll is simply tried again. */
(function () {
  "use strict";
  var PERIOD = 500;
  function shownVersion(stage) {
    var mark = stage.querySelector("[data-stage-version]");
    return mark ? mark.dataset.stageVersion : "";
  }
  // The battle being fought stays in sight on a long board.
  function showCurrent() {
    var current = document.querySelector(".battle-list .battle-current");
    if (current && window.innerWidth > 1100) current.scrollIntoView({block: "nearest"});
  }
  // The full-screen button: the projector's browser shows nothing but the page.
  function fullScreen() {
    var button = document.querySelector("[data-fullscreen]");
    if (!button || !document.documentElement.requestFullscreen) { if (button) button.hidden = true; return; }
    button.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(function () {});
    });
  }
  document.addEventListener("DOMContentLoaded", fullScreen);
  function start() {
    var stage = document.getElementById("stage");
    if (!stage || !stage.dataset.versionUrl || !window.fetch) return;
    var busy = false, asked = "";
    function poll() {
      if (busy) return;
      busy = true;
      fetch(stage.dataset.versionUrl, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && data.v && data.v !== shownVersion(stage) && data.v !== asked) {
            asked = data.v;
            if (window.htmx) window.htmx.trigger(stage, "hall-changed");
          }
        })
        .catch(function () {})
        .then(function () { busy = false; });
    }
    document.body.addEventListener("htmx:afterSwap", function () { asked = ""; showCurrent(); });
    showCurrent();
    setInterval(poll, PERIOD);
  }
  document.addEventListener("DOMContentLoaded", start);
})();
