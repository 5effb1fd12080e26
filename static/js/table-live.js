// A table's pages follow the table: its version pushed when the page names the table's stream
// (data-table-stream-url, server-sent events), else polled twice a second (an act shows on every tablet at the
// table within a second: benchmarks/README.md, issue 36; both are answered before sessions) and, when it changed,
// fetch the page again and swap every [data-live] region (forms being typed into are left alone).
// The page polls instead when the server refuses the stream (204: its worker's streams are all taken; 404:
// streams are off), when the browser has no EventSource, or when the stream fails three times in a row; the
// stream's own end (about once a minute) is followed by its reconnection, not by polls.
// Sending a form once is not here: templates/tables/partials/send_once.html guards it inline from the page's head.
// While an act that left this page is on its way (window.tableActs.pending()), nothing is swapped: the page is
// leaving for the act's answer, and a second tap must land on the button already sent, not on a fresh one drawn
// under the finger (after a roll, the re-roll button).
(function () {
  "use strict";
  var root = document.querySelector("[data-table-version-url]");
  if (!root) return;
  var url = root.getAttribute("data-table-version-url");
  var version = root.getAttribute("data-table-version");
  var busy = false;

  function pending() { return !!(window.tableActs && window.tableActs.pending()); }

  function typing() {
    var el = document.activeElement;
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT") &&
      el.closest("[data-live]") !== null;
  }

  function refresh() {
    fetch(window.location.href, {credentials: "same-origin", headers: {"X-Table-Refresh": "1"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        if (pending()) { version = null; return; }   // drawn once the act's answer is late (or never came)
        var doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live]").forEach(function (el) {
          var fresh = el.id ? doc.getElementById(el.id) : null;
          if (fresh) el.replaceWith(fresh);
        });
        if (window.htmx) window.htmx.process(document.body);
        document.dispatchEvent(new CustomEvent("table:refreshed"));
      });
  }

  // What the stream said last: a version the page could not take up at once (an act on its way, a hidden tab)
  // is taken up at the next tick, as a poll would have.
  var pushed = null, streaming = false;

  function seen(data) {
    if (data && String(data.version) !== String(version) && !pending()) {
      version = data.version;
      if (!typing()) refresh();
    }
  }

  function listen() {
    var streamUrl = root.getAttribute("data-table-stream-url");
    if (!streamUrl || !window.EventSource) return;
    var source = new EventSource(streamUrl), failures = 0;
    streaming = true;
    source.onmessage = function (ev) {
      var data;
      try { data = JSON.parse(ev.data); } catch (e) { return; }
      failures = 0;
      if (data.beat) return;
      pushed = data;
      if (!document.hidden) seen(pushed);
    };
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= 3) {   // refused, or failing: poll instead
        source.close();
        streaming = false;
      }
    };
  }

  function tick() {
    if (document.hidden) return;
    if (streaming) seen(pushed);
    else poll();
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var ctrl = new AbortController();
    var timer = setTimeout(function () { ctrl.abort(); }, 4000);
    fetch(url, {credentials: "same-origin", signal: ctrl.signal})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(seen)
      .catch(function () {})
      .finally(function () { clearTimeout(timer); busy = false; });
  }
  listen();
  setInterval(tick, 500);
})();
