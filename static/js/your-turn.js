/* «Your move» on a player's tablet: when the live refresh (table-live.js) turns this seat's move on
 * ([data-your-move] from "0" to "1"), the banner is announced and, if the player turned them on, the tablet
 * vibrates briefly (Vibration API) and beeps (Web Audio, a generated tone). Sound and vibration are off by
 * default; the toggle is remembered in localStorage. A page opened on one's move shows the banner without a sound.
 * Every text comes from the page (data-msg-*), already translated. */
(function () {
  "use strict";
  var KEY = "larp.yourMove.sound";
  var audio = null;
  var last = null;

  function enabled() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
  }

  function context() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) { try { audio = new Ctx(); } catch (e) { return null; } }
    if (audio.state === "suspended" && audio.resume) audio.resume().catch(function () {});
    return audio;
  }

  function beep() {
    var ctx = context();
    if (!ctx) return;
    var osc = ctx.createOscillator(), gain = ctx.createGain(), t = ctx.currentTime;
    osc.type = "sine";
    osc.frequency.setValueAtTime(880, t);
    osc.frequency.setValueAtTime(1320, t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.32);
  }

  function buzz() {
    if (navigator.vibrate) { try { navigator.vibrate([180, 80, 180]); } catch (e) { /* not allowed here */ } }
  }

  function announce(el) {
    el.classList.remove("announce");
    void el.offsetWidth;                       // restart the animation
    el.classList.add("announce");
    var root = document.documentElement;
    root.dataset.yourMoveAnnounced = String(Number(root.dataset.yourMoveAnnounced || 0) + 1);
    if (enabled()) { buzz(); beep(); }
  }

  function check() {
    var el = document.querySelector("[data-your-move]");
    if (!el) return;
    var now = el.getAttribute("data-your-move");
    if (last === "0" && now === "1") announce(el);
    last = now;
  }

  function setupToggle(bar) {
    var button = bar.querySelector("[data-your-move-sound]");
    if (!button) return;
    function paint() {
      var on = enabled();
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? bar.dataset.msgOn : bar.dataset.msgOff;
      button.classList.toggle("on", on);
    }
    button.addEventListener("click", function () {
      var on = !enabled();
      remember(on);
      if (on) { context(); buzz(); }           // the tap unlocks the sound; a buzz says it works
      paint();
    });
    button.hidden = false;
    paint();
  }

  function start() {
    var bar = document.querySelector("[data-your-move-bar]");
    if (!bar) return;
    setupToggle(bar);
    var el = document.querySelector("[data-your-move]");
    last = el ? el.getAttribute("data-your-move") : null;
    document.addEventListener("table:refreshed", check);
    /* Any other swap of the region (a page's own script) is seen too. */
    new MutationObserver(check).observe(bar, { childList: true, subtree: true, attributes: true,
                                              attributeFilter: ["data-your-move"] });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
