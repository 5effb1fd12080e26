// A seat's randomness for the dice (docs/dice.md): 256 bits from crypto.getRandomValues, sent once on its own when
// the tablet first opens (if this seat has given none yet) and again whenever the player taps the button, until
// the set is closed. The server cannot know these values when it commits its secret, so no one picks the dice alone.
(function () {
  "use strict";
  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function randomValue() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return hex(bytes);
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function setUp(box) {
    var status = box.querySelector("[data-dice-status]");
    var button = box.querySelector("[data-dice-add]");
    function show(data) {
      var total = (data.contributions || []).length;
      box.hidden = false;
      box.dataset.state = data.chosen ? "chosen" : (data.open ? (data.mine ? "mine" : "none") : "closed");
      if (data.chosen) status.textContent = box.dataset.msgChosen;
      else if (!data.open) status.textContent = fill(box.dataset.msgClosed, {total: total});
      else status.textContent = fill(data.mine ? box.dataset.msgMine : box.dataset.msgNone, {total: total});
      button.hidden = !data.may;
    }
    function send(auto) {
      var body = new URLSearchParams({stream: box.dataset.stream, value: randomValue(), auto: auto ? "1" : ""});
      button.disabled = true;
      return fetch(box.dataset.url, {method: "POST", body: body, credentials: "same-origin",
                                     headers: {"X-CSRFToken": box.dataset.csrf}})
        .then(function (r) { return r.json().then(function (d) { return {ok: r.ok, data: d}; }); })
        .then(function (r) {
          if (r.data && r.data.contributions) show(r.data);
          if (!r.ok) status.textContent = fill(box.dataset.msgError, {error: r.data.error || ""});
        })
        .catch(function () { status.textContent = fill(box.dataset.msgError, {error: ""}); })
        .finally(function () { button.disabled = false; });
    }
    button.addEventListener("click", function () { send(false); });
    fetch(box.dataset.url + "?stream=" + encodeURIComponent(box.dataset.stream), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        show(data);
        if (data.may && !data.mine) send(true);  // the tablet's first opening adds its randomness on its own
      })
      .catch(function () {});
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-dice-contribute]"), setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
