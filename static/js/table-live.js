// A table act is sent once from this page: a double tap on a tablet (or a second press while the hall's Wi-Fi is
// slow) does not post the same form twice. The server counts a press once in any case (the form's one-time key and
// the act's open check, inside the table's row lock: larp/tables/acts.py); this only spares the round trip.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "").toLowerCase() !== "post" ||
        form.target) return;
    if (event.defaultPrevented) return;
    if (form.dataset.sent === "1") { event.preventDefault(); return; }
    form.dataset.sent = "1";
    form.setAttribute("aria-busy", "true");
  });
  /* Back from the browser's cache: the forms can be sent again. */
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (f) {
      delete f.dataset.sent;
      f.removeAttribute("aria-busy");
    });
  });
})();

// A table's pages follow the table: poll its version about once a second and, when it changed,
// fetch the page again and swap every [data-live] region (forms being typed into are left alone).
(function () {
  "use strict";
  var root = document.querySelector("[data-table-version-url]");
  if (!root) return;
  var url = root.getAttribute("data-table-version-url");
  var version = root.getAttribute("data-table-version");
  var busy = false;

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
        var doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live]").forEach(function (el) {
          var fresh = el.id ? doc.getElementById(el.id) : null;
          if (fresh) el.replaceWith(fresh);
        });
        if (window.htmx) window.htmx.process(document.body);
        document.dispatchEvent(new CustomEvent("table:refreshed"));
      });
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var ctrl = new AbortController();
    var timer = setTimeout(function () { ctrl.abort(); }, 4000);
    fetch(url, {credentials: "same-origin", signal: ctrl.signal})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== String(version)) {
          version = data.version;
          if (!typing()) refresh();
        }
      })
      .catch(function () {})
      .finally(function () { clearTimeout(timer); busy = false; });
  }
  setInterval(poll, 1000);
})();
