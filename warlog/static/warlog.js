/* Warlog pages, enhanced: click-to-move on the map, live updates, keyboard replay.
   Every page works without this file (plain links and form posts). */
(function () {
  "use strict";
  var $ = function (s, r) { return (r || document).querySelector(s); };
  var $$ = function (s, r) { return Array.prototype.slice.call((r || document).querySelectorAll(s)); };
  var body = document.body;
  var SVGNS = "http://www.w3.org/2000/svg";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }
  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { throw new Error(j.error || ("HTTP " + r.status)); } return j; });
    });
  }

  /* ---------------------------------------------------------------- map zoom */
  function initZoom(scope) {
    var board = $("#board", scope), svg = board && $("svg.hexmap", board);
    if (!svg || $(".zoom", board.parentNode)) return;
    var natural = Number(svg.getAttribute("width"));
    var z = Number(localStorage.getItem("warlog-zoom") || "1");
    var bar = el("div", { "class": "zoom" });
    var label = el("span", { "class": "muted" });
    function apply() {
      svg.style.width = z === 0 ? "100%" : Math.round(natural * z) + "px";
      label.textContent = z === 0 ? "fit" : Math.round(z * 100) + "%";
      try { localStorage.setItem("warlog-zoom", String(z)); } catch (e) { /* private mode */ }
    }
    [["−", function () { z = Math.max(0.5, (z || 0.8) - 0.1); }], ["+", function () { z = Math.min(2, (z || 0.8) + 0.1); }],
     ["100%", function () { z = 1; }], ["Fit", function () { z = 0; }]].forEach(function (b) {
      var btn = el("button", { type: "button", "class": "button small", title: "Zoom the map" }, b[0]);
      btn.addEventListener("click", function () { b[1](); apply(); });
      bar.appendChild(btn);
    });
    bar.insertBefore(el("span", { "class": "muted" }, "Map"), bar.firstChild);
    bar.appendChild(label);
    board.parentNode.insertBefore(bar, board);
    apply();
    /* a board taller or wider than its box opens scrolled to where the action is, when that
       is out of sight from its top left corner */
    var focus = (svg.dataset.focus || "").split(",").map(Number);
    if (focus.length === 2 && !isNaN(focus[0]) && !isNaN(focus[1])) {
      var k = svg.getBoundingClientRect().width / natural, fx = focus[0] * k, fy = focus[1] * k;
      if (fy > board.clientHeight - 80) board.scrollTop = fy - board.clientHeight / 2;
      if (fx > board.clientWidth - 80) board.scrollLeft = fx - board.clientWidth / 2;
    }
  }

  /* ---------------------------------------------------------------- invitations */
  $$("button.copy[data-copy]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      navigator.clipboard.writeText(b.dataset.copy).then(function () { b.textContent = "Copied"; });
    });
  });

  /* ---------------------------------------------------------------- lobby: one game's options */
  var choice = $("#game-choice");
  if (choice) {
    var showOptions = function () {
      var game = choice.value.split("/")[0];
      $$("fieldset.options").forEach(function (f) { f.hidden = f.dataset.game !== game; });
    };
    choice.addEventListener("change", showOptions);
    showOptions();
  }

  /* ---------------------------------------------------------------- play */
  function initPlay() {
    var gid = body.dataset.gameId;
    var board = $("#board");
    var form = $("#act-form");
    var box = $("#confirm");
    var dataEl = $("#actions-data");
    var actions = dataEl ? JSON.parse(dataEl.textContent) : [];
    var planner = board ? board.dataset.planner : "";
    var expected = form ? Number(form.elements.expected_seq.value) : null;
    var busy = false, plan = null, picked = null;
    $$(".js-only").forEach(function (e) { e.hidden = false; });

    var byHex = {}, byUnit = {};
    actions.forEach(function (a) {
      if (a.unit) (byUnit[a.unit] = byUnit[a.unit] || []).push(a);
      else if (a.hex) (byHex[a.hex] = byHex[a.hex] || []).push(a);
    });
    if (board && actions.length) board.classList.add("clickable");
    $$(".terrain [data-hex]", board).forEach(function (p) { if (byHex[p.dataset.hex]) p.classList.add("target"); });

    function centreOf(hex) {
      var poly = $('.terrain [data-hex="' + hex + '"]', board);
      if (!poly) return null;
      var pts = poly.getAttribute("points").split(" ").map(function (p) { return p.split(",").map(Number); });
      var x = 0, y = 0;
      pts.forEach(function (p) { x += p[0]; y += p[1]; });
      return [x / pts.length, y / pts.length, poly.getAttribute("points")];
    }
    function overlay() {
      var svg = $("svg", board), g = $("#plan-layer", board);
      if (!g) { g = svgEl("g", { id: "plan-layer" }); svg.appendChild(g); }
      while (g.firstChild) g.removeChild(g.firstChild);
      return g;
    }
    function clearMarks() {
      if (board) overlay();
      $$(".counter.picked", board).forEach(function (c) { c.classList.remove("picked"); });
      $$(".hex.reach", board).forEach(function (c) { c.classList.remove("reach"); });
    }
    function cancel() {
      plan = null; picked = null; clearMarks();
      box.hidden = true; box.innerHTML = "";
    }
    function showBox(title, buttons, extra) {
      box.innerHTML = "";
      box.appendChild(el("div", { "class": "what" }, title));
      if (extra) box.appendChild(extra);
      var row = el("div", { "class": "buttons" });
      buttons.forEach(function (b) {
        var btn = el("button", { type: "button", "class": "button small" + (b.primary ? " primary" : "") }, b.label);
        if (b.id) btn.id = b.id;
        btn.addEventListener("click", b.run);
        row.appendChild(btn);
      });
      box.appendChild(row);
      box.hidden = false;
    }
    function fail(msg) {
      var e = el("div", { "class": "error" }, msg);
      box.hidden = false;
      box.appendChild(e);
    }
    function ask(list, title) {
      plan = null;
      if (list.length === 1) {
        var a = list[0];
        showBox(title || (a.label.charAt(0).toUpperCase() + a.label.slice(1) + "?"), [
          { label: "Confirm", primary: true, id: "confirm-go", run: function () { submit([a.action]); } },
          { label: "Cancel", run: cancel }]);
      } else {
        showBox(title || "Choose:", list.map(function (a) {
          return { label: a.label, run: function () { submit([a.action]); } };
        }).concat([{ label: "Cancel", run: cancel }]));
      }
    }

    /* path planning: click a unit, click the hexes of its path, confirm */
    function selectedUnit() {
      var c = $(".counter.selected", board);
      return c ? c.dataset.unit : null;
    }
    function canPlan(unit) {
      if (planner !== "path") return false;
      if ((byUnit[unit] || []).some(function (a) { return a.type === "select"; })) return true;
      return unit === selectedUnit() && actions.some(function (a) { return a.type === "move"; });
    }
    function startPlan(unit, path) {
      path = path || [];
      picked = null;
      return getJSON("/games/" + gid + "/reach/" + encodeURIComponent(unit) + "?path=" + path.join(",")).then(function (r) {
        plan = { unit: unit, path: r.path, reach: r.reach, start: r.start, left: r.left,
                 needSelect: unit !== selectedUnit() };
        drawPlan();
      }).catch(function (e) { fail(e.message); });
    }
    function drawPlan() {
      var g = overlay();
      $$(".counter.picked", board).forEach(function (c) { c.classList.remove("picked"); });
      $$('.counter[data-unit="' + plan.unit + '"]', board).forEach(function (c) { c.classList.add("picked"); });
      Object.keys(plan.reach).forEach(function (hex) {
        var c = centreOf(hex);
        if (!c) return;
        g.appendChild(svgEl("polygon", { points: c[2], "class": "plan-hex", "data-reach": hex }));
        g.appendChild(svgEl("text", { x: c[0] + 20, y: c[1] + 22, "class": "plan-label", "text-anchor": "middle" },
                            String(plan.reach[hex].left)));
        $('.terrain [data-hex="' + hex + '"]', board).classList.add("reach");
      });
      var hexes = [plan.start].concat(plan.path);
      if (hexes.length > 1) {
        var d = hexes.map(function (h, i) { var c = centreOf(h); return (i ? "L" : "M") + c[0] + "," + c[1]; }).join(" ");
        g.appendChild(svgEl("path", { d: d, "class": "plan-path" }));
      }
      var name = ($('.counter[data-unit="' + plan.unit + '"] title', board) || {}).textContent || plan.unit;
      var title = "Move " + name.split(":")[0] + (plan.path.length ? ": " + hexes.join(" › ") + " (" + plan.left + " MP left)"
                                                  : ": click the hexes of its path");
      var extra = null, last = plan.path[plan.path.length - 1];
      var lastInfo = plan.lastInfo;
      if (lastInfo && lastInfo.tank_battle) {
        extra = el("label", { "class": "check" });
        var cb = el("input", { type: "checkbox", id: "tank-battle" });
        extra.appendChild(cb);
        extra.appendChild(document.createTextNode(" declare a tank battle on entering " + last + " (1 MP)"));
      }
      var buttons = [];
      if (plan.path.length) buttons.push({ label: "Confirm move", primary: true, id: "confirm-go", run: confirmPlan });
      if (plan.path.length) buttons.push({ label: "Undo last hex", run: function () {
        plan.lastInfo = null; startPlan(plan.unit, plan.path.slice(0, -1)); } });
      buttons.push({ label: "Cancel", run: cancel });
      showBox(title, buttons, extra);
    }
    function extendPlan(hex) {
      var info = plan.reach[hex];
      var path = plan.path.concat(info.path);
      return startPlan(plan.unit, path).then(function () { if (plan) { plan.lastInfo = info; drawPlan(); } });
    }
    function confirmPlan() {
      var list = [];
      if (plan.needSelect) list.push({ type: "select", unit: plan.unit });
      plan.path.forEach(function (h, i) {
        var a = { type: "move", hex: h };
        if (i === plan.path.length - 1 && $("#tank-battle") && $("#tank-battle").checked) a.tank_battle = true;
        list.push(a);
      });
      submit(list);
    }

    /* submitting through the same endpoint as the form, then waiting for the umpire */
    function post(action) {
      var fd = new FormData();
      fd.append("csrf", form.elements.csrf.value);
      fd.append("expected_seq", String(expected));
      fd.append("key", newKey());
      fd.append("action", JSON.stringify(action));
      return fetch(form.getAttribute("action"), { method: "POST", body: fd, credentials: "same-origin",
                                  headers: { Accept: "application/json" } }).then(function (r) {
        return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || ("HTTP " + r.status)); return j; });
      });
    }
    function judged(seq) {
      var tries = 0;
      function poll() {
        return getJSON("/api/v1/games/" + gid + "/moves/" + seq).then(function (m) {
          if (m.status !== "pending") return m;
          tries += 1;
          return sleep(tries < 10 ? 150 : 600).then(poll);
        });
      }
      return poll();
    }
    function submit(list) {
      if (busy || !form) return;
      busy = true;
      body.classList.add("busy");
      showBox("Sending " + list.length + " action" + (list.length > 1 ? "s" : "") + " to the umpire…", []);
      var lastSeq = null;
      var chain = Promise.resolve();
      list.forEach(function (action) {
        chain = chain.then(function () {
          return post(action).then(function (out) {
            lastSeq = out.seq;
            return judged(out.seq);
          }).then(function (m) {
            if (m.status === "rejected") {
              var why = m.reasons.map(function (r) { return r.message + (r.rule ? " (" + r.rule + ")" : ""); }).join("; ");
              throw new Error("Refused: " + why);
            }
            return getJSON("/api/v1/games/" + gid).then(function (info) { expected = info.seq; });
          });
        });
      });
      chain.then(function () {
        location.replace("/games/" + gid + (lastSeq !== null ? "?last=" + lastSeq : ""));
      }).catch(function (e) {
        busy = false;
        body.classList.remove("busy");
        if (lastSeq !== null) { location.replace("/games/" + gid + "?last=" + lastSeq); return; }
        fail(e.message);
      });
    }

    if (form) {
      form.addEventListener("submit", function (ev) {
        var b = ev.submitter;
        if (!b || !b.value) return;
        ev.preventDefault();
        submit([JSON.parse(b.value)]);
      });
    }

    function onUnit(unit) {
      var acts = byUnit[unit] || [];
      if (canPlan(unit)) { cancel(); return startPlan(unit); }
      if (!acts.length) return false;
      var needHex = acts.filter(function (a) { return a.hex; });
      var plain = acts.filter(function (a) { return !a.hex; });
      if (acts.length === 1 && acts[0].type === "select") return submit([acts[0].action]);
      if (needHex.length) {
        cancel();
        picked = { unit: unit, actions: needHex };
        $$('.counter[data-unit="' + unit + '"]', board).forEach(function (c) { c.classList.add("picked"); });
        var g = overlay();
        needHex.forEach(function (a) {
          var c = centreOf(a.hex);
          if (c) g.appendChild(svgEl("polygon", { points: c[2], "class": "plan-hex" }));
        });
        showBox("Click a highlighted hex for " + (needHex[0].label.split(" to ")[0]) + ".",
                plain.map(function (a) { return { label: a.label, run: function () { submit([a.action]); } }; })
                  .concat([{ label: "Cancel", run: cancel }]));
        return true;
      }
      ask(plain);
      return true;
    }

    if (board) {
      board.addEventListener("click", function (ev) {
        if (busy) return;
        var counter = ev.target.closest(".counter");
        var hexEl = ev.target.closest("[data-hex]");
        var hex = hexEl ? hexEl.dataset.hex : null;
        var unit = counter ? counter.dataset.unit : null;
        if (plan) {
          if (hex && plan.reach[hex]) { extendPlan(hex); return; }
          if (unit && unit !== plan.unit && canPlan(unit)) { cancel(); startPlan(unit); }
          return;
        }
        if (picked && hex) {
          var m = picked.actions.filter(function (a) { return a.hex === hex; });
          if (m.length) { ask(m); return; }
        }
        if (unit && onUnit(unit)) return;
        if (hex && byHex[hex]) { ask(byHex[hex]); return; }
        if (hex) {  /* a click on a stack: offer the units of that hex that can act */
          var here = $$('.counter[data-hex="' + hex + '"]', board).map(function (c) { return c.dataset.unit; })
            .filter(function (u) { return byUnit[u]; });
          if (here.length === 1) { onUnit(here[0]); return; }
          if (here.length > 1) {
            ask([].concat.apply([], here.map(function (u) { return byUnit[u]; })), "Units in " + hex + ":");
          }
        }
      });
      var sel = selectedUnit();
      if (sel && canPlan(sel)) startPlan(sel);
    }

    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") cancel();
      if (ev.key === "Enter" && !box.hidden && $("#confirm-go") && document.activeElement.tagName !== "BUTTON") {
        ev.preventDefault();
        $("#confirm-go").click();
      }
    });

    /* live updates: reload when the ledger moves on (another seat moved, the umpire judged) */
    var seq = Number(body.dataset.seq);
    if (body.dataset.status !== "ended") setInterval(function () {
      if (busy || plan || picked || document.hidden) return;
      getJSON("/api/v1/games/" + gid).then(function (info) {
        if ((info.seq !== seq || (body.dataset.pending === "1" && !info.pending)) && !info.pending) {
          location.replace("/games/" + gid + (body.dataset.last ? "?last=" + body.dataset.last : ""));
        }
      }).catch(function () {});
    }, 2000);
  }

  /* ---------------------------------------------------------------- replay */
  function initReplay() {
    var timer = null;
    function root() { return $("#replay-root"); }
    function stepUrl(n) {
      return root().dataset.stepUrl.replace(/\/replay\/0(\?|$)/, "/replay/" + n + "$1");
    }
    function go(url, push) {
      return fetch(url, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("#replay-root");
        if (!fresh) { location.assign(url); return; }
        var open = $(".legend-box", root());
        if (open && open.open) { var l = $(".legend-box", fresh); if (l) l.open = true; }
        root().replaceWith(fresh);
        document.title = doc.title;
        if (push) history.pushState({}, "", url);
        bind();
      }).catch(function () { location.assign(url); });
    }
    function nav(which) {
      var r = root();
      var url = r.dataset[which + "Url"];
      if (which === "next" && Number(r.dataset.step) >= Number(r.dataset.last)) { stop(); return; }
      if (which === "prev" && Number(r.dataset.step) <= 0) return;
      go(url, true);
    }
    function stop() {
      if (timer) { clearInterval(timer); timer = null; }
      var b = $("#autoplay"); if (b) b.textContent = "▶ Autoplay";
    }
    function toggle() {
      if (timer) { stop(); return; }
      timer = setInterval(function () { nav("next"); }, 1100);
      var b = $("#autoplay"); if (b) b.textContent = "⏸ Pause";
    }
    function bind() {
      var r = root();
      var b = $("#autoplay", r);
      b.hidden = false;
      if (timer) b.textContent = "⏸ Pause";
      b.addEventListener("click", toggle);
      var slider = $("#slider", r);
      slider.addEventListener("input", function () { $("#stepno", r).textContent = slider.value; });
      slider.addEventListener("change", function () { go(stepUrl(slider.value), true); });
      $$(".stepper a, a.seq, .viewpoints a.chip", r).forEach(function (a) {
        a.addEventListener("click", function (ev) {
          if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
          ev.preventDefault();
          if (a.closest(".viewpoints")) stop();
          go(a.href, true);
        });
      });
      var link = $("#permalink", r);
      link.addEventListener("focus", function () { link.select(); });
      initZoom(r);
      var cur = $("li.current", r);
      if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
    }
    document.addEventListener("keydown", function (ev) {
      if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
      if (ev.key === "ArrowLeft") { ev.preventDefault(); stop(); nav("prev"); }
      else if (ev.key === "ArrowRight") { ev.preventDefault(); stop(); nav("next"); }
      else if (ev.key === "Home") { ev.preventDefault(); stop(); nav("first"); }
      else if (ev.key === "End") { ev.preventDefault(); stop(); nav("last"); }
      else if (ev.key === " ") { ev.preventDefault(); toggle(); }
    });
    window.addEventListener("popstate", function () { go(location.href, false); });
    bind();
  }

  if (body.dataset.page === "play") { initZoom(document); initPlay(); }
  if (body.dataset.page === "replay") initReplay();
})();
