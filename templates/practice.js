/* Practice puzzles.  This script decides nothing about the rules: every legal move, every
   verdict and every refusal was computed by the engine and the solver when the page was built,
   and is looked up here in the embedded data (see agnes_teach/render/practice.py).

   A stored state may hold its piles in another order than the learner's board (states that
   differ only so are stored once): each step of the history keeps, beside the stored state, its
   view, where each pile of the board lies in the stored state.  Moves, refusals and the typed
   t1>t2 leads are looked up through the view, and a move that reaches a state stored with its
   piles reordered carries the reordering, so every card stays in the pile the learner put it in. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("practice-data").textContent);
  var UI = DATA.ui, CARDS = DATA.cards, MSG = DATA.messages, RULES = DATA.rules;
  var ALPH = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  var DIG = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  var RANKS = {A: 1, T: 10, J: 11, Q: 12, K: 13};
  var SUITS = {S: 0, H: 1, D: 2, C: 3, "\u2660": 0, "\u2665": 1, "\u2666": 2, "\u2663": 3};

  var AGREE = CARDS.agree ? new RegExp(CARDS.agree.pattern, "g") : null;
  function fill(text, fields) {
    var out = text.replace(/\{([a-z0-9_]+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : all;
    });
    // The article takes the gender of the card filled in (Spanish «la J♠»): i18n.agree.
    return AGREE ? out.replace(AGREE, function (all, article, space) { return CARDS.agree.articles[article] + space; }) : out;
  }
  function num(text) {
    var n = 0;
    for (var i = 0; i < text.length; i++) { n = n * DIG.length + DIG.indexOf(text[i]); }
    return n;
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) { if (attrs[key] !== null) { node.setAttribute(key, attrs[key]); } }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function Puzzle(root, data, graph) {
    this.root = root;
    this.data = data;
    this.g = graph;
    // The graph numbers its refusals among its own; data.msgs gives each one's number among the page's
    // messages (so a puzzle's packed graph is the same on any page, and kept from build to build).
    var msgs = data.msgs;
    graph.patterns = graph.patterns.map(function (p) {
      return p.map(function (m, k) { return k === 0 || m < 0 ? m : msgs[m]; });
    });
    graph.deal = graph.deal.map(function (m) { return m < 0 ? m : msgs[m]; });
    this.piles = data.dests.length - 1;
    // Where each state's moves start in the lists of all moves (graph.to, graph.relabel).
    this.first = [0];
    for (var i = 0; i < graph.codes.length; i++) { this.first.push(this.first[i] + graph.codes[i].length / 2); }
    // Why each move from a winnable state into a lost one loses (the answer key's reason), by move number.
    this.losing = {};
    for (var n = 0; n < graph.losing.length; n++) { this.losing[graph.losing[n][0]] = graph.losing[n][1]; }
    var identity = [];
    for (var p = 0; p < this.piles; p++) { identity.push(p); }
    this.history = [{i: 0, v: identity}];
    this.selected = null;
    this.board = root.querySelector("[data-board]");
    this.feedback = root.querySelector("[data-feedback]");
    this.input = root.querySelector("[data-move]");
    var self = this;
    root.querySelector("[data-move-form]").addEventListener("submit", function (event) {
      event.preventDefault();
      self.typed(self.input.value);
    });
    root.querySelector("[data-undo]").addEventListener("click", function () { self.undo(); });
    root.querySelector("[data-restart]").addEventListener("click", function () { self.restart(); });
    root.querySelector("[data-why]").addEventListener("click", function () { self.why(); });
    this.board.addEventListener("click", function (event) { self.clicked(event); });
    this.render();
  }

  // The current step: the stored state `i` and the view `v` (board pile -> stored pile).
  Puzzle.prototype.state = function () { return this.history[this.history.length - 1]; };

  Puzzle.prototype.layout = function (st) {
    var parts = this.g.layout[st.i].split("|");
    var stored = parts[0].split(",").map(function (p) {
      return p.split("").map(function (ch) { return ALPH.indexOf(ch); });
    });
    return {
      piles: st.v.map(function (q) { return stored[q]; }),
      found: parts[1].split("").map(function (ch) { return DIG.indexOf(ch); }),
      stock: parts[2].length,
      stockCards: parts[2].split("").map(function (ch) { return ALPH.indexOf(ch); })
    };
  };

  Puzzle.prototype.foundationTop = function (suit, count) {
    if (!count) { return -1; }
    var base = RANKS[this.data.base] || parseInt(this.data.base, 10);
    var rank = (base - 1 + count - 1) % 13 + 1;
    return suit * 13 + rank - 1;
  };

  Puzzle.prototype.isDone = function (st) {
    return this.layout(st).found.every(function (n) { return n === 13; });
  };

  // Where a card lies in the current layout: the index of its destination name, or 0 (foundation / stock).
  Puzzle.prototype.pileOf = function (card) {
    var lay = this.layout(this.state());
    for (var i = 0; i < lay.piles.length; i++) {
      if (lay.piles[i].indexOf(card) >= 0) { return i + 1; }
    }
    return 0;
  };

  Puzzle.prototype.pattern = function (card) {
    var w = this.g.width, st = this.state();
    return this.g.patterns[num(this.g.refusals[st.i].substr(card * w, w))];
  };

  // A destination of the board (0: the foundation, 1..: dests[1..]) as the stored state numbers it.
  Puzzle.prototype.storedDest = function (st, dest) { return dest > 0 ? 1 + st.v[dest - 1] : dest; };
  Puzzle.prototype.boardDest = function (st, stored) { return stored > 0 ? 1 + st.v.indexOf(stored - 1) : stored; };

  // The message number of the engine's refusal of card -> board destination.
  Puzzle.prototype.refusalOf = function (card, dest) {
    return this.pattern(card)[1 + this.storedDest(this.state(), dest)];
  };

  // The moves of a stored state: per move its code, the state it leads to, its reordering (0: none).
  Puzzle.prototype.moves = function (i) {
    var g = this.g, codes = g.codes[i], rw = g.relabel_width, out = [];
    for (var k = 0, at = this.first[i]; 2 * k < codes.length; k++, at++) {
      out.push({code: codes.substr(2 * k, 2), to: i + g.to[at], relabel: num(g.relabel.substr(at * rw, rw))});
    }
    return out;
  };

  // The cards that went home by themselves after move k of stored state i.
  Puzzle.prototype.autoCards = function (i, k) {
    var list = this.g.auto.length ? this.g.auto[i] : "";
    var items = list ? list.split(",") : [];
    for (var n = 0; n < items.length; n++) {
      var parts = items[n].split("=");
      if (parseInt(parts[0], 10) === k) { return parts[1].split("").map(function (ch) { return ALPH.indexOf(ch); }); }
    }
    return [];
  };

  // The step after taking move `move` (k-th of its state) from step `st`.
  Puzzle.prototype.after = function (st, move) {
    if (!move.relabel) { return {i: move.to, v: st.v}; }
    var order = this.g.relabels[move.relabel - 1];
    return {i: move.to, v: st.v.map(function (q) { return order[q]; })};
  };

  Puzzle.prototype.moveText = function (card, dest) {
    // The language's letters (Т♣>f in Russian), as the sentence around it names the card.
    return card < 0 ? "deal" : CARDS.shown[card] + ">" + this.data.dests[dest];
  };

  Puzzle.prototype.render = function () {
    var st = this.state(), lay = this.layout(st), d = this.data, self = this;
    var board = this.board;
    board.textContent = "";
    var top = el("div", {"class": "row top"}), L = d.labels;
    // The foundations under one caption with the base rank, as the worksheet's diagram has them.
    var founds = el("div", {"class": "foundations"});
    founds.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"}, L.foundations));
    var slots = el("div", {"class": "row", "role": "group", "aria-label": L.foundations});
    for (var s = 0; s < 4; s++) {
      var slot = el("div", {"class": "pile foundation", "role": "group", "aria-label": UI.foundation,
                            "data-dest": "0"});
      var topCard = this.foundationTop(s, lay.found[s]);
      if (topCard >= 0) {
        slot.appendChild(this.cardButton(topCard, false));
        slot.appendChild(el("span", {"class": "count", "aria-hidden": "true"}, lay.found[s] + "/13"));
      } else {
        slot.appendChild(el("button", {"type": "button", "class": "slot first" + (CARDS.red[s * 13] ? " red" : ""),
                                       "data-dest": "0", "aria-label": L.first_words[s]}, L.first[s]));
      }
      slots.appendChild(slot);
    }
    founds.appendChild(slots);
    top.appendChild(founds);
    // The stock: its count, face down (or only the count when its cards are shown below).
    var stock = el("div", {"class": "pile stock", "role": "group", "aria-label": L.stock});
    stock.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"}, L.stock));
    var faceDown = lay.stock && !d.stock_shown;
    stock.appendChild(el("button", {"type": "button", "class": "slot" + (faceDown ? " stock-button" : ""),
                                    "data-deal": "",
                                    "aria-label": L.stock_words[lay.stock] + (lay.stock ? ", " + L.stock_state : "") +
                                                  ". " + fill(UI.deal_label, {n: String(lay.stock)})},
                         String(lay.stock)));
    if (lay.stock) { stock.appendChild(el("span", {"class": "stock-state", "aria-hidden": "true"}, L.stock_state)); }
    top.appendChild(stock);
    var names = d.dests;
    for (var x = 0; x < d.exposed; x++) {
      top.appendChild(this.pileBox(1 + d.columns + d.reserve + x, lay, names, false));
    }
    board.appendChild(top);
    var columns = el("div", {"class": "row columns"});
    for (var t = 0; t < d.columns; t++) { columns.appendChild(this.pileBox(1 + t, lay, names, true)); }
    board.appendChild(columns);
    var reserve = el("div", {"class": "row reserve"});
    for (var r = 0; r < d.reserve; r++) { reserve.appendChild(this.pileBox(1 + d.columns + r, lay, names, true)); }
    board.appendChild(reserve);
    if (d.stock_shown && lay.stockCards.length) {
      // The scenario shows its stock in order (stock_shown: true): the cards face up, not playable.
      var shown = el("div", {"class": "row stock-shown", "role": "group", "aria-label": UI.stock_face_up});
      shown.appendChild(el("p", {"class": "stock-note"}, UI.stock_face_up));
      lay.stockCards.forEach(function (c) {
        shown.appendChild(el("span", {"class": "card" + (CARDS.red[c] ? " red" : ""), "role": "img",
                                      "aria-label": CARDS.words[c]}, CARDS.shown[c]));
      });
      board.appendChild(shown);
    }
    this.root.querySelector("[data-undo]").disabled = this.history.length < 2;
    var home = lay.found.reduce(function (a, b) { return a + b; }, 0);
    this.root.querySelector("[data-progress]").textContent = fill(UI.progress, {n: String(home)});
    if (self.selected !== null) {
      var chosen = board.querySelector('[data-card="' + self.selected + '"]');
      if (chosen) { chosen.setAttribute("aria-pressed", "true"); chosen.classList.add("selected"); }
    }
  };

  Puzzle.prototype.pileBox = function (dest, lay, names, fanned) {
    var name = names[dest], kind = name[0], number = name.slice(1);
    var label = fill(UI.pile[kind], {n: number});
    var box = el("div", {"class": "pile " + (fanned ? "fanned " : "") + "kind-" + kind, "role": "group",
                         "aria-label": label, "data-dest": String(dest)});
    box.appendChild(el("span", {"class": "pile-name", "aria-hidden": "true"}, name));
    var pile = lay.piles[dest - 1];
    if (!pile.length) {
      box.appendChild(el("button", {"type": "button", "class": "slot", "data-dest": String(dest),
                                    "aria-label": fill(UI.empty_pile, {pile: label})}, ""));
    }
    for (var i = 0; i < pile.length; i++) {
      box.appendChild(this.cardButton(pile[i], kind === "r" && i < pile.length - 1));
    }
    return box;
  };

  Puzzle.prototype.cardButton = function (card, covered) {
    // The name starts with what the button shows (K♥), then says it in words.
    var words = CARDS.shown[card] + ", " + (covered ? fill(UI.covered, {card: CARDS.words[card]}) : CARDS.words[card]);
    return el("button", {"type": "button", "class": "card" + (CARDS.red[card] ? " red" : "") +
                         (covered ? " covered" : ""), "data-card": String(card), "aria-label": words,
                         "aria-pressed": "false"}, CARDS.shown[card]);
  };

  Puzzle.prototype.clicked = function (event) {
    var target = event.target.closest("button");
    if (!target || !this.board.contains(target)) { return; }
    if (target.hasAttribute("data-deal")) { this.selected = null; this.play(-1, -1); return; }
    var destBox = target.closest("[data-dest]");
    var dest = destBox ? parseInt(destBox.getAttribute("data-dest"), 10) : -1;
    if (this.selected === null) {
      if (!target.hasAttribute("data-card")) { return; }
      var card = parseInt(target.getAttribute("data-card"), 10);
      var pattern = this.pattern(card);
      if (!pattern[0]) {
        // Not free to pick up: the rule that holds it where it is.
        var own = this.pileOf(card);
        var other = 1;
        while (other === own && other < this.data.columns) { other++; }
        this.refuse(this.refusalOf(card, other), this.moveText(card, other),
                    fill(UI.not_free, {card: CARDS.shown[card]}), this.facts(card, other));
        return;
      }
      this.selected = card;
      this.render();
      this.say("", fill(UI.selected, {card: CARDS.shown[card]}));
      return;
    }
    var chosen = this.selected;
    this.selected = null;
    if (target.hasAttribute("data-card") && parseInt(target.getAttribute("data-card"), 10) === chosen) {
      this.render();
      this.say("", UI.deselected);
      return;
    }
    if (dest < 0) { this.render(); return; }
    this.play(chosen, dest);
  };

  // A move by card and destination index (card -1: deal): looked up, never decided here.
  Puzzle.prototype.play = function (card, dest) {
    var st = this.state();
    var key = card < 0 ? "**" : ALPH[card] + DIG[this.storedDest(st, dest)];
    var text = this.moveText(card, dest);
    var moves = this.moves(st.i);
    for (var k = 0; k < moves.length; k++) {
      if (moves[k].code === key) {
        var step = this.after(st, moves[k]);
        step.move = this.first[st.i] + k;
        step.text = text;
        this.history.push(step);
        this.render();
        var next = this.state(), home = this.autoCards(st.i, k);
        var went = home.length ? " " + fill(UI.auto_went, {cards: home.map(function (c) { return CARDS.shown[c]; }).join(", ")}) : "";
        if (this.isDone(next)) { this.say("won", fill(UI.solved, {move: text}) + went); }
        else if (this.g.winnable[next.i] === "1") { this.say("won", fill(UI.keeps, {move: text}) + went); }
        else { this.say("lost", fill(UI.loses, {move: text}) + went); }
        return;
      }
    }
    this.render();
    if (card < 0) { this.refuse(this.g.deal[st.i], text, null, {dest: "deal"}); }
    else { this.refuse(this.refusalOf(card, dest), text, null, this.facts(card, dest)); }
  };

  // What a card's refusal leaves for the board to say (practice.page_refusal_key): the card, the
  // destination the learner named and the card on top of it.
  Puzzle.prototype.facts = function (card, dest) {
    var out = {card: CARDS.shown[card], dest: this.data.dests[dest]};
    if (dest > 0) {
      var pile = this.layout(this.state()).piles[dest - 1];
      if (pile.length) { out.target = CARDS.shown[pile[pile.length - 1]]; }
    }
    return out;
  };

  // A refusal: its message (with the facts the board knows filled in) and its rule's link.
  Puzzle.prototype.refuse = function (messageIndex, text, headline, facts) {
    var message = MSG[messageIndex], rule = message[0], info = RULES[rule];
    var words = fill(message[1], facts);
    this.feedback.textContent = "";
    this.feedback.setAttribute("data-verdict", "refused");
    this.feedback.setAttribute("data-rule", rule);
    this.feedback.appendChild(el("strong", {}, (headline || fill(UI.refused, {move: text})) + " "));
    // The checker's sentence as it prints it; a full stop before the rule's link where it has none.
    this.feedback.appendChild(document.createTextNode(words + (/[.!?\u2026]$/.test(words) ? " " : ". ")));
    if (info) { this.feedback.appendChild(el("a", {"href": info.href}, fill(UI.rule_link, {title: info.title}))); }
    this.shown();
  };

  Puzzle.prototype.say = function (verdict, text) {
    this.feedback.textContent = text;
    this.feedback.setAttribute("data-verdict", verdict);
    this.feedback.removeAttribute("data-rule");
    this.shown();
  };

  Puzzle.prototype.plain = function (text) { this.say("", text); };

  // The answer sits in an aria-live region (read out as it changes); on a phone the tap that
  // asked may have left it below the fold, so it is brought into view, moving the page no more
  // than needed.
  Puzzle.prototype.shown = function () {
    if (this.feedback.scrollIntoView) { this.feedback.scrollIntoView({block: "nearest"}); }
  };

  Puzzle.prototype.typed = function (raw) {
    var text = raw.trim();
    if (!text) { return; }
    this.selected = null;
    if (text.toLowerCase() === "deal") { this.play(-1, -1); return; }
    var parts = text.split(/\s*(?:->|>|\u2192)\s*/);
    if (parts.length !== 2 || !parts[0] || !parts[1]) { this.render(); this.plain(fill(UI.not_a_move, {text: text})); return; }
    var dests = this.data.dests, destName = parts[1].toLowerCase();
    if (!/^(f|[trx][1-9][0-9]?)$/.test(destName)) { this.render(); this.plain(fill(UI.not_a_move, {text: text})); return; }
    var dest = dests.indexOf(destName);
    var left = parts[0].toLowerCase();
    if (left === "f") { this.render(); this.plain(fill(UI.not_a_move, {text: text})); return; }
    var card;
    if (/^[trx][1-9][0-9]?$/.test(left)) {
      var source = dests.indexOf(left);
      if (source < 0) { this.render(); this.refuse(this.data.nopile[left], text, null, {dest: left}); return; }
      var lay = this.layout(this.state());
      var pile = lay.piles[source - 1];
      if (!pile.length) {
        this.render();
        if (dest < 0) { this.refuse(this.data.nopile[destName], text, null, {dest: destName}); }
        else { this.refuse(this.data.empty[left][dest], text, null, {dest: destName}); }
        return;
      }
      if (left[0] === "t" && destName[0] === "t" && dest > 0) {
        var n = this.data.columns;
        var ch = this.leadCard(source - 1, dest - 1);
        if (ch === "?") { this.render(); this.plain(fill(UI.ambiguous, {text: text})); return; }
        card = ALPH.indexOf(ch);
      } else {
        card = pile[pile.length - 1];
      }
    } else {
      card = this.parseCard(parts[0]);
      if (card < 0) { this.render(); this.plain(fill(UI.not_a_move, {text: text})); return; }
    }
    if (dest < 0) { this.render(); this.refuse(this.data.nopile[destName], text, null, {dest: destName}); return; }
    this.input.value = "";
    this.play(card, dest);
  };

  // Which card engine.resolve chose for "t<source>>t<dest>" (see typed_leads in practice.py), for
  // columns of the board: their places in the stored state.
  Puzzle.prototype.leadCard = function (column, other) {
    var st = this.state(), t = this.g.leads[st.i], pos = 0, n = this.data.columns;
    var source = st.v[column], dest = st.v[other];
    for (var i = 0; i < n; i++) {
      var row;
      if (t[pos] === "(") { row = t.substr(pos + 1, n); pos += n + 2; }
      else { row = t[pos]; pos += 1; }
      if (i === source) { return row.length === 1 ? row : row[dest]; }
    }
    return "-";
  };

  Puzzle.prototype.parseCard = function (text) {
    var raw = text.replace(/\s+/g, "").toUpperCase();
    if (raw.length < 2) { return -1; }
    var suit = SUITS[raw[raw.length - 1]], rankText = raw.slice(0, -1), rank;
    if (suit === undefined) { return -1; }
    if (RANKS[rankText]) { rank = RANKS[rankText]; }
    else if (CARDS.typed && CARDS.typed[rankText]) { rank = CARDS.typed[rankText]; }
    else if (/^([2-9]|10)$/.test(rankText)) { rank = parseInt(rankText, 10); }
    else { return -1; }
    return suit * 13 + rank - 1;
  };

  Puzzle.prototype.undo = function () {
    this.selected = null;
    if (this.history.length > 1) { this.history.pop(); }
    this.render();
    this.plain(UI.undone);
  };

  Puzzle.prototype.restart = function () {
    this.selected = null;
    this.history = [this.history[0]];
    this.render();
    this.plain(UI.restarted);
  };

  // A pile a reason names, as the stored state of step `st` numbers it, under its name on the board.
  Puzzle.prototype.boardPile = function (st, name) {
    var stored = this.data.dests.indexOf(name);
    return stored > 0 ? this.data.dests[this.boardDest(st, stored)] : name;
  };

  // The move of the history that lost the game, with the answer key's reason, or null.
  Puzzle.prototype.lostBy = function () {
    for (var h = this.history.length - 1; h > 0; h--) {
      var before = this.history[h - 1], step = this.history[h];
      if (this.g.winnable[before.i] === "1" && this.g.winnable[step.i] === "0") {
        var reason = this.g.reasons[this.losing[step.move]], piles = {}, self = this;
        if (!reason) { return null; }
        // The piles the key's sentence names, as the learner's board numbers them ({pile0}, {pile1}, ...).
        reason[1].forEach(function (pile, n) { piles["pile" + n] = self.boardPile(before, pile); });
        return fill(UI.why_lost, {move: step.text, why: fill(reason[0], piles)});
      }
    }
    return null;
  };

  // The line the build found from here: a shortest win, or a way into a dead end; after a losing
  // move, first why that move loses, in the answer key's words.
  Puzzle.prototype.why = function () {
    var st = this.state(), steps = [], seen = {}, at = st, self = this;
    if (this.isDone(this.state())) { this.plain(UI.already_won); return; }
    while (this.g.line[at.i] >= 0 && !seen[at.i] && steps.length < 60) {
      seen[at.i] = true;
      var k = this.g.line[at.i], move = this.moves(at.i)[k], key = move.code;
      steps.push(key === "**" ? "deal" : this.moveText(ALPH.indexOf(key[0]), this.boardDest(at, DIG.indexOf(key[1]))));
      this.autoCards(at.i, k).forEach(function (c) { steps.push(self.moveText(c, 0)); });
      at = this.after(at, move);
    }
    var lost = this.g.winnable[st.i] === "1" ? null : this.lostBy();
    if (this.g.winnable[st.i] === "1") { this.plain(fill(UI.hint, {moves: steps.join(", ")})); }
    else if (lost) { this.plain(lost + (steps.length ? " " + fill(UI.refutation, {moves: steps.join(", ")}) : "")); }
    else if (steps.length) { this.plain(fill(UI.refutation, {moves: steps.join(", ")})); }
    else if (!this.g.codes[st.i].length) { this.plain(UI.stuck); }
    else { this.plain(UI.circles); }
  };

  // A puzzle's graph, packed at build time (JSON, gzip, base64): inflated by the browser itself.
  function inflate(text) {
    var bytes = Uint8Array.from(atob(text), function (ch) { return ch.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function start(root, data) {
    return inflate(data.graph).then(function (graph) { root.practice = new Puzzle(root, data, graph); });
  }

  var puzzles = DATA.puzzles, ready = Promise.resolve();
  puzzles.forEach(function (data) {
    var root = document.querySelector('[data-puzzle="' + CSS.escape(data.id) + '"]');
    if (!root) { return; }
    if (typeof DecompressionStream === "undefined") {
      root.querySelector("[data-feedback]").textContent = UI.no_inflate;
      return;
    }
    ready = ready.then(function () { return start(root, data); });
  });
  ready.then(function () { document.documentElement.setAttribute("data-practice", "ready"); });
})();
