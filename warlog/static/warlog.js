/* Warlog pages, enhanced: click-to-move on the map, live updates, keyboard replay.
   Every page works without this file (plain links and form posts). */
(function () {
  "use strict";
  var $ = function (s, r) { return (r || document).querySelector(s); };
  var $$ = function (s, r) { return Array.prototype.slice.call((r || document).querySelectorAll(s)); };
  var body = document.body;
  var SVGNS = "http://www.w3.org/2000/svg";
  /* The page's language: base.html puts the script's words, translated, in #i18n-messages
     (nothing on an English page); T("Cancel") or T("Move %(unit)s", {unit: u}). */
  var WORDS = (function () {
    var node = document.getElementById("i18n-messages");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
  })();
  function T(text, vars) {
    var out = WORDS[text] || text;
    return out.replace(/%\((\w+)\)s/g, function (m, k) { return vars && k in vars ? String(vars[k]) : m; });
  }

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
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }
  function sleep(ms) { return new Promise(function (ok) { setTimeout(ok, ms); }); }
  /* fetch, asking again after a 503's Retry-After (a server with too many pages waiting) */
  function fetchPatient(url, opts, tries) {
    tries = tries === undefined ? 20 : tries;
    return fetch(url, opts).then(function (r) {
      var after = Number(r.headers.get("Retry-After"));
      if (r.status !== 503 || !after || tries <= 0) return r;
      return sleep(after * 1000 * (1 + Math.random())).then(function () { return fetchPatient(url, opts, tries - 1); });
    });
  }
  function getJSON(url) {
    return fetchPatient(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { throw new Error(j.error || ("HTTP " + r.status)); } return j; });
    });
  }

  /* ---------------------------------------------------------------- live notices (warlog/live.py) */
  /* "This game has a new judgement", pushed by the live endpoint (GET /games/{id}/events,
     Server-Sent Events, served by `warlog live` behind the proxy), so that a page waiting for
     the umpire holds no web thread and polls nothing. Read with fetch, so that the status is
     known: 404 (no live endpoint, e.g. `scripts/serve`) -> the web app's long-poll, as before;
     429/503 (over the endpoint's caps) -> short polls until its Retry-After has passed; a stream
     lost -> reconnect with a back-off. The stream is closed while the tab is hidden. */
  var live = { state: "off", waiters: [], backoff: 1000, abort: null, onNotice: function () {} };
  function liveNotify(kind) {
    var w = live.waiters; live.waiters = [];
    w.forEach(function (f) { f(); });
    if (kind) live.onNotice(kind);
  }
  /* a promise that settles at the next notice (or reconnection), or after `ms` at most */
  function liveNext(ms) {
    return new Promise(function (ok) {
      var t = setTimeout(function () { live.waiters = live.waiters.filter(function (f) { return f !== go; }); ok(); }, ms);
      function go() { clearTimeout(t); ok(); }
      live.waiters.push(go);
    });
  }
  function liveConnect(gid) {
    if (live.state === "absent") return;
    if (document.hidden) { live.state = "hidden"; return; }
    var ctrl = window.AbortController ? new AbortController() : null, mine = {};
    live.abort = ctrl; live.state = "connecting"; live.current = mine;
    function lost() {
      if (live.current !== mine || live.state === "absent" || live.state === "hidden") return;
      live.state = "connecting";
      liveNotify("resync");  /* notices may have been missed: whoever waits looks again */
      setTimeout(function () { if (live.current === mine) liveConnect(gid); }, live.backoff * (1 + Math.random()));
      live.backoff = Math.min(live.backoff * 2, 30000);
    }
    fetch("/games/" + gid + "/events", { credentials: "same-origin", cache: "no-store",
                                         headers: { Accept: "text/event-stream" }, signal: ctrl ? ctrl.signal : undefined })
      .then(function (r) {
        var type = r.headers.get("Content-Type") || "";
        if (r.status === 404 || r.status === 405 || (r.ok && type.indexOf("text/event-stream") !== 0) || !r.body) {
          live.state = "absent"; liveNotify(); return;
        }
        if (r.status === 429 || r.status === 503) {
          live.state = "busy";
          var after = Number(r.headers.get("Retry-After")) || 10;
          setTimeout(function () { if (live.current === mine) liveConnect(gid); }, after * 1000 * (1 + Math.random()));
          return;
        }
        if (!r.ok) { lost(); return; }
        live.state = "open"; live.backoff = 1000;
        var reader = r.body.getReader(), dec = new TextDecoder(), buf = "";
        function pump() {
          return reader.read().then(function (x) {
            if (x.done) { lost(); return; }
            buf += dec.decode(x.value, { stream: true }).replace(/\r\n?/g, "\n");
            var cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              var block = buf.slice(0, cut), m = /^event: *(\S+)/m.exec(block);
              buf = buf.slice(cut + 2);
              if (m) liveNotify(m[1]);
            }
            return pump();
          });
        }
        return pump();
      }).catch(lost);
  }
  function liveStart(gid) {
    liveConnect(gid);
    document.addEventListener("visibilitychange", function () {
      if (live.state === "absent") return;
      if (document.hidden) {
        live.state = "hidden"; live.current = null;
        if (live.abort) live.abort.abort();
      } else if (live.state === "hidden") {
        liveConnect(gid);
      }
    });
  }

  /* ---------------------------------------------------------------- map zoom and focus */
  /* zoom: a factor, 0 for "fit the box", AUTO (the default) for "the whole width when that
     takes at most a fifth off, else actual size scrolled to the action" */
  var AUTO = -1, zoom = AUTO;
  try { zoom = Number(localStorage.getItem("warlog-zoom") || String(AUTO)); } catch (e) { /* no storage */ }
  if (isNaN(zoom)) zoom = AUTO;
  /* the board's drawing that zooms and pans: a game's map, or UP FRONT's card table */
  var ZOOMS = "svg.hexmap, svg.cardtable";
  function applyZoom(board) {
    var svg = board && $(ZOOMS, board);
    if (!svg) return;
    var natural = Number(svg.getAttribute("width"));
    var k = zoom;
    if (zoom === AUTO) {
      var fit = (board.clientWidth - 10) / natural;
      k = fit >= 1 ? 1 : fit >= 0.8 ? fit : 1;
    }
    svg.style.width = k === 0 ? "100%" : Math.floor(natural * k) + "px";
    var label = $(".zoom .level", board.parentNode);
    if (label) label.textContent = zoom === 0 ? T("fit") : (zoom === AUTO ? T("auto") + " " : "") + Math.round(k * 100) + "%";
    try { localStorage.setItem("warlog-zoom", String(zoom)); } catch (e) { /* private mode */ }
  }
  /* Where the action is (the svg's data-focus: the unit under way, the battle, what a replay
     step changed, the seat's own units), centred in the board's own scroll box; the page itself
     never scrolls. With `ifHidden`, only when it is not already well inside the box. */
  function focusBoard(board, ifHidden) {
    var svg = board && $("svg.hexmap", board);
    if (!svg) return;
    var focus = (svg.dataset.focus || "").split(",").map(Number);
    if (focus.length !== 2 || isNaN(focus[0]) || isNaN(focus[1])) return;
    var sr = svg.getBoundingClientRect(), br = board.getBoundingClientRect();
    var k = sr.width / Number(svg.getAttribute("width"));
    var fx = focus[0] * k + sr.left - br.left + board.scrollLeft, fy = focus[1] * k + sr.top - br.top + board.scrollTop;
    var w = board.clientWidth, h = board.clientHeight, m = 90;
    var inside = fx > board.scrollLeft + m && fx < board.scrollLeft + w - m &&
                 fy > board.scrollTop + m && fy < board.scrollTop + h - m;
    if (ifHidden && inside) return;
    board.scrollLeft = Math.max(0, fx - w / 2);
    board.scrollTop = Math.max(0, fy - h / 2);
  }
  function initZoom(scope, ifHidden) {
    var board = $("#board", scope), svg = board && $(ZOOMS, board);
    if (!svg) return;
    if (!$(".zoom", board.parentNode)) {
      var bar = el("div", { "class": "zoom" });
      bar.appendChild(el("span", { "class": "muted" }, T("Map")));
      var now = function () { return zoom > 0 ? zoom : 0.8; };
      [["−", function () { zoom = Math.max(0.5, now() - 0.1); }], ["+", function () { zoom = Math.min(2, now() + 0.1); }],
       ["100%", function () { zoom = 1; }], [T("Fit"), function () { zoom = 0; }], [T("Auto"), function () { zoom = AUTO; }]
      ].forEach(function (b) {
        var btn = el("button", { type: "button", "class": "button small", title: T("Zoom the map") }, b[0]);
        /* the bar moves to each fresh board (an update in place): the board beside it now */
        btn.addEventListener("click", function () { b[1](); var bd = $("#board", bar.parentNode); applyZoom(bd); focusBoard(bd); });
        bar.appendChild(btn);
      });
      bar.appendChild(el("span", { "class": "muted level" }));
      board.parentNode.insertBefore(bar, board);
    }
    applyZoom(board);
    focusBoard(board, ifHidden);
  }
  /* ---------------------------------------------------------------- touch: the map pans and pinches */
  /* One finger pans the map inside its frame (the board is its own scroll box, and its
     touch-action lets the browser scroll it but never zoom the page from it); two fingers zoom
     the map about their midpoint. A tap picks and moves as a click does (the browser's click). */
  var SMALL = window.matchMedia ? window.matchMedia("(max-width: 700px)") : { matches: false };
  var pinchedAt = 0;
  var TAP = window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "tap" : "click";  /* in the prompts */
  function initPinch() {
    var g = null;
    function two(ev) { return ev.touches.length === 2 ? [ev.touches[0], ev.touches[1]] : null; }
    function dist(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY) || 1; }
    document.addEventListener("touchstart", function (ev) {
      var board = ev.target.closest && ev.target.closest("#board"), t = two(ev);
      var svg = board && $(ZOOMS, board);
      if (!t || !svg) return;
      var natural = Number(svg.getAttribute("width")), k = svg.getBoundingClientRect().width / natural;
      var br = board.getBoundingClientRect(), sr = svg.getBoundingClientRect();
      var mx = (t[0].clientX + t[1].clientX) / 2, my = (t[0].clientY + t[1].clientY) / 2;
      g = { board: board, svg: svg, natural: natural, k0: k, d0: dist(t), mx: mx - br.left, my: my - br.top,
            cx: (mx - sr.left) / k, cy: (my - sr.top) / k, ox: sr.left - br.left + board.scrollLeft,
            oy: sr.top - br.top + board.scrollTop };
    }, { passive: true });
    document.addEventListener("touchmove", function (ev) {
      var t = two(ev);
      if (!g || !t) return;
      if (ev.cancelable) ev.preventDefault();
      var k = Math.max(0.2, Math.min(3, g.k0 * dist(t) / g.d0));
      g.k = k;
      g.svg.style.width = Math.floor(g.natural * k) + "px";
      g.board.scrollLeft = g.ox + g.cx * k - g.mx;
      g.board.scrollTop = g.oy + g.cy * k - g.my;
    }, { passive: false });
    function end(ev) {
      if (!g || ev.touches.length >= 2) return;
      if (g.k) { zoom = g.k; var sx = g.board.scrollLeft, sy = g.board.scrollTop; applyZoom(g.board);
                 g.board.scrollLeft = sx; g.board.scrollTop = sy; }
      g = null; pinchedAt = Date.now();
    }
    document.addEventListener("touchend", end, { passive: true });
    document.addEventListener("touchcancel", end, { passive: true });
    /* the fingers' lifting is no tap on the map */
    document.addEventListener("click", function (ev) {
      if (Date.now() - pinchedAt < 400 && ev.target.closest && ev.target.closest("#board")) {
        ev.stopPropagation(); ev.preventDefault();
      }
    }, true);
  }
  /* On a small screen the map key starts folded: the page opens on the map and the prompt. */
  function foldKey(scope) {
    if (!SMALL.matches) return;
    $$("details.legend-box[open]", scope).forEach(function (d) { d.open = false; });
  }
  /* On a small screen the prompt and actions are a bar at the foot of the screen: what was just
     asked (#confirm, at its top) is scrolled into its sight. */
  function showConfirm() {
    var ctl = $("#controls");
    if (SMALL.matches && ctl && ctl.scrollHeight > ctl.clientHeight) ctl.scrollTop = 0;
  }

  /* scroll `box` (not the page) so that `item` is in sight */
  function scrollWithin(box, item) {
    if (!box || !item) return;
    var b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
  }

  /* ---------------------------------------------------------------- invitations */
  $$("button.copy[data-copy]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      navigator.clipboard.writeText(b.dataset.copy).then(function () { b.textContent = T("Copied"); });
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
  /* The play page's board and panel (#play-root) are bound here, and bound again each time a
     fresh panel is put in place after a move (no page reload: see swapPanel). */
  /* After a move the focus goes to the actions (the first one now offered, else the prompt),
     never back to the top of the page: a keyboard or screen reader user goes on from there. */
  function focusActions() {
    var shown = function (e) { return e && e.getClientRects().length > 0; };
    var target = [$("#confirm:not([hidden]) button")].concat($$("#act-form button"), $$("#act-form summary"),
                  [$("#orders-form select"), $("#controls .prompt")]).filter(shown)[0];
    if (target) target.focus({ preventScroll: SMALL.matches });
  }

  /* The board by keyboard: one hex of the map is in the Tab order (the first unit that can act,
     else the hex in focus); the arrow keys go to the next hex that way, Home to the first unit
     that can act; Enter or Space is a click on the hex (a unit there that can act is picked,
     a hex of a planned path is added, as by a click). Counters off the map (a tray) are buttons. */
  function boardKeys(board, isBusy, enterFirst) {
    var svg = $("svg.hexmap", board);
    if (!svg) return;
    var hexes = $$(".terrain [data-hex]", board), centres = null;
    if (!hexes.length) return;
    function centre(p) {
      var b = p.getBBox();
      return [b.x + b.width / 2, b.y + b.height / 2];
    }
    function allCentres() {
      if (!centres) centres = hexes.map(function (p) { return { p: p, c: centre(p) }; });
      return centres;
    }
    function hexOf(id) { return $('.terrain [data-hex="' + id + '"]', board); }
    function firstActive() {
      var c = $(".counter.target[data-hex]", board) || $(".counter.selected[data-hex]", board);
      var h = (c && hexOf(c.dataset.hex)) || $(".terrain .target", board);
      return h || hexes[0];
    }
    function layer() {
      var g = $("#kbd-layer", svg);
      if (!g) { g = svgEl("g", { id: "kbd-layer", "aria-hidden": "true" }); svg.appendChild(g); }
      return g;
    }
    function mark(p) {
      var g = layer();
      while (g.firstChild) g.removeChild(g.firstChild);
      g.appendChild(svgEl("polygon", { points: p.getAttribute("points"), "class": "kbd-cursor" }));
    }
    function label(p) {
      var id = p.dataset.hex, title = ($("title", p) || {}).textContent || id;
      var here = $$('.counter[data-hex="' + id + '"]', board).map(function (c) {
        return (($("title", c) || {}).textContent || c.dataset.unit || "").split("\n")[0] +
               (c.classList.contains("target") ? " (can act)" : "");
      });
      p.setAttribute("aria-label", title + (here.length ? ": " + here.join("; ") : ""));
    }
    function rove(p, focus) {
      hexes.forEach(function (h) { if (h.getAttribute("tabindex") === "0") h.setAttribute("tabindex", "-1"); });
      p.setAttribute("tabindex", "0");
      label(p);
      if (focus) {
        p.focus({ preventScroll: true });
        scrollInto(p);
      }
    }
    function scrollInto(p) {
      var r = p.getBoundingClientRect(), b = board.getBoundingClientRect(), m = 40;
      if (r.left < b.left + m) board.scrollLeft -= b.left + m - r.left;
      else if (r.right > b.right - m) board.scrollLeft += r.right - b.right + m;
      if (r.top < b.top + m) board.scrollTop -= b.top + m - r.top;
      else if (r.bottom > b.bottom - m) board.scrollTop += r.bottom - b.bottom + m;
    }
    var DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    function step(from, dir) {  /* the nearest hex whose centre lies within 60° of the direction */
      var c0 = centre(from), best = null, bestD = Infinity;
      allCentres().forEach(function (o) {
        if (o.p === from) return;
        var dx = o.c[0] - c0[0], dy = o.c[1] - c0[1], d = Math.hypot(dx, dy);
        if (!d || (dx * dir[0] + dy * dir[1]) / d < 0.49) return;
        var score = d * (2 - (dx * dir[0] + dy * dir[1]) / d);
        if (score < bestD) { bestD = score; best = o.p; }
      });
      return best;
    }
    hexes.forEach(function (p) { p.setAttribute("tabindex", "-1"); p.setAttribute("role", "button"); });
    rove(firstActive(), false);
    svg.setAttribute("role", "group");
    if (!svg.getAttribute("aria-label")) svg.setAttribute("aria-label", "Map: arrow keys go from hex to hex, Enter picks");
    /* the counters off the map that can act (a tray): one Tab stop, the arrow keys go along them */
    var tray = $$(".counter.target", board).filter(function (c) { return !(c.dataset.hex && hexOf(c.dataset.hex)); });
    tray.forEach(function (c, i) {
      c.setAttribute("tabindex", i ? "-1" : "0");
      c.setAttribute("role", "button");
    });
    function alongTray(c, dir) {
      var i = tray.indexOf(c), next = tray[Math.max(0, Math.min(tray.length - 1, i + dir))];
      if (!next || next === c) return;
      c.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus({ preventScroll: true });
      scrollInto(next);
    }
    board.addEventListener("focusin", function (ev) {
      var p = ev.target.closest && ev.target.closest(".terrain [data-hex]");
      if (p) { rove(p, false); mark(p); }
    });
    board.addEventListener("focusout", function () { var g = $("#kbd-layer", svg); if (g) while (g.firstChild) g.removeChild(g.firstChild); });
    board.addEventListener("keydown", function (ev) {
      var t = ev.target, p = t.closest && t.closest(".terrain [data-hex]");
      var off = !p && t.closest && t.closest(".counter[tabindex]");
      if (ev.key === "Enter" || ev.key === " ") {
        if (!(p || off) || isBusy()) return;
        ev.preventDefault();
        ev.stopPropagation();
        if (p && enterFirst(p.dataset.hex)) return;
        (p || off).dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
        return;
      }
      if (off && DIRS[ev.key]) { ev.preventDefault(); alongTray(off, DIRS[ev.key][0] + DIRS[ev.key][1]); return; }
      if (!p) return;
      if (ev.key === "Home") { ev.preventDefault(); rove(firstActive(), true); return; }
      var dir = DIRS[ev.key];
      if (!dir) return;
      ev.preventDefault();
      var next = step(p, dir);
      if (next) rove(next, true);
    });
  }

  var play = { busy: false, idle: function () { return true; }, keydown: function () {} };
  function bindPlay() {
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
      showConfirm();
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
          { label: T("Confirm"), primary: true, id: "confirm-go", run: function () { submit([a.action]); } },
          { label: T("Cancel"), run: cancel }]);
      } else {
        showBox(title || T("Choose:"), list.map(function (a) {
          return { label: a.label, run: function () { submit([a.action]); } };
        }).concat([{ label: T("Cancel"), run: cancel }]));
      }
      var from = document.activeElement;  /* picked by keys on the map: the answer is one key away */
      if (from && from.closest && from.closest("#board")) { var b = $("#confirm-go") || $("#confirm button"); if (b) b.focus(); }
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
      var title = plan.path.length
        ? T("Move %(unit)s: %(path)s (%(mp)s MP left)", { unit: name.split(":")[0], path: hexes.join(" › "), mp: plan.left })
        : T(TAP === "tap" ? "Move %(unit)s: tap the hexes of its path" : "Move %(unit)s: click the hexes of its path",
            { unit: name.split(":")[0] });
      var extra = null, last = plan.path[plan.path.length - 1];
      var lastInfo = plan.lastInfo;
      if (lastInfo && lastInfo.tank_battle) {
        extra = el("label", { "class": "check" });
        var cb = el("input", { type: "checkbox", id: "tank-battle" });
        extra.appendChild(cb);
        extra.appendChild(document.createTextNode(" declare a tank battle on entering " + last + " (1 MP)"));
      }
      var buttons = [];
      if (plan.path.length) buttons.push({ label: T("Confirm move"), primary: true, id: "confirm-go", run: confirmPlan });
      if (plan.path.length) buttons.push({ label: T("Undo last hex"), run: function () {
        plan.lastInfo = null; startPlan(plan.unit, plan.path.slice(0, -1)); } });
      buttons.push({ label: T("Cancel"), run: cancel });
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
    function post(action, confirmed) {
      var fd = new FormData();
      if (confirmed) fd.append("confirmed", "1");
      fd.append("csrf", form.elements.csrf.value);
      fd.append("expected_seq", String(expected));
      fd.append("key", newKey());
      fd.append("action", JSON.stringify(action));
      return fetch(form.getAttribute("action"), { method: "POST", body: fd, credentials: "same-origin",
                                  headers: { Accept: "application/json" } }).then(function (r) {
        return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || ("HTTP " + r.status)); return j; });
      });
    }
    /* submission `seq`'s judgement: asked again at each live notice (or every 8 s, every
       second while the live endpoint is away); without a live endpoint the server waits for it */
    function judged(seq) {
      var url = "/games/" + gid + "/live?panel=0&last=" + seq;
      function ask() {
        if (live.state === "absent") {
          return getJSON(url + "&wait=1").then(function (m) { return m.status === "pending" ? ask() : m; });
        }
        var next = liveNext(live.state === "open" ? 8000 : 1000);  /* before asking: no notice is missed */
        return getJSON(url).then(function (m) { return m.status === "pending" ? next.then(ask) : m; });
      }
      return ask();
    }
    function submit(list, confirmed) {
      if (busy || !form) return;
      var marked = list.length === 1 && confirmed === undefined && confirmOf(list[0]);
      if (marked) { askFirst(list[0], marked); return; }
      busy = play.busy = true;
      body.classList.add("busy");
      showBox(T(list.length > 1 ? "Sending %(n)s actions to the umpire…" : "Sending %(n)s action to the umpire…",
                { n: list.length }), []);
      var lastSeq = null;
      var chain = Promise.resolve();
      list.forEach(function (action, i) {
        chain = chain.then(function () {
          return post(action, confirmed).then(function (out) {
            lastSeq = out.seq;
            if (i === list.length - 1) return null;  /* the last one's panel comes with its judgement */
            return judged(out.seq).then(function (m) {
              if (m.status === "rejected") throw new Error("refused");
              if (m.status === "withdrawn") throw new Error("taken back");
              expected = m.seq;
            });
          });
        });
      });
      /* while the umpire has not judged the move, its seat may take it back */
      var offered = setTimeout(function () {
        if (lastSeq === null || !busy) return;
        showBox("Move #" + lastSeq + " waits for the umpire…", [{ label: "Take back this move", id: "take-back", run: function () {
          var fd = new FormData();
          fd.append("csrf", form.elements.csrf.value);
          fetch("/games/" + gid + "/moves/" + lastSeq + "/take-back", { method: "POST", body: fd, credentials: "same-origin",
                headers: { Accept: "application/json" } }).then(function (r) {
            return r.json().then(function (j) { if (!r.ok) fail(j.error || ("HTTP " + r.status)); });
          }).catch(function (e) { fail(e.message); });
        } }]);
        var a = document.activeElement;  /* a keyboard user acting on the panel: one key away */
        if (!a || a === body || (a.closest && a.closest("#controls"))) $("#take-back").focus();
      }, 1500);
      chain.catch(function (e) {
        if (lastSeq === null) { clearTimeout(offered); busy = play.busy = false; body.classList.remove("busy"); fail(e.message); return "failed"; }
      }).then(function (failed) {
        if (failed) return;
        var shown = live.state === "absent" ? refresh(lastSeq, true)
          : judged(lastSeq).then(function () { return refresh(lastSeq, false); });
        shown.then(function () { clearTimeout(offered); }, function () { clearTimeout(offered); });
        return shown.catch(function () { location.replace("/games/" + gid + "?last=" + lastSeq); });
      });
    }

    /* An action that ends the game, or a whole phase while units could still act (the
       listing's `confirm`, on its button as data-confirm), is asked about first. */
    function confirmOf(action) {
      var json = JSON.stringify(action);
      var hit = actions.filter(function (a) { return a.confirm && JSON.stringify(a.action) === json; })[0];
      return hit ? (hit.ask || hit.confirm) : null;
    }
    function askFirst(action, ask) {  /* the listing's question, in the page's language ("…? This ends …") */
      showBox(ask, [
        { label: T("Confirm"), primary: true, id: "confirm-go", run: function () { submit([action], true); } },
        { label: T("Cancel"), run: function () { cancel(); focusActions(); } }]);
      var go = $("#confirm-go");
      if (go) go.focus();
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
      if (acts.length === 1 && acts[0].type === "select") { submit([acts[0].action]); return true; }  /* sent: nothing more to ask */
      if (needHex.length) {
        cancel();
        picked = { unit: unit, actions: needHex };
        $$('.counter[data-unit="' + unit + '"]', board).forEach(function (c) { c.classList.add("picked"); });
        var g = overlay();
        needHex.forEach(function (a) {
          var c = centreOf(a.hex);
          if (c) g.appendChild(svgEl("polygon", { points: c[2], "class": "plan-hex" }));
        });
        showBox(T(TAP === "tap" ? "Tap a highlighted hex for %(what)s." : "Click a highlighted hex for %(what)s.",
                  { what: needHex[0].label.split(" to ")[0] }),
                plain.map(function (a) { return { label: a.label, run: function () { submit([a.action]); } }; })
                  .concat([{ label: T("Cancel"), run: cancel }]));
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
          if (here.length > 1 && here.every(canPlan)) {  /* which of the stack to move: its path is planned next */
            var from = document.activeElement;
            showBox("Units in " + hex + ":", here.map(function (u) {
              var t = ($('.counter[data-unit="' + u + '"] title', board) || {}).textContent || u;
              return { label: t.split(":")[0], run: function () {
                cancel();
                startPlan(u).then(function () { if (from && from.closest && from.closest("#board")) from.focus({ preventScroll: true }); });
              } };
            }).concat([{ label: "Cancel", run: cancel }]));
            if (from && from.closest && from.closest("#board")) $("#confirm button").focus();
            return;
          }
          if (here.length > 1) {
            ask([].concat.apply([], here.map(function (u) { return byUnit[u]; })), T("Units in %(hex)s:", { hex: hex }));
          }
        }
      });
      var sel = selectedUnit();
      if (sel && canPlan(sel)) startPlan(sel);
      boardKeys(board, function () { return busy; }, function (hex) {
        /* Enter where the planned path ends (no further step there) sends the planned move */
        if (plan && plan.path.length && !plan.reach[hex] && $("#confirm-go")) { $("#confirm-go").click(); return true; }
        return false;
      });
    }

    play.busy = false;
    play.idle = function () { return !busy && !plan && !picked; };
    play.keydown = function (ev) {
      if (ev.key === "Escape") cancel();
      var onMap = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board");
      if (ev.key === "Enter" && !box.hidden && $("#confirm-go") && document.activeElement.tagName !== "BUTTON" && !onMap) {
        ev.preventDefault();
        $("#confirm-go").click();
      }
    };
  }

  /* a fresh board and panel from the server, put in place of the page's own */
  function refresh(last, wait) {
    var gid = body.dataset.gameId;
    var los = new URLSearchParams(location.search).get("los");  /* a line of sight asked for stays drawn */
    var losQ = los ? "los=" + encodeURIComponent(los) : "";
    var url = "/games/" + gid + "/live" + (last ? "?last=" + last + (wait ? "&wait=1" : "") + (losQ ? "&" + losQ : "")
                                                : (losQ ? "?" + losQ : ""));
    /* the board layers this page holds (data-k) are answered as placeholders (warlog.layerkeep) */
    var have = $$("#play-root [data-k]").map(function (g) { return g.dataset.k; }).join(" ");
    refreshing += 1;
    return fetchPatient(url, { credentials: "same-origin", headers: { "X-Warlog-Have": have } }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      var t = document.createElement("template");
      t.innerHTML = html;
      var fresh = t.content.querySelector("#play-root"), old = $("#play-root");
      if (!fresh || !old) throw new Error("no panel");
      if (fresh.dataset.result === "pending" && wait) return refresh(last, wait);  /* counted in and out itself */
      var active = document.activeElement;  /* the player was acting on the page: focus stays with the actions */
      var hadFocus = !active || active === body || old.contains(active);
      var oldBoard = $("#board", old), legend = $(".legend-box", old);
      if (legend && !legend.open) { var l = $(".legend-box", fresh); if (l) l.open = false; }
      var sx = oldBoard ? oldBoard.scrollLeft : 0, sy = oldBoard ? oldBoard.scrollTop : 0;
      var bar = $(".zoom", old);
      if (bar) { var nb = $("#board", fresh); nb.parentNode.insertBefore(bar, nb); }
      keepUnchanged($("#board svg.hexmap", old), $("#board svg.hexmap", fresh));
      putBackKept(old, fresh);
      old.replaceWith(fresh);
      ["seq", "status", "pending", "myTurn", "last"].forEach(function (k) { body.dataset[k] = fresh.dataset[k]; });
      body.dataset.updates = String(Number(body.dataset.updates || "0") + 1);
      window.warlogShownAt = Date.now();
      body.classList.remove("busy");
      var board = $("#board", fresh);
      if (board && !bar) initZoom(fresh, true);  /* the first board this page shows (the game has just started) */
      else if (board) { applyZoom(board); board.scrollLeft = sx; board.scrollTop = sy; focusBoard(board, true); }
      if (hadFocus) focusActions();
      try {
        history.replaceState(null, "", "/games/" + gid + (last ? "?last=" + last + (losQ ? "&" + losQ : "") : (losQ ? "?" + losQ : "")));
      } catch (e) { /* */ }
      bindPlay();
    }).then(function () { refreshing -= 1; }, function (e) { refreshing -= 1; throw e; });
  }
  var refreshing = 0;  /* refreshes in flight: the periodic check waits for them */

  /* The layers the server left as placeholders (data-keep) are this page's own nodes, moved
     over, less the marks the script made on them (it marks the fresh board again). */
  function putBackKept(old, fresh) {
    var mine = {};
    $$("[data-k]", old).forEach(function (g) { (mine[g.dataset.k] = mine[g.dataset.k] || []).push(g); });
    $$("[data-keep]", fresh).forEach(function (ph) {
      var g = (mine[ph.dataset.k] || []).shift();
      if (!g) throw new Error("a kept layer is missing");
      $$(".target, .reach, .picked", g).forEach(function (e) { e.classList.remove("target", "reach", "picked"); });
      ph.replaceWith(g);
    });
  }

  /* The parts of the fresh board that did not change (the printed map's layers) are the old
     page's own nodes, moved over: the browser lays out and paints only what changed. */
  function keepUnchanged(oldSvg, freshSvg) {
    if (!oldSvg || !freshSvg || oldSvg.children.length !== freshSvg.children.length) return;
    var olds = Array.prototype.slice.call(oldSvg.children), news = Array.prototype.slice.call(freshSvg.children);
    news.forEach(function (n, i) {
      var o = olds[i];
      if (o.tagName !== n.tagName || o.getAttribute("class") !== n.getAttribute("class") ||
          o.childElementCount !== n.childElementCount) return;
      if (o.outerHTML === n.outerHTML) n.replaceWith(o);  /* as it is now, script-made marks included */
    });
  }

  function initPlay() {
    bindPlay();
    document.addEventListener("keydown", function (ev) { play.keydown(ev); });
    /* live updates: a fresh panel when the ledger moves on (another seat moved, the umpire
       judged): looked up at each live notice, or every 2 s when there is no live stream (with
       one, every 30 s as a safety net) */
    var gid = body.dataset.gameId;
    if (body.dataset.status === "ended") return;
    var dirty = true, lastCheck = 0;
    function check() {
      if (play.busy || refreshing || !play.idle() || document.hidden || body.dataset.status === "ended") return;
      if (live.state === "open" && !dirty && Date.now() - lastCheck < 30000) return;
      dirty = false; lastCheck = Date.now();
      getJSON("/api/v1/games/" + gid).then(function (info) {
        var moved = info.seq !== Number(body.dataset.seq) || (body.dataset.pending === "1" && !info.pending);
        if (moved && !info.pending && play.idle() && !refreshing) return refresh(body.dataset.last || null, false);
      }).catch(function () { dirty = true; });
    }
    live.onNotice = function () { dirty = true; check(); };
    liveStart(gid);
    setInterval(check, 2000);
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
        var l = $(".legend-box", fresh);
        if (open && l) l.open = open.open;  /* the key stays as the reader left it */
        var ob = $("#board", root()), sx = ob ? ob.scrollLeft : 0, sy = ob ? ob.scrollTop : 0;
        var side = $("#events", root()), st = side ? side.scrollTop : 0;
        var bar = $(".zoom", root());
        if (bar) { var nb = $("#board", fresh); if (nb) nb.parentNode.insertBefore(bar, nb); }
        keepUnchanged($("#board svg.hexmap", root()), $("#board svg.hexmap", fresh));
        root().replaceWith(fresh);
        document.title = doc.title;
        if (push) history.pushState({}, "", url);
        var b = $("#board", fresh);
        if (b) { applyZoom(b); b.scrollLeft = sx; b.scrollTop = sy; }
        if ($("#events", fresh)) $("#events", fresh).scrollTop = st;
        bind(true);
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
      var b = $("#autoplay"); if (b) b.textContent = "▶ " + T("Autoplay");
    }
    function toggle() {
      if (timer) { stop(); return; }
      timer = setInterval(function () { nav("next"); }, 1100);
      var b = $("#autoplay"); if (b) b.textContent = "⏸ " + T("Pause");
    }
    function bind(again) {
      var r = root();
      var b = $("#autoplay", r);
      b.hidden = false;
      if (timer) b.textContent = "⏸ " + T("Pause");
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
      initZoom(r, again);  /* the change at this step in sight: centred on opening, kept in sight after */
      scrollWithin($("#events", r), $("li.current", r));  /* the list scrolls, never the page */
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

  /* ---------------------------------------------------------------- the replay file (warlog.share) */
  /* Everything is in the file: each board is a list of pieces of SVG from a shared pool, put
     together when its step is shown. No request is ever made. */
  function initReplayFile() {
    var data = JSON.parse($("#replay-data").textContent);
    var steps = data.steps, last = steps.length - 1, cur = -1, shownBoard = -1, timer = null;
    var board = $("#board"), slider = $("#slider"), events = $("#events");
    var rows = $$("#events > li");
    var stops = [];
    steps.forEach(function (st, i) { if (st.stop) stops.push(i); });
    function piece(i) {
      var p = data.pieces[i];
      return typeof p === "string" ? p : p.map(piece).join("");
    }
    /* A board is its root's opening tag, its children's pieces, and "</svg>". The children a
       step shares with the board shown before (the printed map's layers, the counters that did
       not move) are the same nodes, kept: only what changed is parsed and laid out. */
    var nodes = {}, root = null, rootTag = null;
    function nodesFor(ref) {
      if (!nodes[ref]) {
        var holder = document.createElementNS(SVGNS, "svg");
        holder.innerHTML = piece(ref);
        nodes[ref] = Array.prototype.slice.call(holder.childNodes);
      }
      return nodes[ref];
    }
    function drawBoard(refs) {
      var tag = piece(refs[0]);
      if (!root || piece(refs[refs.length - 1]) !== "</svg>") {
        board.innerHTML = refs.map(piece).join("");
        root = $("svg", board);
        rootTag = tag;
        if (piece(refs[refs.length - 1]) !== "</svg>") { root = null; return; }
        var kids = Array.prototype.slice.call(root.childNodes), k = 0;
        refs.slice(1, -1).forEach(function (ref) {  /* adopt the parsed nodes as the pieces' own */
          var count = nodesFor(ref).length;
          nodes[ref] = kids.slice(k, k + count);
          k += count;
        });
        return;
      }
      if (tag !== rootTag) {
        var probe = document.createElement("div");
        probe.innerHTML = tag + "</svg>";
        var fresh = probe.firstChild;
        Array.prototype.slice.call(root.attributes).forEach(function (a) {
          if (a.name !== "style" && !fresh.hasAttribute(a.name)) root.removeAttribute(a.name);
        });
        Array.prototype.slice.call(fresh.attributes).forEach(function (a) { root.setAttribute(a.name, a.value); });
        rootTag = tag;
      }
      var cur = root.firstChild;
      refs.slice(1, -1).forEach(function (ref) {
        nodesFor(ref).forEach(function (node) {
          if (node === cur) cur = cur.nextSibling;
          else root.insertBefore(node, cur);
        });
      });
      while (cur) { var next = cur.nextSibling; root.removeChild(cur); cur = next; }
    }
    function show(n) {
      n = Math.max(0, Math.min(last, Number(n) || 0));
      var st = steps[n], first = cur < 0;
      cur = n;
      if (st.b !== shownBoard) {
        var sx = board.scrollLeft, sy = board.scrollTop, kept = root, focus = root && root.dataset.focus;
        drawBoard(data.boards[st.b]);
        shownBoard = st.b;
        if (first) initZoom(document, false);
        else if (!kept || root !== kept) { applyZoom(board); board.scrollLeft = sx; board.scrollTop = sy; focusBoard(board, true); }
        else if (root.dataset.focus !== focus) focusBoard(board, true);  /* no layout forced when nothing moved it */
      }
      $("#stepno").textContent = String(n);
      slider.value = String(n);
      $("#phase").textContent = st.p;
      $("#to-act").textContent = st.a.length ? " · to act: " + st.a.join(", ") : "";
      $$("li.current", events).forEach(function (li) { li.classList.remove("current"); });
      var row = rows[st.r];
      var now = $("#now");
      now.innerHTML = "";
      if (row) {
        row.classList.add("current");
        scrollWithin(events, row);
        var list = el("ol", { "class": "events now-row" }), copy = row.cloneNode(true);
        copy.removeAttribute("id");
        copy.classList.remove("current");
        list.appendChild(copy);
        now.appendChild(list);
      }
      body.dataset.step = String(n);
      try { history.replaceState(null, "", "#step-" + n); } catch (e) { /* some viewers refuse it on file:// */ }
    }
    function stop() {
      if (timer) { clearInterval(timer); timer = null; }
      $("#autoplay").textContent = "▶ " + T("Autoplay");
    }
    function next() {
      var n = stops.filter(function (i) { return i > cur; })[0];
      show(n === undefined ? last : n);
    }
    function prev() {
      var before = stops.filter(function (i) { return i < cur; });
      show(before.length ? before[before.length - 1] : 0);
    }
    function toggle() {
      if (timer) { stop(); return; }
      if (cur >= last) show(0);
      timer = setInterval(function () { if (cur >= last) stop(); else next(); }, 900);
      $("#autoplay").textContent = "⏸ " + T("Pause");
    }
    $("#first").addEventListener("click", function () { stop(); show(0); });
    $("#prev").addEventListener("click", function () { stop(); prev(); });
    $("#next").addEventListener("click", function () { stop(); next(); });
    $("#last").addEventListener("click", function () { stop(); show(last); });
    $("#autoplay").addEventListener("click", toggle);
    slider.addEventListener("input", function () { stop(); show(slider.value); });
    events.addEventListener("click", function (ev) {
      var li = ev.target.closest("li.ev");
      if (!li) return;
      stop();
      show(Number(li.id.replace("ev-", "")));
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.target.closest && ev.target.closest("input:not([type=range]), select, textarea")) return;
      var keys = { ArrowLeft: prev, ArrowRight: next, Home: function () { show(0); }, End: function () { show(last); } };
      if (keys[ev.key]) { ev.preventDefault(); stop(); keys[ev.key](); }
      else if (ev.key === " ") { ev.preventDefault(); toggle(); }
    });
    var m = /#step-(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) : 0);
  }

  /* Line of sight by clicking (LnL 10.0): the tool button, then two hexes; the server draws the
     line and lists what it crosses, degrades and blocks (?los=A,B). Bound once, on the document,
     so that it outlives the live refreshes of the board. */
  function initLosTool() {
    var picks = [];
    function hint(s) { var h = $("#los-hint"); if (h) h.textContent = s; }
    document.addEventListener("click", function (ev) {
      var tool = ev.target.closest && ev.target.closest("#los-tool");
      if (tool) {
        ev.preventDefault();
        body.classList.toggle("los-picking");
        picks = [];
        $$(".los-pick").forEach(function (p) { p.remove(); });
        hint(body.classList.contains("los-picking") ? T("Click the first hex.") : "");
        return;
      }
      if (!body.classList.contains("los-picking")) return;
      var hexEl = ev.target.closest && ev.target.closest("#board [data-hex]");
      if (!hexEl) return;
      ev.preventDefault();
      ev.stopPropagation();
      var hex = hexEl.dataset.hex, svg = $("#board svg.hexmap");
      var poly = $('#board polygon[data-hex="' + hex + '"]');
      if (svg && poly) svg.appendChild(svgEl("polygon", { points: poly.getAttribute("points"), "class": "los-pick" }));
      picks.push(hex);
      if (picks.length < 2) { hint(T("From %(hex)s: click the second hex.", { hex: hex })); return; }
      body.classList.remove("los-picking");
      location.href = "/games/" + body.dataset.gameId + "?los=" + encodeURIComponent(picks[0] + "," + picks[1]);
    }, true);
  }

  if (["play", "replay", "replay-file", "fork"].indexOf(body.dataset.page) >= 0) {
    foldKey(document);
    initPinch();
  }
  if (body.dataset.page === "play") { initZoom(document); initPlay(); initLosTool(); }
  if (body.dataset.page === "replay") initReplay();
  if (body.dataset.page === "replay-file") initReplayFile();
})();
