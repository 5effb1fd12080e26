/* The scenario editor's map (templates/editor/partials/map_svg.html): a click adds a place, a drag moves one,
   two clicks draw a border, a click on a border takes it away. Each act is one POST through htmx that answers
   with the editor re-drawn (larp/editor/views.py); the act names the version of the scenario it was made on, so
   a stale page or a second click changes nothing. Pointer events: a mouse, a pen and a finger alike. */
(function () {
  "use strict";
  var mode = "select";
  var first = null;       // the first place of a border being drawn
  var drag = null;        // {g, id, x0, y0, sx, sy, moved}

  function root() { return document.getElementById("editor"); }

  function send(act, values) {
    var r = root();
    values.act = act;
    values.version = r.getAttribute("data-version");
    values.tab = r.getAttribute("data-tab");
    values.sel = r.getAttribute("data-sel") || "";
    htmx.ajax("POST", r.getAttribute("data-act"), {target: "#editor", swap: "outerHTML", values: values});
  }

  function show(id) {
    var r = root();
    htmx.ajax("GET", r.getAttribute("data-page") + "?tab=map&sel=" + encodeURIComponent(id),
              {target: "#editor", swap: "outerHTML"});
  }

  function point(svg, evt) {
    var pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return {x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10};
  }

  function setMode(value) {
    mode = value;
    first = null;
    var r = root();
    if (!r) return;
    r.querySelectorAll("input[name=mode]").forEach(function (i) { i.checked = i.value === mode; });
    var svg = document.getElementById("editor-map");
    if (svg) svg.setAttribute("data-mode", mode);
    r.setAttribute("data-mode", mode);
    r.querySelectorAll(".place.first").forEach(function (g) { g.classList.remove("first"); });
  }

  document.addEventListener("change", function (e) {
    if (e.target.name === "mode" && e.target.closest("#editor")) setMode(e.target.value);
  });

  document.addEventListener("pointerdown", function (e) {
    var svg = e.target.closest && e.target.closest("#editor-map");
    if (!svg || e.button > 0 || root().getAttribute("data-tab") !== "map") return;
    var g = e.target.closest(".place");
    if (g && mode === "select") {
      var p = point(svg, e);
      drag = {g: g, id: g.getAttribute("data-id"), x0: parseFloat(g.getAttribute("data-x")),
              y0: parseFloat(g.getAttribute("data-y")), sx: p.x, sy: p.y, moved: false, svg: svg,
              cx: e.clientX, cy: e.clientY};
      svg.setPointerCapture(e.pointerId);
      e.preventDefault();
    }
  });

  document.addEventListener("pointermove", function (e) {
    if (!drag) return;
    if (!drag.moved && Math.abs(e.clientX - drag.cx) + Math.abs(e.clientY - drag.cy) < 6) return;
    var p = point(drag.svg, e);
    drag.moved = true;
    drag.nx = drag.x0 + p.x - drag.sx;
    drag.ny = drag.y0 + p.y - drag.sy;
    drag.g.setAttribute("transform", "translate(" + drag.nx + " " + drag.ny + ")");
    drag.g.classList.add("dragging");
  });

  document.addEventListener("pointerup", function (e) {
    if (drag) {
      var d = drag;
      drag = null;
      if (d.moved) {
        send("move_place", {place: d.id, x: Math.round(d.nx * 10) / 10, y: Math.round(d.ny * 10) / 10});
      } else {
        show(d.id);
      }
      return;
    }
    var svg = e.target.closest && e.target.closest("#editor-map");
    if (!svg || e.button > 0 || !svg.closest("#editor") || root().getAttribute("data-tab") !== "map") return;
    var g = e.target.closest(".place");
    var hit = e.target.closest(".hit");
    if (mode === "border") {
      if (!g) return;
      var id = g.getAttribute("data-id");
      if (!first) { first = id; g.classList.add("first"); return; }
      if (first === id) { first = null; g.classList.remove("first"); return; }
      var a = first;
      first = null;
      send("border", {a: a, b: id});
      return;
    }
    if (hit && mode === "select") {
      send("border", {a: hit.getAttribute("data-a"), b: hit.getAttribute("data-b")});
      return;
    }
    if (!g && (mode === "land" || mode === "sea")) {
      var p = point(svg, e);
      send("add_place", {x: p.x, y: p.y, domain: mode});
    }
  });

  document.addEventListener("keydown", function (e) {
    var g = e.target.closest && e.target.closest("#editor-map .place");
    if (g && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); show(g.getAttribute("data-id")); }
  });

  document.addEventListener("htmx:afterSwap", function () { setMode(mode); });
  /* Each answer swapped in is counted on the page: a browser test waits for the answer to its press by it. */
  document.addEventListener("htmx:afterSettle", function () {
    var root = document.documentElement;
    root.dataset.swaps = String(Number(root.dataset.swaps || 0) + 1);
    var chosen = document.querySelector("#editor-map .place.selected");
    var form = document.getElementById("place-form");
    if (chosen && form && window.innerWidth < 900) form.scrollIntoView({block: "nearest"});
  });
  document.addEventListener("DOMContentLoaded", function () { setMode("select"); });
  /* A form is sent once: its button waits for the answer. */
  document.addEventListener("htmx:beforeRequest", function (e) {
    var f = e.target.closest && e.target.closest("form");
    if (f) f.querySelectorAll("button[data-once]").forEach(function (b) { b.disabled = true; });
  });
})();
