/* The web pages' script (bot/doors/web/templates): live updates, the clocks, the replay
   and hall mode. Plain JavaScript, no build step, loaded from this door only (the
   Content-Security-Policy allows nothing else). Every text it writes goes in as text
   (textContent), never as HTML. The page works without it: the replay's buttons are
   links, the page shows the moment it was asked. */
(function () {
  "use strict";

  var body = document.body;
  var WORDS = {};
  try {
    WORDS = JSON.parse(document.getElementById("words").textContent || "{}");
  } catch (e) {
    WORDS = {};
  }

  function say(name, params) {
    var text = WORDS[name] || name;
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return params && key in params ? String(params[key]) : all;
    });
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function cell(tag, text, className) {
    var node = document.createElement(tag);
    node.textContent = text === null || text === undefined ? "" : String(text);
    if (className) node.className = className;
    return node;
  }

  /* ----- the clocks: counted down here between updates ------------------------------ */

  var clocks = [];

  function setClock(node, seconds, paused) {
    if (!node) return;
    if (seconds === null || seconds === undefined || seconds === "") {
      node.hidden = true;
      node.dataset.seconds = "";
      return;
    }
    node.hidden = false;
    node.dataset.seconds = String(seconds);
    node.dataset.paused = paused ? "1" : "0";
    node.dataset.since = String(Date.now());
    showClock(node);
  }

  function showClock(node) {
    if (node.dataset.seconds === "" || node.dataset.seconds === undefined) return;
    var left = parseFloat(node.dataset.seconds);
    if (node.dataset.paused !== "1") {
      left -= (Date.now() - parseFloat(node.dataset.since || Date.now())) / 1000;
    }
    left = Math.max(0, Math.round(left));
    var out = node.querySelector(".left");
    if (out) {
      var minutes = Math.floor(left / 60);
      var seconds = left % 60;
      out.textContent = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
    }
    node.classList.toggle("low", left <= 10);
  }

  function startClocks() {
    clocks = Array.prototype.slice.call(document.querySelectorAll(".clock[data-seconds]"));
    clocks.forEach(function (node) {
      node.dataset.since = String(Date.now());
      showClock(node);
    });
    window.setInterval(function () {
      clocks.forEach(showClock);
    }, 1000);
  }

  /* ----- live updates: the events stream, else the JSON every 10 seconds --------------- */

  var version = 0;
  var polling = null;
  var asking = false;

  function refresh() {
    var address = body.dataset.json;
    if (!address || asking) return;
    asking = true;
    fetch(address, { cache: "no-store", credentials: "omit" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (data) {
        version += 1;
        if (body.dataset.page === "game") updateGame(data);
        if (body.dataset.page === "tournament") updateTournament(data);
      })
      .catch(function () {})
      .then(function () {
        asking = false;
      });
  }

  function poll() {
    if (polling !== null) return;
    body.classList.add("polling");
    polling = window.setInterval(refresh, 10000);
  }

  function listen() {
    if (!body.dataset.json) return;
    if (!window.EventSource || !body.dataset.events) {
      poll();
      return;
    }
    var opened = false;
    var stream = new EventSource(body.dataset.events);
    stream.addEventListener("open", function () {
      opened = true;
    });
    stream.addEventListener("change", function (event) {
      try {
        var data = JSON.parse(event.data);
        if (data && typeof data.version === "number") version = data.version;
      } catch (e) {
        /* a change all the same */
      }
      refresh();
    });
    stream.addEventListener("error", function () {
      // no stream here (404) or it failed for good: ask for the JSON every 10 s instead;
      // a stream that was open and drops reconnects by itself
      if (!opened || stream.readyState === EventSource.CLOSED) {
        stream.close();
        poll();
      }
    });
  }

  /* ----- a game --------------------------------------------------------------------- */

  function sideNames(data) {
    return data.sides || [];
  }

  function updateGame(data) {
    var status = byId("status");
    if (status && status.dataset.status !== data.status) {
      // the table came (the game began) or went: the page is another one now
      if (!byId("board") && data.table) {
        window.location.reload();
        return;
      }
      status.dataset.status = data.status;
    }
    var board = byId("board");
    if (board && data.table) {
      var query = body.dataset.query ? "&" + body.dataset.query.slice(1) : "";
      board.src = body.dataset.base + "/board.png?v=" + data.moves + "-" + version + query;
      board.alt = data.text || "";
    }
    var text = byId("board-text");
    if (text) text.textContent = data.text || "";
    var turn = byId("turn");
    if (turn) {
      var mover = data.to_move !== null && data.to_move !== undefined ? data.players[data.to_move] : null;
      turn.textContent = mover ? say("to_play", { name: mover.name }) : "";
    }
    if (data.clock) {
      setClock(byId("turn-clock"), data.clock.turn_seconds_left, false);
      setClock(byId("game-clock"), data.clock.game_seconds_left, false);
    }
    if (data.outcome) {
      var outcome = byId("outcome");
      if (outcome) {
        outcome.hidden = false;
        outcome.textContent =
          say("winner", { name: sideNames(data)[data.outcome.winner] }) +
          " (" + data.outcome.scores.join(" – ") + ")";
      }
    }
    updateSheet(data);
    updateHands(data);
  }

  function updateSheet(data) {
    var table = byId("sheet");
    if (!table || !data.sheet) return;
    var rows = table.tBodies[0];
    while (rows.firstChild) rows.removeChild(rows.firstChild);
    data.sheet.rows.forEach(function (points, i) {
      var row = document.createElement("tr");
      var head = cell("th", data.sheet.first + i + 1);
      head.scope = "row";
      row.appendChild(head);
      points.forEach(function (p) {
        row.appendChild(cell("td", p));
      });
      rows.appendChild(row);
    });
    var judge = table.querySelector("tr.adjustment th");
    data.sheet.adjustments.forEach(function (a) {
      var row = document.createElement("tr");
      row.className = "adjustment";
      var head = cell("th", judge ? judge.textContent : "");
      head.scope = "row";
      row.appendChild(head);
      sideNames(data).forEach(function (side, i) {
        var shown = "";
        if (i === a.side) shown = (a.points > 0 ? "+" : "") + a.points + (a.reason ? " (" + a.reason + ")" : "");
        row.appendChild(cell("td", shown));
      });
      rows.appendChild(row);
    });
    var totals = byId("totals");
    if (totals) {
      var cells = totals.querySelectorAll("td");
      data.scores.forEach(function (score, i) {
        if (cells[i]) cells[i].textContent = String(score);
      });
    }
  }

  function updateHands(data) {
    var list = byId("hand-list");
    if (!list) return;
    var shown = list.querySelectorAll("a.hand-link").length;
    var query = body.dataset.query ? "&" + body.dataset.query.slice(1) : "";
    data.hands.slice(shown).forEach(function (hand) {
      var item = document.createElement("li");
      var link = cell("a", say("hand", { n: hand.hand }), "hand-link");
      link.href = "?hand=" + hand.hand + query + "#replay";
      link.dataset.hand = String(hand.hand);
      item.appendChild(link);
      var result = hand.result;
      var words = result ? result.points.join(" – ") + " · " + say("end_" + result.end) : "";
      item.appendChild(document.createTextNode(": " + words));
      list.appendChild(item);
    });
    var none = byId("no-hands");
    if (none) none.hidden = data.hands.length > 0;
  }

  /* ----- a tournament ---------------------------------------------------------------- */

  function updateTournament(data) {
    var known = document.querySelectorAll("section.round").length;
    var status = byId("status");
    if (data.rounds_played.length !== known || (status && status.dataset.status !== data.status)) {
      window.location.reload(); // a new round, or the tournament began or ended
      return;
    }
    var round = byId("round");
    setClock(byId("round-clock"), data.clock.seconds_left, data.clock.paused);
    updateStandings(data);
    data.rounds_played.forEach(function (r) {
      r.tables.forEach(function (t) {
        var row = byId("table-" + r.round + "-" + t.number);
        if (!row) return;
        var changed = row.dataset.status !== t.status;
        row.dataset.status = t.status;
        row.className = "table-row " + t.status;
        var score = row.querySelector(".score");
        if (score) score.textContent = t.score.join(" – ");
        var state = row.querySelector(".status");
        if (state && changed) state.textContent = say("table_" + t.status);
      });
    });
    if (round) round.dataset.round = String(data.round);
  }

  function updateStandings(data) {
    var table = byId("standings-table");
    if (!table) return;
    var heads = table.querySelectorAll("th[data-tiebreak]");
    var codes = Array.prototype.map.call(heads, function (th) {
      return th.dataset.tiebreak;
    });
    var rows = table.tBodies[0];
    while (rows.firstChild) rows.removeChild(rows.firstChild);
    data.standings.forEach(function (s) {
      var row = document.createElement("tr");
      row.dataset.entry = String(s.entry);
      row.appendChild(cell("td", s.place, "num"));
      var name = cell("th", s.name);
      name.scope = "row";
      row.appendChild(name);
      [s.played, s.won, s.points_for, s.points_against, s.penalties, s.byes, s.difference].forEach(
        function (n) {
          row.appendChild(cell("td", n, "num"));
        }
      );
      codes.forEach(function (code) {
        var figure = s.tiebreaks[code];
        var kind = "num tiebreak" + (heads[codes.indexOf(code)].classList.contains("chosen") ? " chosen" : "");
        row.appendChild(cell("td", figure === undefined ? "" : String(+figure.toFixed(2)), kind));
      });
      rows.appendChild(row);
    });
  }

  /* ----- the replay of a finished hand: buttons and the ← → keys ------------------------ */

  function replay() {
    var section = byId("replay");
    if (!section) return;
    var hand = section.dataset.hand;
    var steps = parseInt(section.dataset.steps, 10);
    var step = parseInt(section.dataset.step, 10);
    var said = Array.prototype.map.call(section.querySelectorAll("a.replay-step"), function (a) {
      return a.textContent;
    });
    var query = body.dataset.query ? "&" + body.dataset.query.slice(1) : "";
    var picture = byId("replay-board");
    var cache = {};

    function address(n) {
      return body.dataset.base + "/hands/" + hand + "/" + n + ".png" + (body.dataset.query || "");
    }

    function preload(n) {
      if (n < 0 || n > steps || cache[n]) return;
      cache[n] = new Image();
      cache[n].src = address(n);
    }

    function go(n) {
      n = Math.max(0, Math.min(steps, n));
      step = n;
      section.dataset.step = String(n);
      picture.src = address(n);
      picture.alt = n === 0 ? say("after_deal") : say("position", { move: said[n] });
      byId("replay-move").textContent = n === 0 ? say("after_deal") : said[n];
      byId("replay-step").textContent = say("move_of", { step: n, steps: steps });
      var links = {
        "replay-first": 0,
        "replay-prev": Math.max(0, n - 1),
        "replay-next": Math.min(steps, n + 1),
        "replay-last": steps,
      };
      Object.keys(links).forEach(function (id) {
        byId(id).href = "?hand=" + hand + "&step=" + links[id] + query;
      });
      section.querySelectorAll("a.replay-step").forEach(function (a) {
        if (parseInt(a.dataset.step, 10) === n) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
      });
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", "?hand=" + hand + "&step=" + n + query);
      }
      preload(n + 1);
      preload(n - 1);
    }

    var moves = {
      "replay-first": function () { return 0; },
      "replay-prev": function () { return step - 1; },
      "replay-next": function () { return step + 1; },
      "replay-last": function () { return steps; },
    };
    Object.keys(moves).forEach(function (id) {
      byId(id).addEventListener("click", function (event) {
        event.preventDefault();
        go(moves[id]());
      });
    });
    section.querySelectorAll("a.replay-step").forEach(function (a) {
      a.addEventListener("click", function (event) {
        event.preventDefault();
        go(parseInt(a.dataset.step, 10));
      });
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (event.key === "ArrowLeft") {
        event.preventDefault();
        go(step - 1);
      } else if (event.key === "ArrowRight") {
        event.preventDefault();
        go(step + 1);
      } else if (event.key === "Home") {
        go(0);
      } else if (event.key === "End") {
        go(steps);
      }
    });
    preload(step + 1);
  }

  /* ----- hall mode: the standings, then the tables, in turn ----------------------------- */

  function hall() {
    if (!body.classList.contains("tv")) return;
    var seconds = parseInt(body.dataset.tvSeconds || "15", 10);
    var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
    if (slides.length < 2) return;
    var shown = 0;
    function show() {
      slides.forEach(function (slide, i) {
        slide.classList.toggle("away", i !== shown);
      });
      body.dataset.slide = slides[shown].id;
    }
    show();
    window.setInterval(function () {
      shown = (shown + 1) % slides.length;
      show();
    }, seconds * 1000);
  }

  startClocks();
  replay();
  hall();
  listen();
})();
