/* The pupil's page of the classroom server.

   This script decides no rule.  Every move is sent, with the line so far, to the server, which
   replays it on the engine and answers with the position, the refusal (its rule and message, in
   the class's language) and the verdict; the page draws what it is told.  Only while the server
   cannot be reached does a move go on the board unjudged, marked as such, to be checked as soon as
   the connection returns.  A finished line is queued in localStorage under a fresh client id and
   sent until the server has answered it; the server keeps one attempt per client id, so a line
   sent twice (the answer to the first sending lost on the way) still counts once.

   User text (names, class and assignment titles, the server's messages) is only ever set as text
   (textContent), never parsed as markup. */
(function () {
  "use strict";
  var T = window.ClassroomText;
  var TOKEN_KEY = "agnes-classroom:token";
  var QUEUE_KEY = "agnes-classroom:queue";
  var CACHE_KEY = "agnes-classroom:cache";
  var RETRY_MS = 5000;
  var POLL_MS = 15000;
  // A request unanswered this long counts as no connection: a dropped Wi-Fi can leave one hanging
  // for minutes, and the pupil must be able to play on meanwhile.
  var TIMEOUT_MS = 8000;
  var SUITS = ["S", "H", "D", "C"];
  var SUIT_SIGN = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SIGN_SUIT = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"};
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  // Rank letters a pupil may type besides the Latin ones (the project's cards.TYPED_RANKS).
  var TYPED = {"\u0410": "A", "\u0422": "A", "\u0412": "J", "\u0414": "Q", "\u041a": "K", "T": "10"};

  var lang = T.guess();
  var token = localStorage.getItem(TOKEN_KEY);
  var me = null;            // {pupil, name, class: {id, name, lang}}
  var assignments = [];     // as /api/me/assignments answers
  var attempts = [];        // as /api/me/attempts answers
  var current = null;       // the puzzle being played
  var flushing = false;
  var answerWaiters = {};   // client id -> what to do with the server's verdict on that line
  var pollTimer = null;

  function $(selector) { return document.querySelector(selector); }
  function say(key, fields) { return T.say(lang, key, fields); }
  var el = window.classroomElement;

  // ---- words ---------------------------------------------------------------------------------

  function applyLanguage(code) {
    lang = T.table[code] ? code : "en";
    document.documentElement.lang = lang;
    document.title = say("page_title");
    Array.prototype.forEach.call(document.querySelectorAll("[data-text]"), function (node) {
      node.textContent = say(node.getAttribute("data-text"));
    });
    $("[data-board-box]").setAttribute("aria-label", say("board_label"));
  }

  // ---- the server ----------------------------------------------------------------------------

  // A request: resolves with {status, data}; rejects with {network: true} when no answer came.
  function api(method, path, body, withToken) {
    return window.classroomRequest(method, path, body, withToken === undefined ? token : withToken, TIMEOUT_MS);
  }


  function serverMessage(data) {
    if (data && typeof data === "object") { return data.message || data.error || data.detail || ""; }
    return "";
  }

  // ---- the queue of finished lines -----------------------------------------------------------

  function readQueue() {
    try { return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]"); } catch (ignored) { return []; }
  }
  function writeQueue(items) { localStorage.setItem(QUEUE_KEY, JSON.stringify(items)); }

  // 128 random bits as hex: crypto.randomUUID needs a secure context, which a class network's
  // plain http://192.168.x.y address is not; getRandomValues works everywhere.
  function freshId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function enqueue(line, onAnswer) {
    var item = {client_id: freshId(), token: token, assignment: current.assignment, puzzle: current.puzzle.id,
                moves: line.slice()};
    var items = readQueue();
    items.push(item);
    writeQueue(items);
    if (onAnswer) { answerWaiters[item.client_id] = onAnswer; }
    showPending();
    flush();
    return item;
  }

  function dropFromQueue(clientId) {
    writeQueue(readQueue().filter(function (item) { return item.client_id !== clientId; }));
  }

  // Sends the queued lines one by one until one cannot be sent now (no connection, a busy server);
  // a line leaves the queue only once the server has answered it.
  function flush() {
    if (flushing) { return; }
    var items = readQueue();
    if (!items.length) { showPending(); return; }
    flushing = true;
    var item = items[0];
    api("POST", "/api/attempts", {assignment: item.assignment, puzzle: item.puzzle, moves: item.moves,
                                   client_id: item.client_id}, item.token)
      .then(function (answer) {
        flushing = false;
        if (answer.status === 429 || answer.status >= 500) { showPending(); return; }
        // Answered: counted (2xx), or refused for good (a token the server no longer knows, an
        // assignment removed), which no resending would change.
        dropFromQueue(item.client_id);
        setOnline(true);
        var waiter = answerWaiters[item.client_id];
        delete answerWaiters[item.client_id];
        if (answer.status >= 200 && answer.status < 300) {
          attempts.push({assignment: item.assignment, puzzle: item.puzzle, result: answer.data && answer.data.result});
          if (waiter) { waiter(answer.data); }
          renderAssignments();
        }
        flush();
      }, function () {
        flushing = false;
        setOnline(false);
        showPending();
      });
  }

  function showPending() {
    var mine = readQueue().filter(function (item) { return item.token === token; }).length;
    var node = $("[data-pending]");
    node.hidden = mine === 0;
    node.textContent = mine ? say("pending", {n: mine}) : "";
  }

  function setOnline(online) {
    var banner = $("[data-offline-banner]");
    banner.hidden = online;
    banner.textContent = online ? "" : say("offline_banner");
  }

  // ---- joining and the list of assignments ---------------------------------------------------

  function show(view) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-view]"), function (node) {
      node.hidden = node.getAttribute("data-view") !== view;
    });
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    if (view === "home") { pollTimer = setInterval(loadHome, POLL_MS); }
  }

  function joinView(message) {
    show("join");
    $("[data-join-message]").textContent = message || "";
  }

  function join(event) {
    event.preventDefault();
    var code = $("#join-code").value.trim(), name = $("#join-name").value.trim();
    var out = $("[data-join-message]");
    if (!code || !name) { out.textContent = say("join_missing"); return; }
    out.textContent = "";
    api("POST", "/api/join", {code: code, name: name}, null).then(function (answer) {
      if (answer.status === 201 && answer.data && answer.data.token) {
        token = answer.data.token;
        localStorage.setItem(TOKEN_KEY, token);
        start();
      } else if (answer.status === 429) {
        out.textContent = say("join_throttled");
      } else if (answer.status === 422) {
        out.textContent = serverMessage(answer.data) || say("join_missing");
      } else if (answer.status === 404 || answer.status === 403 || answer.status === 401) {
        out.textContent = say("join_bad_code");
      } else {
        out.textContent = say("server_error", {status: answer.status});
      }
    }, function () { out.textContent = say("join_offline"); });
  }

  function forget(message) {
    token = null;
    me = null;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(CACHE_KEY);
    current = null;
    applyLanguage(T.guess());
    joinView(message);
  }

  // Who the pupil is and the assignments, from the server, or from this device's copy when the
  // server cannot be reached (the page keeps working offline after a reload).
  function start() {
    api("GET", "/api/me").then(function (answer) {
      if (answer.status === 401 || answer.status === 403) { forget(say("session_lost")); return; }
      if (answer.status !== 200 || !answer.data) { joinView(say("server_error", {status: answer.status})); return; }
      me = answer.data;
      applyLanguage(me["class"] && me["class"].lang);
      setOnline(true);
      show("home");
      loadHome();
      flush();
    }, function () {
      var cached = readCache();
      setOnline(false);
      if (cached) {
        me = cached.me;
        assignments = cached.assignments;
        attempts = cached.attempts || [];
        applyLanguage(me["class"] && me["class"].lang);
        show("home");
        renderHome();
      } else {
        joinView(say("join_offline"));
      }
    });
  }

  function readCache() {
    try {
      var cached = JSON.parse(localStorage.getItem(CACHE_KEY) || "null");
      return cached && cached.token === token ? cached : null;
    } catch (ignored) { return null; }
  }

  function homeMessage(text) { $("[data-home-message]").textContent = text; }

  function loadHome() {
    Promise.all([api("GET", "/api/me/assignments"), api("GET", "/api/me/attempts")]).then(function (answers) {
      if (answers[0].status === 401 || answers[0].status === 403) { forget(say("session_lost")); return; }
      if (answers[0].status !== 200) { homeMessage(say("server_error", {status: answers[0].status})); return; }
      homeMessage("");
      setOnline(true);
      assignments = answers[0].data || [];
      attempts = answers[1].status === 200 && Array.isArray(answers[1].data) ? answers[1].data : attempts;
      localStorage.setItem(CACHE_KEY, JSON.stringify({token: token, me: me, assignments: assignments,
                                                     attempts: attempts}));
      renderHome();
    }, function () { setOnline(false); renderHome(); });
  }

  function renderHome() {
    $("[data-hello]").textContent = say("hello", {name: me.name});
    $("[data-class-line]").textContent = say("class_line", {name: me["class"] ? me["class"].name : ""});
    renderAssignments();
    showPending();
  }

  // A puzzle's state for this pupil: solved, tried or new (what the server answered, and lines
  // still waiting in the queue count as tried).
  function status(assignmentId, puzzleId) {
    var tried = false, solved = false;
    attempts.forEach(function (a) {
      if (a.assignment === assignmentId && a.puzzle === puzzleId) {
        tried = true;
        if (a.result === "solved") { solved = true; }
      }
    });
    readQueue().forEach(function (item) {
      if (item.token === token && item.assignment === assignmentId && item.puzzle === puzzleId) { tried = true; }
    });
    return solved ? "solved" : tried ? "tried" : "new";
  }

  function renderAssignments() {
    var box = $("[data-assignments]");
    if (!box || !me) { return; }
    box.textContent = "";
    if (!assignments.length) { box.appendChild(el("p", {}, say("no_assignments"))); return; }
    assignments.forEach(function (assignment) {
      var part = el("section", {"class": "assignment"});
      part.appendChild(el("h3", {}, assignment.title));
      var list = el("ol", {"class": "puzzle-list"});
      assignment.puzzles.forEach(function (puzzle, index) {
        var state = status(assignment.id, puzzle.id);
        var item = el("li", {});
        var button = el("button", {"type": "button", "class": "puzzle-button state-" + state,
                                   "data-assignment": assignment.id, "data-puzzle": puzzle.id});
        button.appendChild(el("span", {"class": "puzzle-name"}, say("puzzle_n", {n: index + 1})));
        button.appendChild(el("span", {"class": "puzzle-state"},
                              say(state === "solved" ? "status_solved" : state === "tried" ? "status_tried" : "status_new")));
        button.addEventListener("click", function () { openPuzzle(assignment, puzzle, index); });
        item.appendChild(button);
        list.appendChild(item);
      });
      part.appendChild(list);
      box.appendChild(part);
    });
  }

  // ---- cards and the board -------------------------------------------------------------------

  // A card of the position ("10H", "QS", "TH", "Q♥") as {rank, suit, text}, text in notation.
  function card(text) {
    var raw = String(text).replace(/\s+/g, "").toUpperCase();
    var suit = SIGN_SUIT[raw.slice(-1)] || raw.slice(-1);
    var rank = raw.slice(0, -1);
    if (TYPED[rank]) { rank = TYPED[rank]; }
    if (SUITS.indexOf(suit) < 0 || RANKS.indexOf(rank) < 0) { return null; }
    return {rank: rank, suit: suit, text: rank + suit};
  }

  function pileCards(value) {
    if (value === null || value === undefined) { return []; }
    if (typeof value === "string") { return value.split(/\s+/).filter(Boolean).map(card).filter(Boolean); }
    if (Array.isArray(value)) {
      var out = [];
      value.forEach(function (v) { out = out.concat(pileCards(v)); });
      return out;
    }
    return [];
  }

  function rankShown(rank) { return (T.table[lang].rank_letters || {})[rank] || rank; }
  function face(c) { return rankShown(c.rank) + SUIT_SIGN[c.suit]; }
  function words(c) {
    var table = T.table[lang];
    return say("card_words", {rank: (table.rank_words || {})[c.rank] || c.rank, suit: table.suit_words[c.suit]});
  }
  function red(c) { return c.suit === "H" || c.suit === "D"; }

  function baseRank(position) {
    var base = String(position.base === undefined ? "A" : position.base).toUpperCase();
    if (base === "1") { base = "A"; }
    if (base === "11") { base = "J"; }
    if (base === "12") { base = "Q"; }
    if (base === "13") { base = "K"; }
    if (TYPED[base]) { base = TYPED[base]; }
    return RANKS.indexOf(base) >= 0 ? base : "A";
  }

  // The position as the board draws it: every pile a list of cards, bottom to top.
  function board(position) {
    var founds = {};
    var given = position.foundations || {};
    Object.keys(given).forEach(function (key) {
      var top = pileCards(given[key]);
      if (top.length) { founds[top[top.length - 1].suit] = top[top.length - 1]; }
    });
    return {
      base: baseRank(position),
      foundations: founds,
      tableau: (position.tableau || []).map(pileCards),
      reserve: (position.reserve || []).map(pileCards),
      stock: pileCards(position.stock),
      // One pile per cell: [KH] (the card names its cell) or the per-cell form [KH, []].
      exposed: (Array.isArray(position.exposed) ? position.exposed
                : String(position.exposed || "").split(/\s+/).filter(Boolean)).map(pileCards)
    };
  }

  // How many cards a foundation holds, from its top card and the base rank (counting only).
  function homeCount(b) {
    var base = RANKS.indexOf(b.base), n = 0;
    SUITS.forEach(function (suit) {
      var top = b.foundations[suit];
      if (top) { n += (RANKS.indexOf(top.rank) - base + 13) % 13 + 1; }
    });
    return n;
  }

  function renderBoard() {
    var b = current.board, box = $("[data-board]");
    box.textContent = "";
    var top = el("div", {"class": "row top"});
    var founds = el("div", {"class": "foundations"});
    founds.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"},
                          say("foundations", {rank: rankShown(b.base)})));
    var slots = el("div", {"class": "row", "role": "group", "aria-label": say("foundations", {rank: rankShown(b.base)})});
    SUITS.forEach(function (suit) {
      var slot = el("div", {"class": "pile foundation", "data-dest": "f"});
      var topCard = b.foundations[suit];
      if (topCard) {
        slot.appendChild(cardButton(topCard, false, say("foundation")));
      } else {
        var first = {rank: b.base, suit: suit};
        slot.appendChild(el("button", {"type": "button", "class": "slot first" + (red(first) ? " red" : ""),
                                       "data-dest": "f", "aria-label": say("empty_foundation") + ", " + words(first)},
                            face(first)));
      }
      slots.appendChild(slot);
    });
    founds.appendChild(slots);
    top.appendChild(founds);
    var stock = el("div", {"class": "pile stock"});
    stock.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"}, say("stock")));
    stock.appendChild(el("button", {"type": "button", "class": "slot" + (b.stock.length ? " stock-button" : ""),
                                    "data-deal": "", "aria-label": say("deal_label", {n: b.stock.length})},
                         String(b.stock.length)));
    if (b.stock.length && !current.puzzle.stock_shown) {
      stock.appendChild(el("span", {"class": "stock-state", "aria-hidden": "true"}, say("face_down")));
    }
    top.appendChild(stock);
    b.exposed.forEach(function (pile, i) { top.appendChild(pileBox("x" + (i + 1), pile, false)); });
    box.appendChild(top);
    var columns = el("div", {"class": "row columns"});
    b.tableau.forEach(function (pile, i) { columns.appendChild(pileBox("t" + (i + 1), pile, true)); });
    box.appendChild(columns);
    if (b.reserve.length) {
      var reserve = el("div", {"class": "row reserve"});
      b.reserve.forEach(function (pile, i) { reserve.appendChild(pileBox("r" + (i + 1), pile, true)); });
      box.appendChild(reserve);
    }
    if (current.puzzle.stock_shown && b.stock.length) {
      var shown = el("div", {"class": "row stock-shown"});
      shown.appendChild(el("p", {"class": "stock-note"}, say("stock_shown")));
      b.stock.forEach(function (c) {
        shown.appendChild(el("span", {"class": "card" + (red(c) ? " red" : ""), "role": "img",
                                      "aria-label": words(c)}, face(c)));
      });
      box.appendChild(shown);
    }
    if (current.selected) {
      var chosen = box.querySelector('[data-card="' + current.selected + '"]');
      if (chosen) { chosen.classList.add("selected"); chosen.setAttribute("aria-pressed", "true"); }
    }
    $("[data-progress]").textContent = say("progress", {n: homeCount(b)});
    $("[data-undo]").disabled = current.line.length === 0;
    $("[data-submit]").disabled = current.finished;
    $("[data-next]").hidden = !current.finished || !nextPuzzle();
  }

  function pileBox(name, pile, fanned) {
    var label = say("pile_" + name[0], {n: name.slice(1)});
    var box = el("div", {"class": "pile kind-" + name[0] + (fanned ? " fanned" : ""), "role": "group",
                         "aria-label": label, "data-dest": name});
    box.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"}, name));
    if (!pile.length) {
      box.appendChild(el("button", {"type": "button", "class": "slot", "data-dest": name,
                                    "aria-label": say("empty", {pile: label})}, ""));
    }
    pile.forEach(function (c, i) {
      box.appendChild(cardButton(c, name[0] === "r" && i < pile.length - 1));
    });
    return box;
  }

  function cardButton(c, covered, where) {
    var spoken = face(c) + ", " + (covered ? say("covered", {card: words(c)}) : words(c)) + (where ? ", " + where : "");
    return el("button", {"type": "button", "class": "card" + (red(c) ? " red" : "") + (covered ? " covered" : ""),
                         "data-card": c.text, "aria-label": spoken, "aria-pressed": "false"}, face(c));
  }

  // ---- playing -------------------------------------------------------------------------------

  function openPuzzle(assignment, puzzle, index) {
    current = {assignment: assignment.id, puzzle: puzzle, index: index, line: [], board: board(puzzle.position),
               selected: null, unchecked: 0, finished: false, busy: false};
    $("[data-puzzle-title]").textContent = assignment.title + " \u2014 " + say("puzzle_n", {n: index + 1});
    $("[data-task]").textContent = taskText(puzzle.task);
    show("play");
    tell("", "");
    renderBoard();
    $("[data-board-box]").scrollIntoView({block: "nearest"});
  }

  // The puzzle after the current one in its assignment, if any.
  function nextPuzzle() {
    for (var i = 0; i < assignments.length; i++) {
      var a = assignments[i];
      if (a.id === current.assignment && current.index + 1 < a.puzzles.length) {
        return {assignment: a, puzzle: a.puzzles[current.index + 1], index: current.index + 1};
      }
    }
    return null;
  }

  function taskText(task) {
    var key = {"win": "task_win", "key-move": "task_key", "trap": "task_trap", "legal-moves": "task_legal"}[task];
    return key ? say(key) : String(task || "");
  }

  function tell(verdict, text) {
    var out = $("[data-feedback]");
    out.textContent = text;
    out.setAttribute("data-verdict", verdict);
    out.removeAttribute("data-rule");
    if (out.scrollIntoView && text) { out.scrollIntoView({block: "nearest"}); }
  }

  // A refusal as the server worded it, with its rule id.
  function tellRefusal(refused, lead, after) {
    var out = $("[data-feedback]");
    out.textContent = "";
    out.setAttribute("data-verdict", "refused");
    out.setAttribute("data-rule", refused.rule);
    out.appendChild(el("strong", {}, (lead || say("refused", {move: refused.move})) + " "));
    var message = refused.message || "";
    if (message) { out.appendChild(document.createTextNode(message + (/[.!?\u2026]$/.test(message) ? " " : ". "))); }
    var rule = el("span", {"class": "rule-id"});
    rule.appendChild(document.createTextNode(say("rule", {rule: ""})));
    rule.appendChild(el("code", {}, refused.rule));
    out.appendChild(rule);
    if (after) { out.appendChild(el("span", {"class": "after"}, " " + after)); }
    if (out.scrollIntoView) { out.scrollIntoView({block: "nearest"}); }
  }

  function boardClicked(event) {
    var target = event.target.closest("button");
    if (!target || !current) { return; }
    if (target.hasAttribute("data-deal")) { current.selected = null; move("deal"); return; }
    var destBox = target.closest("[data-dest]");
    var dest = destBox ? destBox.getAttribute("data-dest") : null;
    if (!current.selected) {
      if (!target.hasAttribute("data-card")) { return; }
      current.selected = target.getAttribute("data-card");
      renderBoard();
      tell("", say("selected", {card: face(card(current.selected))}));
      return;
    }
    var chosen = current.selected;
    current.selected = null;
    if (target.getAttribute("data-card") === chosen || !dest) {
      renderBoard();
      tell("", say("deselected"));
      return;
    }
    move(chosen + ">" + dest);
  }

  // Typed text as move notation ("д♥ > T2" -> "QH>t2"), or null when it is not a move at all.
  // This is only spelling: whether the move is allowed is the server's answer.
  function notation(raw) {
    var text = raw.trim();
    if (/^deal$/i.test(text) || /^сдать$/i.test(text) || /^repartir$/i.test(text)) { return "deal"; }
    var parts = text.split(/\s*(?:->|>|\u2192)\s*/);
    if (parts.length !== 2) { return null; }
    var dest = parts[1].toLowerCase();
    if (!/^(f|[trx][1-9][0-9]?)$/.test(dest)) { return null; }
    var source = parts[0].toLowerCase();
    if (/^[trx][1-9][0-9]?$/.test(source)) { return source + ">" + dest; }
    var c = card(parts[0]);
    return c ? c.text + ">" + dest : null;
  }

  function typed(event) {
    event.preventDefault();
    var input = $("[data-move]");
    var raw = input.value;
    if (!raw.trim() || !current) { return; }
    current.selected = null;
    var text = notation(raw);
    if (!text) { renderBoard(); tell("", say("not_a_move", {text: raw.trim()})); return; }
    input.value = "";
    move(text);
  }

  function move(text) {
    if (current.busy) { return; }
    if (current.finished) { renderBoard(); tell("", say("handed_in")); return; }
    var line = current.line.concat([text]);
    current.busy = true;
    tell("", say("checking", {move: text}));
    replay(line).then(function (answer) {
      current.busy = false;
      if (!answer) { return; }
      var refusedAt = answer.refused ? answer.refused.index : -1;
      if (refusedAt >= 0 && refusedAt < current.line.length) {
        settle(answer, line);  // a move played offline earlier is the one refused
        return;
      }
      if (answer.refused) {
        renderBoard();
        // A refused move ends a try: the teacher sees which rule was misread.  Play goes on from
        // the position before it.
        enqueue(line);
        tellRefusal(answer.refused, null, say("refused_sent"));
        return;
      }
      current.line = line;
      current.unchecked = 0;
      accept(answer, text);
    }, function () {
      current.busy = false;
      playUnchecked(text, line);
    });
  }

  // Asks the server to replay a line.  Resolves with its answer, or null when the answer was an
  // error already shown; rejects when the server cannot be reached.
  function replay(line) {
    return api("POST", "/api/me/replay", {assignment: current.assignment, puzzle: current.puzzle.id, moves: line})
      .then(function (answer) {
        setOnline(true);
        if (answer.status === 200 && answer.data) {
          return answer.data;  // refused.index counts the moves sent from 0
        }
        if (answer.status === 401 || answer.status === 403) { forget(say("session_lost")); return null; }
        renderBoard();
        if (answer.status === 422) {
          tell("", say("not_a_move", {text: line[line.length - 1]}));
        } else if (answer.status === 429) {
          tell("", say("slow_down"));
        } else {
          tell("", say("server_error", {status: answer.status}));
        }
        return null;
      }, function (failure) { setOnline(false); throw failure; });
  }

  function accept(answer, text) {
    current.board = board(answer.position);
    renderBoard();
    if (answer.result === "solved") {
      finish();
      tell("won", text ? say("solved", {move: text}) : say("solved_plain"));
    } else if (answer.result === "failed" && answer.legal && answer.legal.length === 0) {
      finish();
      tell("lost", say("no_move_left"));
    } else if (text) {
      tell("played", say("played", {move: text}));
    }
  }

  function finish() {
    current.finished = true;
    var puzzle = current;
    enqueue(current.line, function (verdict) { if (current === puzzle) { showVerdict(verdict); } });
    renderBoard();
  }

  function showVerdict(verdict) {
    if (!verdict) { return; }
    var out = $("[data-feedback]");
    var key = verdict.result === "solved" ? "verdict_solved" : verdict.result === "illegal" ? "verdict_illegal" : "verdict_failed";
    var refused = verdict.refused || {};
    out.appendChild(el("span", {"class": "verdict", "data-server-verdict": verdict.result || ""},
                       " " + say(key, {n: refused.index + 1, rule: refused.rule})));
  }

  // No answer from the server: the move goes on the board unjudged, to be checked later.
  function playUnchecked(text, line) {
    if (!moveLocally(text)) {
      renderBoard();
      tell("", say("not_a_move", {text: text}));
      return;
    }
    current.line = line;
    current.unchecked += 1;
    renderBoard();
    tell("unchecked", say("offline_move", {move: text}));
  }

  // Moves cards on the drawn board only, judging nothing: the card (and what lies on it) to the
  // named pile, or the stock's next cards onto the piles a deal fills.  The server's replay
  // replaces this board as soon as it answers.
  function moveLocally(text) {
    var b = current.board;
    if (text === "deal") {
      if (b.reserve.length && b.stock.length <= 2) {
        b.exposed = b.exposed.concat(b.stock.splice(0).map(function (c) { return [c]; }));
        return true;
      }
      var targets = b.reserve.length ? b.reserve : b.tableau;
      for (var i = 0; i < targets.length && b.stock.length; i++) { targets[i].push(b.stock.shift()); }
      return true;
    }
    var parts = text.split(">"), dest = parts[1];
    var piles = named(b), found = null;
    if (piles[parts[0]]) {
      var from = piles[parts[0]];
      if (!from.length) { return true; }
      found = {pile: from, at: from.length - 1};
    } else {
      Object.keys(piles).forEach(function (name) {
        var at = piles[name].map(function (c) { return c.text; }).indexOf(parts[0]);
        if (at >= 0) { found = {pile: piles[name], at: at}; }
      });
    }
    if (!found) { return true; }  // a card not in play: the server will say which rule refuses it
    if (dest === "f") {
      // Only a top card can go home; anything else stays where it is until the server answers.
      if (found.at === found.pile.length - 1) { b.foundations[found.pile[found.at].suit] = found.pile.pop(); }
      return true;
    }
    if (piles[dest] && piles[dest] !== found.pile) {
      piles[dest].push.apply(piles[dest], found.pile.splice(found.at));
    }
    return true;
  }

  function named(b) {
    var out = {};
    b.tableau.forEach(function (p, i) { out["t" + (i + 1)] = p; });
    b.reserve.forEach(function (p, i) { out["r" + (i + 1)] = p; });
    b.exposed.forEach(function (p, i) { out["x" + (i + 1)] = p; });
    return out;
  }

  // The connection is back: the line played offline is replayed; the first move it refuses (if
  // any) is shown with its rule and ends that try, and play goes on from before it.
  function recheck() {
    if (!current || !current.unchecked || current.busy) { return; }
    current.busy = true;
    replay(current.line).then(function (answer) {
      current.busy = false;
      if (answer) { settle(answer, current.line); }
    }, function () { current.busy = false; });
  }

  function settle(answer, line) {
    current.unchecked = 0;
    if (current.finished) {
      // Handed in offline: the queued line brings the server's verdict; only the board is redrawn.
      current.board = board(answer.position);
      renderBoard();
      return;
    }
    if (answer.refused) {
      var at = answer.refused.index;
      enqueue(line.slice(0, at + 1));
      current.line = line.slice(0, at);
      current.board = board(answer.position);
      renderBoard();
      tellRefusal(answer.refused, say("back_online_refused", {move: answer.refused.move}), say("refused_sent"));
      return;
    }
    current.line = line;
    accept(answer, null);
    if (!current.finished) { tell("played", say("back_online")); }
  }

  function undo() {
    if (!current || current.busy) { return; }
    current.selected = null;
    current.finished = false;
    if (current.line.length) { current.line.pop(); }
    rebuild(say("undone"));
  }

  function restart() {
    if (!current || current.busy) { return; }
    current.selected = null;
    current.finished = false;
    current.line = [];
    rebuild(say("restarted"));
  }

  // The board for the line as it now stands: the start, or the server's replay of it; with no
  // connection, the start with the line's moves put on it unjudged.
  function rebuild(message) {
    var line = current.line.slice();
    if (!line.length) {
      current.board = board(current.puzzle.position);
      current.unchecked = 0;
      renderBoard();
      tell("", message);
      return;
    }
    current.busy = true;
    replay(line).then(function (answer) {
      current.busy = false;
      if (!answer) { return; }
      if (answer.refused) { settle(answer, line); return; }
      current.unchecked = 0;
      current.board = board(answer.position);
      renderBoard();
      tell("", message);
    }, function () {
      current.busy = false;
      current.board = board(current.puzzle.position);
      line.forEach(moveLocally);
      current.unchecked = line.length;
      renderBoard();
      tell("unchecked", message);
    });
  }

  function submit() {
    if (!current || current.busy || current.finished) { return; }
    if (!current.line.length) { tell("", say("submit_empty")); return; }
    var offline = current.unchecked > 0 || !navigator.onLine;
    finish();
    tell("submitted", offline ? say("offline_submit") : say("handed_in"));
  }

  // ---- start ---------------------------------------------------------------------------------

  function ready() {
    applyLanguage(lang);
    $("[data-join-form]").addEventListener("submit", join);
    $("[data-leave]").addEventListener("click", function () {
      if (window.confirm(say("leave_confirm"))) { forget(""); }
    });
    $("[data-back]").addEventListener("click", function () { current = null; show("home"); loadHome(); });
    $("[data-board]").addEventListener("click", boardClicked);
    $("[data-move-form]").addEventListener("submit", typed);
    $("[data-undo]").addEventListener("click", undo);
    $("[data-restart]").addEventListener("click", restart);
    $("[data-submit]").addEventListener("click", submit);
    $("[data-next]").addEventListener("click", function () {
      var next = current && nextPuzzle();
      if (next) { openPuzzle(next.assignment, next.puzzle, next.index); }
    });
    window.addEventListener("online", function () { flush(); recheck(); });
    window.addEventListener("offline", function () { setOnline(false); });
    // The online event is not the only way back (a server restarted, a Wi-Fi that never
    // dropped the link): the queue is retried on a timer too.
    setInterval(function () { flush(); recheck(); }, RETRY_MS);
    showPending();
    if (token) { start(); } else { joinView(""); }
    document.documentElement.setAttribute("data-classroom", "ready");
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
})();
