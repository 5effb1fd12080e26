// The dice check page (docs/dice.md): after the reveal, recompute every server die of a stream in this browser
// from the revealed secret and the players' contributions, with the documented formula and nothing of the server's.
(function () {
  "use strict";
  var K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];

  // SHA-256 of a UTF-8 string, as hex (plain JavaScript: the page may be served without HTTPS).
  function sha256(text) {
    var bytes = new TextEncoder().encode(text), n = bytes.length;
    var total = ((n + 9 + 63) >> 6) << 6, m = new Uint8Array(total);
    m.set(bytes); m[n] = 0x80;
    var bits = n * 8;
    for (var i = 0; i < 8; i++) m[total - 1 - i] = Math.floor(bits / Math.pow(2, 8 * i)) & 0xff;
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    function rotr(x, r) { return (x >>> r) | (x << (32 - r)); }
    for (var off = 0; off < total; off += 64) {
      for (var t = 0; t < 16; t++) {
        w[t] = (m[off + 4 * t] << 24) | (m[off + 4 * t + 1] << 16) | (m[off + 4 * t + 2] << 8) | m[off + 4 * t + 3];
      }
      for (t = 16; t < 64; t++) {
        var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (t = 0; t < 64; t++) {
        var t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h = [(h[0] + a) | 0, (h[1] + b) | 0, (h[2] + c) | 0, (h[3] + d) | 0,
           (h[4] + e) | 0, (h[5] + f) | 0, (h[6] + g) | 0, (h[7] + hh) | 0];
    }
    return h.map(function (x) { return ("00000000" + (x >>> 0).toString(16)).slice(-8); }).join("");
  }

  function first8(hex) { return BigInt("0x" + hex.slice(0, 16)); }
  function die(seed, k, sides) { return Number(first8(sha256(seed + ":" + k)) % BigInt(sides)) + 1; }
  function turnSeed(seed, t) { return (first8(sha256(seed + ":turn:" + t)) >> 1n).toString(); }
  function seedOf(section) {
    var secret = section.dataset.secret;
    if (!section.dataset.mixed) return secret;
    var lines = Array.prototype.filter.call(section.querySelectorAll(".dice-contributions tr[data-who]"),
      function (tr) { return !tr.dataset.late; })
      .map(function (tr) { return tr.dataset.who + "=" + tr.dataset.value; }).sort();
    return BigInt("0x" + sha256(["larp-dice-seed-v1", secret].concat(lines).join("\n"))).toString();
  }

  function recompute(section) {
    var ok = sha256(section.dataset.secret) === section.dataset.fingerprint;
    var seed = seedOf(section);
    Array.prototype.forEach.call(section.querySelectorAll("tr[data-counter]"), function (tr) {
      var from = tr.dataset.turn ? turnSeed(seed, tr.dataset.turn) : seed;
      var value = die(from, tr.dataset.counter, Number(tr.dataset.sides));
      var same = String(value) === tr.dataset.value;
      ok = ok && same;
      tr.querySelector(".dice-recomputed").textContent = value + (same ? " ✓" : " ✗");
    });
    var out = section.querySelector(".dice-recompute-result");
    out.textContent = ok ? out.dataset.msgOk : out.dataset.msgBad;
    section.dataset.recomputed = ok ? "ok" : "bad";
  }

  window.larpDice = {sha256: sha256, die: die, turnSeed: turnSeed};  // for a player's own checks in the console

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-dice-recompute]"), function (button) {
      var section = button.closest("[data-dice-stream]");
      button.addEventListener("click", function () { recompute(section); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
