/* The moderators' console: destructive acts ask first (data-confirm), and a form is sent once (data-once).
 * Every text comes from the page, already translated. The server refuses a second press anyway: each act
 * names the phase, battle or roll it was pressed for.
 * Listened to in the capture phase, before htmx sees the submit: a question answered "no" or a second press
 * stops the form there, whether the browser or htmx (a console page's part swapped in place) would send it. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var question = form.dataset.confirm;
    if (form.dataset.sent === "1" || (question && !window.confirm(question))) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    form.dataset.sent = "1";
    form.querySelectorAll("button[data-once]").forEach(function (b) {
      /* Disabled after this tick, so the pressed button's name/value still goes with the form. */
      setTimeout(function () { b.disabled = true; }, 0);
    });
  }, true);
  function release(form) {
    delete form.dataset.sent;
    form.querySelectorAll("button[data-once]").forEach(function (b) { b.disabled = false; });
  }
  /* Back from the browser's cache: the forms can be sent again. */
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(release);
  });
  /* A request that got no answer (the hall's Wi-Fi): the form can be sent again; the server counts it once. */
  document.addEventListener("htmx:sendError", function (ev) {
    var form = ev.target.closest && ev.target.closest("form");
    if (form) release(form);
  });
  document.addEventListener("htmx:timeout", function (ev) {
    var form = ev.target.closest && ev.target.closest("form");
    if (form) release(form);
  });

  /* A console page's part (#console-page) is swapped in place; an answer that is another page (a link or an
   * act that leads elsewhere) is opened as a page. */
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var target = ev.detail.target;
    if (!target || target.id !== "console-page") return;
    if (String(ev.detail.serverResponse || "").indexOf('id="console-page"') === -1) {
      ev.detail.shouldSwap = false;
      window.location.assign(ev.detail.xhr.responseURL || window.location.href);
    }
  });

  /* Each time the page's part is swapped in, it is counted on the page (a browser test waits for the answer to
   * its press by it); the frame's own polls (the worker's state) do not count. */
  var part = null;
  document.addEventListener("DOMContentLoaded", function () { part = document.getElementById("console-page"); });
  document.addEventListener("htmx:afterSettle", function () {
    var now = document.getElementById("console-page");
    if (!now || now === part) return;
    part = now;
    var root = document.documentElement;
    root.dataset.swaps = String(Number(root.dataset.swaps || 0) + 1);
  });

  /* The phase changed (the clock says so): the bar's next step is asked for again. */
  var refreshing = false;
  document.addEventListener("tablet:phase-changed", function () {
    var next = document.getElementById("frame-next");
    if (!next || refreshing) return;
    refreshing = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("frame-next");
        var now = document.getElementById("frame-next");
        if (fresh && now) { now.replaceWith(fresh); if (window.htmx) htmx.process(fresh); }
      })
      .catch(function () { /* the next phase change or page asks again */ })
      .finally(function () { refreshing = false; });
  });

  /* Keys for the moderator at the laptop (the frame's «клавиши» lists them): → or Space the next move or
   * frame, ← back, U the undo's reason box, P the projector in a second window, N the bar's next step. */
  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }
  function press(selector) {
    var el = document.querySelector(selector);
    if (!el) return false;
    el.click();
    return true;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    var key = event.key, done = false;
    if (key === "ArrowRight" || (key === " " && !(event.target && /^(BUTTON|A|SUMMARY)$/.test(event.target.tagName)))) {
      done = press("[data-replay] a[rel=next]") || press(".step-nav a[rel=next]");
    } else if (key === "ArrowLeft") {
      done = press("[data-replay] a[rel=prev]") || press(".step-nav a[rel=prev]");
    } else if (key === "u" || key === "U" || key === "г" || key === "Г") {
      var reason = document.querySelector("form.undo input[name=reason]");
      if (reason) { reason.scrollIntoView({ block: "center" }); reason.focus(); done = true; }
    } else if (key === "p" || key === "P" || key === "з" || key === "З") {
      var projector = document.querySelector("a[data-key-projector]");
      if (projector) { window.open(projector.href, "larp-projector"); done = true; }
    } else if (key === "n" || key === "N" || key === "т" || key === "Т") {
      done = press("[data-frame-next]");
    }
    if (done) event.preventDefault();
  });

  /* A moderator's tablet (768 px): the menu starts folded; on a laptop it is one line, always open. */
  document.addEventListener("DOMContentLoaded", function () {
    var menu = document.querySelector("[data-console-menu]");
    if (menu && window.matchMedia("(max-width: 1100px)").matches) menu.open = false;
  });
})();

/* A paper order (R14) with the tablet's legal pickers (pickers.js); the button waits for a whole order. */
(function () {
  "use strict";
  function sync(form) {
    var picked = window.LegalPickers.show(form), type = picked.type, complete = picked.complete;
    var button = form.querySelector("[data-submit]");
    if (button) button.disabled = !complete;
    var missing = form.querySelector("[data-missing]");
    if (missing) missing.textContent = complete ? "" : missingText(form, missing, type);
  }
  /* What is still to choose, in words: the order type, or the first shown step with nothing picked. */
  function missingText(form, box, type) {
    if (!type) return box.dataset.needType;
    var open = Array.prototype.find.call(form.querySelectorAll("fieldset[data-group]"), function (fs) {
      return !fs.hidden && !fs.querySelector("input:checked");
    });
    if (open) {
      var legend = open.querySelector("legend");
      var what = legend ? legend.textContent.trim() : "";
      return box.dataset.needStep + " «" + what + "».";
    }
    return box.dataset.needMore;
  }
  function syncAll() { document.querySelectorAll("form[data-paper-order]").forEach(sync); }
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("form[data-paper-order]");
    if (!form) return;
    window.LegalPickers.changed(form, ev.target);
    sync(form);
  });
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSettle", syncAll);
})();
