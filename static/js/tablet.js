/* Players' tablets: the server-synced clock, the order forms' legal pickers with retry, map pinch-zoom.
 * Plain JS on top of htmx; every text shown comes from the page (data-msg-*), already translated. */
(function () {
  "use strict";

  function msg(name) {
    var root = document.querySelector("[data-tablet]");
    return (root && root.dataset["msg" + name]) || "";
  }

  /* ---------------------------------------------------------------- the clock (R3: the server's clock decides)
   * offset = server time - local time, measured at the midpoint of each poll. Asked again 0.8 s after each
   * answer (a pause, a resume or a new phase shows within a second; the server keeps the connection open
   * between polls), every 5 s while the tablet's screen is off, and at once when it wakes or the network
   * comes back. */
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
      document.addEventListener("visibilitychange", function () { if (!document.hidden) self.sync(); });
      window.addEventListener("online", function () { self.sync(); });
      window.addEventListener("pageshow", function () { self.sync(); });
      this.render();
      this.sync();
      this.listen();
    },

    /* Where the server pushes the clock (server-sent events), the tablet listens and polls only every 30 s
     * (the offset); the stream's own reconnection covers a lost network, and polling takes over while it is
     * down. */
    streaming: false,
    listen: function () {
      var url = this.el.dataset.clockStream, self = this;
      if (!url || !window.EventSource) return;
      var source = new EventSource(url);
      source.onopen = function () { self.streaming = true; };
      source.onerror = function () { self.streaming = false; clearTimeout(self.timer); self.timer = setTimeout(function () { self.sync(); }, self.POLL); };
      source.onmessage = function (ev) {
        var p;
        try { p = JSON.parse(ev.data); } catch (e) { return; }
        var t = Date.now() / 1000;
        self.streaming = true;
        if (p.beat) { self.offset = p.server_time - t; self.lastSync = t; return; }
        self.apply(p, t, t);
      };
    },

    now: function () { return Date.now() / 1000 + this.offset; },

    /* At most one clock request is open, and it gives up after a few seconds: a hung poll never piles up. */
    POLL: 800, POLL_HIDDEN: 5000,

    sync: function () {
      if (this.inflight) return;
      var self = this, t0 = Date.now() / 1000;
      this.inflight = true;
      clearTimeout(this.timer);
      /* Naming the clock it has, the tablet gets 304 and no body when nothing changed; every tenth poll asks
       * in full, for the server's time (the offset). */
      var headers = {};
      this.polls = (this.polls || 0) + 1;
      if (this.etag && this.polls % 10 !== 0) headers["If-None-Match"] = this.etag;
      request(this.el.dataset.clockUrl, { headers: headers, cache: "no-store" }, 4000)
        .then(function (r) {
          if (r.status === 304) return null;
          if (!r.ok) throw new Error(r.status);
          self.etag = r.headers.get("ETag") || "";
          return r.json();
        })
        .then(function (p) {
          var t1 = Date.now() / 1000;
          if (p === null) {  /* unchanged */
            self.lastSync = t1; self.failures = 0; Net.set(false); self.el.classList.remove("stale");
            return;
          }
          self.apply(p, t0, t1);
        })
        .catch(function () {
          self.failures += 1;
          self.el.classList.add("stale");
          if (self.failures >= 2 || !navigator.onLine) Net.set(true);
        })
        .finally(function () {
          self.inflight = false;
          clearTimeout(self.timer);
          self.timer = setTimeout(function () { self.sync(); },
                                  self.streaming ? 30000 : document.hidden ? self.POLL_HIDDEN : self.POLL);
        });
    },

    /* A clock the server sent (a poll's answer between t0 and t1, or a pushed event at t0 = t1). */
    apply: function (p, t0, t1) {
      this.offset = p.server_time - (t0 + t1) / 2;
      this.lastSync = t1;
      this.failures = 0;
      Net.set(false);
      var before = this.data;
      this.data = p;
      document.querySelectorAll("[data-clock]").forEach(function (el) { el.classList.remove("stale"); });
      if (before && (before.turn !== p.turn || before.phase !== p.phase
          || (before.state !== p.state && p.state === "closed"))) {
        document.dispatchEvent(new CustomEvent("tablet:phase-changed", { detail: p }));
      }
      this.render();
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
      var p = this.data, self = this;
      if (!p) return;
      /* Every clock on the page shows the same time (the console's frame and its home, say). */
      document.querySelectorAll("[data-clock]").forEach(function (el) { self.paint(el); });
      var open = this.open();
      if (open !== this.ordersOpen) {
        var was = this.ordersOpen;
        this.ordersOpen = open;
        Forms.lockAll(!open);
        if (!open && was) Outbox.closed();
        /* The deadline just passed here: ask the server at once (its request closes the phase). */
        if (!open && p.phase === "strategy" && p.state === "running") this.sync();
      }
    },

    paint: function (el) {
      /* Five times a second, but the page is touched only where something changed (once a second, as the time
         does): rewriting the same text and classes made the tablet lay out and paint the page each time. */
      var p = this.data, left = this.remaining();
      var time = el.querySelector("[data-clock-time]"), note = el.querySelector("[data-clock-note]"),
        phase = el.querySelector("[data-clock-phase]");
      var state = {};
      if (p.phase) {
        setText(phase, el.dataset.turnLabel.replace("{n}", p.turn) + " · " + (this.names[p.phase] || p.phase));
      } else {
        setText(phase, el.dataset.msgNotStarted);
      }
      if (left == null) {
        setText(time, p.phase === "strategy" && p.state === "closed" ? "00:00" : "--:--");
      } else {
        var shown = p.phase === "strategy" ? Math.max(0, left) : left;
        setText(time, fmt(shown));
      }
      var text;
      if (!p.phase) { text = ""; state.closed = true; }  // the phase line says it, once
      else if (p.state === "closed") { text = p.phase === "strategy" ? el.dataset.msgStrategyClosed : el.dataset.msgClosed; state.closed = true; }
      else if (p.state === "paused") { text = el.dataset.msgPaused; state.paused = true; }
      else if (p.phase === "strategy") {
        if (left <= 0) { text = el.dataset.msgTimeUp; state.over = true; }
        else { text = el.dataset.msgOpen; if (left <= 30) state.urgent = true; }
      } else {
        text = el.dataset.msgOtherPhase;
        if (left != null && left < 0) state.over = true;
      }
      if (Net.down) text += " " + el.dataset.msgStale;
      setText(note, text);
      state.stale = Net.down;
      ["urgent", "over", "closed", "paused", "stale"].forEach(function (name) {
        if (el.classList.contains(name) !== !!state[name]) el.classList.toggle(name, !!state[name]);
      });
    }
  };

  function setText(node, text) {
    if (node && node.textContent !== text) node.textContent = text;
  }

  function fmt(seconds) {
    var neg = seconds < 0, s = Math.abs(seconds);
    s = neg ? Math.floor(s) : Math.ceil(s);
    var m = Math.floor(s / 60), r = s % 60, h = Math.floor(m / 60);
    var out = (h ? h + ":" + String(m % 60).padStart(2, "0") : String(m).padStart(2, "0")) + ":" + String(r).padStart(2, "0");
    return (neg ? "+" : "") + out;
  }

  /* ---------------------------------------------------------------- requests
   * Every request has a time limit: a hung answer on the hall's Wi-Fi never holds one of the browser's six
   * connections for long, so an order is never stuck behind a poll. */
  function request(url, options, ms) {
    var ctl = new AbortController(), timer = setTimeout(function () { ctl.abort(); }, ms);
    options = Object.assign({ credentials: "same-origin", cache: "no-store", signal: ctl.signal }, options || {});
    return fetch(url, options).finally(function () { clearTimeout(timer); });
  }

  /* ---------------------------------------------------------------- the network's state
   * Down when the browser says offline or requests fail; up again on the first answer from the server. */
  var Net = {
    down: false,
    set: function (down) {
      if (down === this.down) return;
      this.down = down;
      var banner = document.querySelector("[data-offline-banner]");
      if (banner) banner.hidden = !down;
      document.documentElement.classList.toggle("net-down", down);
      if (Clock.el) Clock.render();
      if (!down) Outbox.flush("online");
    }
  };
  window.addEventListener("offline", function () { Net.set(true); });
  window.addEventListener("online", function () { Net.set(false); Outbox.flush("online"); Clock.sync(); });

  /* ---------------------------------------------------------------- order forms
   * The pickers show only legal choices (pickers.js). The submit button stays disabled until this script
   * has set the form up (a tap before that would send a plain form). */
  var Forms = {
    locked: false,

    setup: function (root) {
      (root || document).querySelectorAll("form[data-order-form]").forEach(function (form) {
        if (form.dataset.ready) { Forms.sync(form); return; }
        form.dataset.ready = "1";
        form.addEventListener("change", function (ev) {
          window.LegalPickers.changed(form, ev.target);
          Forms.hideNote(form);
          Forms.sync(form);
          Outbox.changed(form);
        });
        form.addEventListener("submit", function (ev) {
          ev.preventDefault();
          if (!Forms.locked && form.dataset.complete) Outbox.confirm(form);
        });
        Forms.sync(form);
      });
      if (Forms.locked) Forms.lockAll(true);
    },

    sync: function (form) {
      var complete = window.LegalPickers.show(form).complete;
      form.dataset.complete = complete ? "1" : "";
      var button = form.querySelector("[data-submit]");
      if (button) button.disabled = !complete || Forms.locked || form.classList.contains("in-flight");
    },

    lockAll: function (locked) {
      Forms.locked = locked;
      document.querySelectorAll("[data-lock-note]").forEach(function (n) { n.hidden = !locked; });
      document.querySelectorAll("form[data-order-form]").forEach(function (form) {
        form.classList.toggle("locked", locked);
        form.querySelectorAll(".types input").forEach(function (i) { i.disabled = locked; });
        if (locked) {
          form.querySelectorAll("fieldset[data-group]").forEach(function (fs) { fs.disabled = true; });
          var b = form.querySelector("[data-submit]");
          if (b) b.disabled = true;
        } else {
          Forms.sync(form);
        }
      });
    },

    note: function (form, text) {
      var n = form && form.querySelector("[data-net-note]");
      if (n) { n.textContent = text; n.hidden = false; }
    },
    hideNote: function (form) {
      var n = form && form.querySelector("[data-net-note]");
      if (n) n.hidden = true;
    },

    /* The order as the player confirmed it: the form's fields, and the words of the chips they tapped. */
    snapshot: function (form) {
      var fields = new URLSearchParams(new FormData(form));
      fields.delete("csrfmiddlewaretoken");
      fields.delete("key");
      var words = [];
      form.querySelectorAll("fieldset:not([disabled]) input:checked").forEach(function (i) {
        var span = i.parentNode.querySelector("span");
        if (span) words.push(span.textContent.trim());
      });
      fields.sort();
      // Read as the order reads everywhere else: «Захват: Серре», «Проход: Струмица → Средец».
      var label = words.length > 1 ? words[0] + ": " + words.slice(1).join(" → ") : words.join("");
      return { body: fields.toString(), label: label };
    }
  };

  /* ---------------------------------------------------------------- the outbox: an order is on the server or
   * visibly not. A confirmed order waits here (and in the tablet's storage, so a reload keeps it) until the
   * server answers; a retry sends exactly what was confirmed, with the same key, so the server files it once.
   * At the deadline a still-unsent order turns into a red notice that stays until the next turn. */
  var STORE = "larp-outbox:";
  function newKey() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  var Outbox = {
    items: {}, flying: 0, MAX_FLYING: 2, busy: {},

    root: function () { return document.querySelector("[data-tablet][data-scope]"); },
    storeKey: function () { var r = this.root(); return r ? STORE + r.dataset.scope : null; },

    load: function () {
      var key = this.storeKey();
      if (!key) return;
      try { this.items = JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { this.items = {}; }
      var turn = this.root().dataset.turn;
      for (var u in this.items) if (String(this.items[u].turn) !== String(turn)) delete this.items[u];
      this.save();
    },
    save: function () {
      var key = this.storeKey();
      if (!key) return;
      try { localStorage.setItem(key, JSON.stringify(this.items)); } catch (e) { /* storage off: the page still shows it */ }
    },
    pending: function () {
      var self = this;
      return Object.keys(this.items).filter(function (u) { return self.items[u].state === "pending"; });
    },

    confirm: function (form) {
      var article = form.closest("[data-unit]"), unit = article.dataset.unit, snap = Forms.snapshot(form);
      var item = this.items[unit];
      /* The same order confirmed again while it is on its way (a double tap) is the same confirmation. */
      if (!(item && item.state === "pending" && item.body === snap.body)) {
        item = { unit: unit, url: form.getAttribute("action"), body: snap.body, label: snap.label, key: newKey(),
                 kind: article.classList.contains("fleet") ? "fleet" : "army", turn: this.root().dataset.turn,
                 state: "pending", tries: 0 };
        this.items[unit] = item;
        this.save();
      }
      var keyInput = form.querySelector("[data-key]");
      if (keyInput) keyInput.value = item.key;
      Forms.note(form, msg("Sending"));
      this.paint();
      this.send(unit);
    },

    /* The player changed the picks after confirming: the unsent order is not sent any more. */
    changed: function (form) {
      var article = form.closest("[data-unit]"), item = article && this.items[article.dataset.unit];
      if (!item || item.state !== "pending") return;
      item.dirty = true;
      if (!item.flying) {
        delete this.items[item.unit];
        clearTimeout(item.timer);
        this.save();
        Forms.note(form, msg("Changed"));
        this.paint();
      }
    },

    timeLimit: function () {
      var left = Clock.remaining();
      if (left == null) return 8000;
      return Math.max(2500, Math.min(8000, left * 1000));
    },

    send: function (unit) {
      var item = this.items[unit], self = this;
      if (!item || item.state !== "pending" || item.flying) return;
      /* Sent when one of the others answers; one unit's orders go one after the other, in the order confirmed. */
      if (this.flying >= this.MAX_FLYING || this.busy[unit]) { item.due = true; return; }
      clearTimeout(item.timer);
      item.flying = true;
      this.busy[unit] = true;
      this.flying += 1;
      var form = document.querySelector("#unit-" + CSS.escape(unit) + " form[data-order-form]");
      if (form) { form.classList.add("in-flight"); Forms.sync(form); }
      var body = new URLSearchParams(item.body), token = document.querySelector("input[name=csrfmiddlewaretoken]");
      body.set("key", item.key);
      if (token) body.set("csrfmiddlewaretoken", token.value);
      request(item.url, { method: "POST", body: body, headers: { "HX-Request": "true" } }, this.timeLimit())
        .then(function (r) { return r.text().then(function (html) { return { status: r.status, html: html }; }); })
        .then(function (answer) { self.answered(item, answer.status, answer.html); },
              function () { self.lost(item); })
        .finally(function () {
          item.flying = false;
          delete self.busy[unit];
          self.flying -= 1;
          var f = document.querySelector("#unit-" + CSS.escape(unit) + " form[data-order-form]");
          if (f) { f.classList.remove("in-flight"); Forms.sync(f); }
          self.next();
        });
    },

    next: function () {
      var self = this;
      this.pending().forEach(function (u) { if (self.items[u].due) { self.items[u].due = false; self.send(u); } });
    },

    answered: function (item, status, html) {
      if (status >= 500) { this.lost(item); return; }
      Net.set(false);
      var current = this.items[item.unit] === item;
      if (current) delete this.items[item.unit];
      if (status === 200 || status === 409 || status === 422 || status === 404) {
        if (status === 409 && current) {
          /* Refused as too late (R3): it did not reach the moderators, and the page keeps saying so. */
          item.state = "failed";
          this.items[item.unit] = item;
        }
        swap(html, item.dirty);
      } else {
        Forms.note(document.querySelector("#unit-" + CSS.escape(item.unit) + " form"),
                   status === 403 ? msg("Forbidden") : msg("Error"));
      }
      this.save();
      this.paint();
    },

    lost: function (item) {
      if (this.items[item.unit] !== item) return;
      item.tries += 1;
      if (!navigator.onLine || item.tries >= 2) Net.set(true);
      if (Clock.data && !Clock.open()) { this.fail(item); return; }
      Forms.note(document.querySelector("#unit-" + CSS.escape(item.unit) + " form[data-order-form]"), msg("Offline"));
      this.schedule(item);
      this.paint();
    },

    /* Back off 1, 2, 4, 8 s; in the last minute before the deadline, every second. */
    schedule: function (item) {
      var left = Clock.remaining(), self = this;
      var wait = left != null && left < 60 ? 1000 : Math.min(8000, 1000 * Math.pow(2, Math.max(0, item.tries - 1)));
      clearTimeout(item.timer);
      item.timer = setTimeout(function () { self.kick(item.unit); }, wait);
    },
    kick: function (unit) {
      var item = this.items[unit];
      if (!item || item.state !== "pending") return;
      if (item.flying || this.flying >= this.MAX_FLYING) { item.due = true; return; }
      this.send(unit);
    },

    /* The network is back (or the clock answered): send every waiting order now. */
    flush: function () {
      var self = this;
      this.pending().forEach(function (u) { self.kick(u); });
    },

    fail: function (item) {
      clearTimeout(item.timer);
      item.state = "failed";
      this.items[item.unit] = item;
      this.save();
      this.paint();
    },

    /* Orders closed (the deadline, or the phase ended): one last try each — the server answers with the
     * order it already has, or refuses it as late — then what is still unsent is shown as not delivered. */
    closed: function () {
      var self = this;
      this.pending().forEach(function (u) {
        var item = self.items[u];
        if (!item.flying) self.send(u);
      });
    },

    /* Show each unit's unsent or undelivered order on its card; a card the server says holds this key is done. */
    paint: function () {
      var self = this, changed = false;
      document.querySelectorAll("article[data-unit]").forEach(function (card) {
        var unit = card.dataset.unit, item = self.items[unit], box = card.querySelector("[data-pending]");
        if (item && card.dataset.orderKey && card.dataset.orderKey === item.key) {
          delete self.items[unit]; item = null; changed = true;   /* the server has it */
        }
        card.classList.toggle("has-pending", !!item && item.state === "pending");
        card.classList.toggle("has-failed", !!item && item.state === "failed");
        if (!box) return;
        if (!item) { box.hidden = true; box.textContent = ""; box.className = "pending"; return; }
        var text;
        if (item.state === "pending") text = msg("Pending");
        else if (card.dataset.hasOrder) text = msg("FailedPrevious");
        else text = item.kind === "fleet" ? msg("FailedFleet") : msg("FailedArmy");
        box.className = item.state === "pending" ? "pending" : "failed";
        box.setAttribute("role", item.state === "pending" ? "status" : "alert");
        box.textContent = "";
        box.appendChild(document.createTextNode(text + " "));
        var what = document.createElement("strong");
        what.textContent = item.label;
        box.appendChild(what);
        box.hidden = false;
      });
      if (changed) this.save();
    },

    /* A new turn: what was left from the last one is no longer news. */
    newTurn: function (turn) {
      var root = this.root();
      if (!root || String(root.dataset.turn) === String(turn)) return;
      root.dataset.turn = turn == null ? "" : String(turn);
      for (var u in this.items) if (String(this.items[u].turn) !== String(turn)) delete this.items[u];
      this.save();
      this.paint();
    },

    start: function () {
      if (!this.root()) return;
      this.load();
      this.paint();
      var self = this;
      window.addEventListener("beforeunload", function (ev) {
        if (!self.pending().length) return;
        ev.preventDefault();
        ev.returnValue = msg("Leave");
        return msg("Leave");
      });
      if (!this.pending().length) return;
      if (Clock.data && !Clock.open()) this.closed(); else this.flush();
    }
  };

  /* Put a card (and any out-of-band pieces, e.g. the summary or a fleet's card) in place of the old ones.
   * If the player changed the picks while it was on its way, their new picks stay: only the order shown
   * as the server's is refreshed. */
  function swap(html, keepForm) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.from(tpl.content.children).forEach(function (el) {
      var old = el.id && document.getElementById(el.id);
      if (!old) return;
      el.removeAttribute("hx-swap-oob");
      if (keepForm && old.querySelector("form[data-order-form]") && el.matches("article[data-unit]")) {
        ["[data-current-order]"].forEach(function (sel) {
          var a = old.querySelector(sel), b = el.querySelector(sel);
          if (a && b) a.replaceWith(b);
        });
        old.dataset.orderKey = el.dataset.orderKey || "";
        old.dataset.hasOrder = el.dataset.hasOrder || "";
        return;
      }
      old.replaceWith(el);
      if (window.htmx) htmx.process(el);
      setup(el);
    });
  }

  /* A new turn or phase: reload the board (orders open or close on the server's word). One refresh at a
   * time, each with a time limit. */
  var Refresh = {
    busy: {},
    /* then(ok): called once the board is in place (ok) or could not be fetched (not ok); not when a refresh
     * is already on its way (that one calls its own). Returns whether a refresh started. */
    get: function (selector, attr, then) {
      var el = document.querySelector(selector), self = this;
      if (!el || !el.dataset[attr] || this.busy[selector]) return false;
      this.busy[selector] = true;
      request(el.dataset[attr], { headers: { "HX-Request": "true" } }, 12000)
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) { swap(html, false); if (then) then(true); })
        .catch(function () { if (then) then(false); /* the next phase change or the next poll tries again */ })
        .finally(function () { delete self.busy[selector]; });
      return true;
    }
  };
  /* The board names the map of its state (data-map-next): one request per tablet instead of two at a phase
   * change; the map's own fragment is asked only where there is no board (the map page). */
  /* A board that could not be fetched is asked again (after 2, 4, 8 s, and when the network comes back): a
   * pushed phase change can arrive while the tablet's other requests fail, and no second one will come. */
  var Stale = { tries: 0, timer: null };
  function refreshBoard() {
    clearTimeout(Stale.timer);
    var started = Refresh.get("#board", "boardUrl", function (ok) {
      if (ok) { Stale.tries = 0; if (!Maps.follow()) Maps.refresh(); return; }
      Stale.tries += 1;
      Stale.timer = setTimeout(refreshBoard, Math.min(8000, 1000 * Math.pow(2, Stale.tries)));
    });
    if (!started && !document.querySelector("#board")) Maps.refresh();
  }
  window.addEventListener("online", function () { if (Stale.tries) refreshBoard(); });
  document.addEventListener("tablet:phase-changed", function (ev) {
    Outbox.newTurn(ev.detail.turn);
    refreshBoard();
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
    /* The figure's zoom buttons act on whichever map it holds now (a new version replaces the svg). */
    svg._zoom = function (how) {
      var r = svg.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      if (how === "in") zoom(1.5, cx, cy);
      else if (how === "out") zoom(1 / 1.5, cx, cy);
      else { vb = base.slice(); apply(); }
    };
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-map] [data-zoom]");
    if (!b) return;
    var svg = b.closest("[data-map]").querySelector("svg[data-pan]");
    if (svg && svg._zoom) svg._zoom(b.dataset.zoom);
  });

  /* ---------------------------------------------------------------- the map as a cached resource
   * The page names the map's SVG by its version; the browser keeps it, so only a changed map is downloaded. */
  var Maps = {
    load: function (root) {
      (root || document).querySelectorAll("[data-map-src]").forEach(function (frame) {
        var src = frame.dataset.mapSrc;
        if (!src || frame.dataset.loaded === src || frame.dataset.loading === src) return;
        frame.dataset.loading = src;
        request(src, { cache: "default" }, 20000)
          .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
          .then(function (html) {
            if (frame.dataset.mapSrc !== src) return;
            frame.innerHTML = html;
            frame.dataset.loaded = src;
            frame.querySelectorAll("svg[data-pan]").forEach(panZoom);
          })
          .catch(function () { /* tried again at the next phase change or page */ })
          .finally(function () { if (frame.dataset.loading === src) delete frame.dataset.loading; });
      });
    },
    /* The map the board just fetched names: loaded if it is a new one. False when the page has none. */
    follow: function () {
      var board = document.querySelector("#board[data-map-next]"), fig = document.querySelector("#map[data-map-url]");
      var frame = fig && fig.querySelector("[data-map-src]");
      if (!board || !frame || !board.dataset.mapNext) return false;
      if (frame.dataset.mapSrc !== board.dataset.mapNext) { frame.dataset.mapSrc = board.dataset.mapNext; Maps.load(fig); }
      return true;
    },
    /* A phase change: ask which map is current (a few hundred bytes); fetch it only if it is a new one. */
    refresh: function () {
      var fig = document.querySelector("#map[data-map-url]");
      if (!fig || Maps.busy) return;
      Maps.busy = true;
      request(fig.dataset.mapUrl, { headers: { "HX-Request": "true" } }, 12000)
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          var tpl = document.createElement("template");
          tpl.innerHTML = html;
          var fresh = tpl.content.querySelector("[data-map-src]"), frame = fig.querySelector("[data-map-src]");
          if (fresh && frame) {
            if (frame.dataset.mapSrc !== fresh.dataset.mapSrc) { frame.dataset.mapSrc = fresh.dataset.mapSrc; Maps.load(fig); }
          } else {
            swap(html, false);
          }
        })
        .catch(function () { /* the next phase change tries again */ })
        .finally(function () { Maps.busy = false; });
    }
  };

  function setup(root) {
    Forms.setup(root);
    Outbox.paint();
    (root || document).querySelectorAll("[data-map] svg[data-pan]").forEach(panZoom);
    Maps.load(root);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) {
      htmx.onLoad(function (el) { setup(el.parentNode || el); });
    } else {
      setup(document);
    }
    Clock.init();
    if (!navigator.onLine) Net.set(true);
    Outbox.start();
  });
  window.tablet = { Clock: Clock, Forms: Forms, Outbox: Outbox, Net: Net };
})();
