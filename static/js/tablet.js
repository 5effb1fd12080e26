/* Players' tablets: the server-synced clock, the order forms' legal pickers with retry, map pinch-zoom.
 * Plain JS on top of htmx; every text shown comes from the page (data-msg-*), already translated. */
(function () {
  "use strict";

  function msg(name) {
    var root = document.querySelector("[data-tablet]");
    return (root && root.dataset["msg" + name]) || "";
  }

  /* ---------------------------------------------------------------- the clock (R3: the server's clock decides)
   * offset = server time - local time, measured at the midpoint of each poll; re-synced every few seconds,
   * when the tablet wakes (visibilitychange) and when the network comes back. */
  var Clock = {
    el: null, offset: 0, data: null, lastSync: 0, timer: null, tick: null, failures: 0, ordersOpen: null,

    init: function () {
      this.el = document.querySelector("[data-clock]");
      if (!this.el) return;
      var d = this.el.dataset;
      this.data = {
        turn: d.turn ? Number(d.turn) : null, phase: d.phase || null, state: d.state,
        deadline: d.deadline ? Number(d.deadline) : null,
        remaining: d.remaining !== "" && d.remaining !== undefined ? Number(d.remaining) : null,
        paused: d.state === "paused"
      };
      this.offset = Number(d.serverTime) - Date.now() / 1000;
      this.names = JSON.parse(d.phaseNames || "{}");
      var self = this;
      this.tick = setInterval(function () { self.render(); }, 200);
      this.timer = setInterval(function () { self.sync(); }, 5000);
      document.addEventListener("visibilitychange", function () { if (!document.hidden) self.sync(); });
      window.addEventListener("online", function () { self.sync(); });
      window.addEventListener("pageshow", function () { self.sync(); });
      this.render();
      this.sync();
    },

    now: function () { return Date.now() / 1000 + this.offset; },

    sync: function () {
      var self = this, t0 = Date.now() / 1000;
      fetch(this.el.dataset.clockUrl, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (p) {
          var t1 = Date.now() / 1000;
          self.offset = p.server_time - (t0 + t1) / 2;
          self.lastSync = t1;
          self.failures = 0;
          var before = self.data;
          self.data = p;
          self.el.classList.remove("stale");
          if (before && (before.turn !== p.turn || before.phase !== p.phase
              || (before.state !== p.state && p.state === "closed"))) {
            document.dispatchEvent(new CustomEvent("tablet:phase-changed", { detail: p }));
          }
          self.render();
        })
        .catch(function () { self.failures += 1; self.el.classList.add("stale"); });
    },

    remaining: function () {
      var p = this.data;
      if (!p) return null;
      if (p.state === "running" && p.deadline != null) return p.deadline - this.now();
      if (p.state === "paused") return p.remaining;
      return null;
    },

    open: function () {
      /* Orders are accepted in a Strategy phase that is paused, or running before its deadline (R3). */
      var p = this.data, left = this.remaining();
      if (!p || p.phase !== "strategy") return false;
      if (p.state === "paused") return true;
      return p.state === "running" && left != null && left > 0;
    },

    render: function () {
      var p = this.data, el = this.el, left = this.remaining();
      if (!p) return;
      var time = el.querySelector("[data-clock-time]"), note = el.querySelector("[data-clock-note]"),
        phase = el.querySelector("[data-clock-phase]");
      el.classList.remove("urgent", "over", "closed", "paused");
      if (p.phase) {
        phase.textContent = el.dataset.turnLabel.replace("{n}", p.turn) + " · " + (this.names[p.phase] || p.phase);
      } else {
        phase.textContent = el.dataset.msgNotStarted;
      }
      if (left == null) {
        time.textContent = p.phase === "strategy" && p.state === "closed" ? "00:00" : "--:--";
      } else {
        var shown = p.phase === "strategy" ? Math.max(0, left) : left;
        time.textContent = fmt(shown);
      }
      var text;
      if (!p.phase) { text = el.dataset.msgNotStarted; el.classList.add("closed"); }
      else if (p.state === "closed") { text = p.phase === "strategy" ? el.dataset.msgStrategyClosed : el.dataset.msgClosed; el.classList.add("closed"); }
      else if (p.state === "paused") { text = el.dataset.msgPaused; el.classList.add("paused"); }
      else if (p.phase === "strategy") {
        if (left <= 0) { text = el.dataset.msgTimeUp; el.classList.add("over"); }
        else { text = el.dataset.msgOpen; if (left <= 30) el.classList.add("urgent"); }
      } else {
        text = el.dataset.msgOtherPhase;
        if (left != null && left < 0) el.classList.add("over");
      }
      note.textContent = text;
      var open = this.open();
      if (open !== this.ordersOpen) {
        this.ordersOpen = open;
        Forms.lockAll(!open);
        /* The deadline just passed here: ask the server at once (its request closes the phase). */
        if (!open && p.phase === "strategy" && p.state === "running") this.sync();
      }
    }
  };

  function fmt(seconds) {
    var neg = seconds < 0, s = Math.abs(seconds);
    s = neg ? Math.floor(s) : Math.ceil(s);
    var m = Math.floor(s / 60), r = s % 60, h = Math.floor(m / 60);
    var out = (h ? h + ":" + String(m % 60).padStart(2, "0") : String(m).padStart(2, "0")) + ":" + String(r).padStart(2, "0");
    return (neg ? "+" : "") + out;
  }

  /* ---------------------------------------------------------------- order forms
   * Every legal choice is in the page (from the engine's legal_steps); a group shows when the order type
   * and the steps before it match. Hidden groups are disabled so they are not sent. */
  var Forms = {
    locked: false,

    setup: function (root) {
      (root || document).querySelectorAll("form[data-order-form]").forEach(function (form) {
        if (form.dataset.ready) { Forms.sync(form); return; }
        form.dataset.ready = "1";
        form.addEventListener("change", function (ev) {
          var t = ev.target;
          if (t.name === "type") Forms.clearFrom(form, 1);
          var m = /^s(\d)$/.exec(t.name || "");
          if (m) Forms.clearFrom(form, Number(m[1]) + 1);
          Forms.hideNote(form);
          Forms.sync(form);
        });
        Forms.sync(form);
      });
      if (Forms.locked) Forms.lockAll(true);
    },

    clearFrom: function (form, depth) {
      form.querySelectorAll("fieldset[data-group=step]").forEach(function (fs) {
        if (Number(fs.dataset.depth) >= depth) fs.querySelectorAll("input:checked").forEach(function (i) { i.checked = false; });
      });
    },

    sync: function (form) {
      var typeInput = form.querySelector("input[name=type]:checked");
      var type = typeInput ? typeInput.value : "";
      var path = [], complete = type === "hold";
      for (var depth = 1; depth <= 3; depth++) {
        var prefix = path.join("|"), shown = null;
        form.querySelectorAll('fieldset[data-group=step][data-depth="' + depth + '"]').forEach(function (fs) {
          var on = type !== "" && fs.dataset.type === type && fs.dataset.prefix === prefix && path.length === depth - 1;
          fs.hidden = !on; fs.disabled = !on;
          if (on) shown = fs;
        });
        if (!shown) continue;
        var pick = shown.querySelector("input:checked");
        /* An unpicked step leaves the order as complete as the last pick made it: a march's second step
         * is optional, so «Проход» and one province is a whole order (the first step is never optional). */
        if (pick) { path.push(pick.value); complete = pick.dataset.complete === "1"; }
        else if (depth === 1) { complete = false; }
      }
      form.querySelectorAll("fieldset[data-group=fleet]").forEach(function (fs) {
        var on = fs.dataset.type === type && path.length > 0 && fs.dataset.prefix === path[0];
        fs.hidden = !on; fs.disabled = !on;
      });
      form.dataset.complete = complete ? "1" : "";
      var button = form.querySelector("[data-submit]");
      if (button && !form.classList.contains("in-flight")) button.disabled = !complete || Forms.locked;
    },

    lockAll: function (locked) {
      Forms.locked = locked;
      document.querySelectorAll("[data-lock-note]").forEach(function (n) { n.hidden = !locked; });
      document.querySelectorAll("form[data-order-form]").forEach(function (form) {
        form.classList.toggle("locked", locked);
        form.querySelectorAll(".types input").forEach(function (i) { i.disabled = locked; });
        if (locked) {
          form.querySelectorAll("fieldset[data-group]").forEach(function (fs) { fs.disabled = true; });
          Forms.stopRetry(form);
          var b = form.querySelector("[data-submit]");
          if (b) b.disabled = true;
        } else {
          Forms.sync(form);
        }
      });
    },

    note: function (form, text) {
      var n = form.querySelector("[data-net-note]");
      if (n) { n.textContent = text; n.hidden = false; }
    },
    hideNote: function (form) {
      var n = form.querySelector("[data-net-note]");
      if (n) n.hidden = true;
    },

    /* A dropped connection: keep what was typed, say so, send again with backoff (1, 2, 4 … 15 s).
     * Filing the same order twice leaves one order, so a retry of a request that did arrive is harmless. */
    retry: function (form) {
      var tries = Number(form.dataset.tries || 0) + 1;
      form.dataset.tries = String(tries);
      var wait = Math.min(15000, 1000 * Math.pow(2, tries - 1));
      form.classList.add("retrying");
      Forms.note(form, msg("Offline"));
      var b = form.querySelector("[data-submit]");
      if (b) b.disabled = true;
      clearTimeout(form._retry);
      form._retry = setTimeout(function () {
        if (Forms.locked) return;
        htmx.trigger(form, "submit");
      }, wait);
    },
    stopRetry: function (form) {
      clearTimeout(form._retry);
      form.classList.remove("retrying");
      delete form.dataset.tries;
    }
  };

  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail.elt;
    if (!form.matches || !form.matches("form[data-order-form]")) return;
    if (Forms.locked) { ev.preventDefault(); return; }
    form.classList.add("in-flight");
    if (!form.classList.contains("retrying")) Forms.note(form, msg("Sending"));
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    var form = ev.detail.elt;
    if (form.matches && form.matches("form[data-order-form]")) form.classList.remove("in-flight");
  });
  document.addEventListener("htmx:sendError", function (ev) {
    var form = ev.detail.elt;
    if (form.matches && form.matches("form[data-order-form]")) Forms.retry(form);
  });
  document.addEventListener("htmx:timeout", function (ev) {
    var form = ev.detail.elt;
    if (form.matches && form.matches("form[data-order-form]")) Forms.retry(form);
  });
  document.addEventListener("htmx:responseError", function (ev) {
    var form = ev.detail.elt, status = ev.detail.xhr ? ev.detail.xhr.status : 0;
    if (!form.matches || !form.matches("form[data-order-form]")) return;
    if (status >= 500 || status === 0) { Forms.retry(form); return; }
    Forms.stopRetry(form);
    Forms.note(form, status === 403 ? msg("Forbidden") : msg("Error"));
    Forms.sync(form);
  });

  /* A new turn or phase: reload the board (orders open or close on the server's word). */
  document.addEventListener("tablet:phase-changed", function () {
    var board = document.querySelector("#board[data-board-url]");
    if (board && window.htmx) htmx.ajax("GET", board.dataset.boardUrl, { target: "#board", swap: "outerHTML" });
    var map = document.querySelector("#map[data-map-url]");
    if (map && window.htmx) htmx.ajax("GET", map.dataset.mapUrl, { target: "#map", swap: "outerHTML" });
  });

  /* ---------------------------------------------------------------- map: pan and pinch-zoom on the viewBox */
  function panZoom(svg) {
    if (svg.dataset.ready) return;
    svg.dataset.ready = "1";
    var base = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    var vb = base.slice(), pointers = new Map(), last = null;

    function fit(box) {
      /* Widen or heighten a box to the svg's own proportions, so it fills the frame. */
      var r = svg.getBoundingClientRect(), aspect = r.width / Math.max(1, r.height);
      var x = box[0], y = box[1], w = box[2], h = box[3];
      if (w / h < aspect) { var nw = h * aspect; x -= (nw - w) / 2; w = nw; }
      else { var nh = w / aspect; y -= (nh - h) / 2; h = nh; }
      return [x, y, w, h];
    }
    function apply() { svg.setAttribute("viewBox", vb.map(function (v) { return v.toFixed(1); }).join(" ")); }
    function toSvg(x, y) {
      var r = svg.getBoundingClientRect();
      /* preserveAspectRatio meet: one scale, centred */
      var s = Math.max(vb[2] / r.width, vb[3] / r.height);
      var ox = (r.width * s - vb[2]) / 2, oy = (r.height * s - vb[3]) / 2;
      return [vb[0] + (x - r.left) * s - ox, vb[1] + (y - r.top) * s - oy, s];
    }
    function zoom(factor, cx, cy) {
      var w = vb[2] / factor, h = vb[3] / factor;
      if (w > base[2] * 1.5) { w = base[2] * 1.5; h = base[3] * 1.5; }
      if (w < base[2] / 12) { w = base[2] / 12; h = base[3] / 12; }
      var p = toSvg(cx, cy);
      var fx = (p[0] - vb[0]) / vb[2], fy = (p[1] - vb[1]) / vb[3];
      vb = [p[0] - fx * w, p[1] - fy * h, w, h];
      apply();
    }
    svg.addEventListener("pointerdown", function (e) {
      svg.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      svg.classList.add("grabbing");
      last = null;
    });
    svg.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) return;
      var prev = pointers.get(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 1) {
        var s = toSvg(0, 0)[2];
        vb[0] -= (e.clientX - prev[0]) * s;
        vb[1] -= (e.clientY - prev[1]) * s;
        apply();
      } else if (pointers.size === 2) {
        var pts = Array.from(pointers.values());
        var d = Math.hypot(pts[0][0] - pts[1][0], pts[0][1] - pts[1][1]);
        var cx = (pts[0][0] + pts[1][0]) / 2, cy = (pts[0][1] + pts[1][1]) / 2;
        if (last) {
          var sc = toSvg(0, 0)[2];
          vb[0] -= (cx - last.cx) * sc;
          vb[1] -= (cy - last.cy) * sc;
          zoom(d / last.d, cx, cy);
        }
        last = { d: d, cx: cx, cy: cy };
      }
    });
    function up(e) {
      pointers.delete(e.pointerId);
      last = null;
      if (!pointers.size) svg.classList.remove("grabbing");
    }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
    }, { passive: false });
    if (svg.dataset.focus) { vb = fit(svg.dataset.focus.split(/\s+/).map(Number)); apply(); }
    var fig = svg.closest("[data-map]");
    fig.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var r = svg.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        if (b.dataset.zoom === "in") zoom(1.5, cx, cy);
        else if (b.dataset.zoom === "out") zoom(1 / 1.5, cx, cy);
        else { vb = base.slice(); apply(); }
      });
    });
  }

  function setup(root) {
    Forms.setup(root);
    (root || document).querySelectorAll("[data-map] svg[data-pan]").forEach(panZoom);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) {
      htmx.onLoad(function (el) { setup(el.parentNode || el); });
    } else {
      setup(document);
    }
    Clock.init();
  });
  window.tablet = { Clock: Clock, Forms: Forms };
})();
