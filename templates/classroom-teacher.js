/* The teacher's dashboard of the classroom server.

   The address carries the teacher's token and the class in its fragment
   (/teacher#token=TOKEN&class=ID), which the browser never sends to the server; the page sends the
   token in the Authorization header.  Every figure shown is the server's report; the page only
   adds figures up (the rules the class misreads most) and lays them out.  Names and titles typed
   by pupils and teachers are set as text (textContent), never as markup. */
(function () {
  "use strict";
  var T = window.ClassroomText;
  var LANG_KEY = "agnes-classroom:teacher-lang";
  var REFRESH_MS = 5000;
  var WEAKEST_SHOWN = 5;
  var TIMEOUT_MS = 15000;  // an unanswered request counts as "the server cannot be reached"

  var lang = localStorage.getItem(LANG_KEY) || T.guess();
  var token = null, classId = null;
  var classes = [], library = null, assignments = [], report = null, updated = null;
  var refreshTimer = null;

  function $(selector) { return document.querySelector(selector); }
  function say(key, fields) { return T.say(lang, key, fields); }
  var el = window.classroomElement;
  function link(fields) {
    var params = new URLSearchParams();
    params.set("token", token);
    if (fields && fields.class) { params.set("class", fields.class); }
    return "#" + params.toString();
  }

  // ---- the server ----------------------------------------------------------------------------

  function api(method, path, body) {
    // No answer is status 0: the dashboard says the server cannot be reached and tries again.
    return window.classroomRequest(method, path, body, token, TIMEOUT_MS).catch(function () {
      return {status: 0, data: null};
    });
  }


  function problem(answer) {
    if (answer.status === 0) { return say("network_failed"); }
    if (answer.status === 401) { return say("token_bad"); }
    if (answer.status === 403) { return say("forbidden"); }
    if (answer.status === 404) { return say("not_found"); }
    var data = answer.data || {};
    return say("request_failed", {status: answer.status, message: data.message || data.error || data.detail || ""});
  }

  // ---- language ------------------------------------------------------------------------------

  function applyLanguage(code) {
    lang = T.table[code] ? code : "en";
    localStorage.setItem(LANG_KEY, lang);
    document.documentElement.lang = lang;
    document.title = say("teacher_title");
    Array.prototype.forEach.call(document.querySelectorAll("[data-text]"), function (node) {
      node.textContent = say(node.getAttribute("data-text"));
    });
    var nav = $("[data-languages]");
    nav.setAttribute("aria-label", say("language"));
    nav.textContent = "";
    T.languages.forEach(function (code) {
      var button = el("button", {"type": "button", "lang": code, "data-lang": code,
                                 "aria-pressed": code === lang ? "true" : "false"}, T.table[code].lang_name);
      button.addEventListener("click", function () { applyLanguage(code); });
      nav.appendChild(button);
    });
    if (library && library.lang !== lang) { library = null; loadLibrary(); }
    var select = $("[data-class-lang]"), chosen = select.value || lang;
    select.textContent = "";
    T.languages.forEach(function (code) {
      var option = el("option", {"value": code, "lang": code}, T.table[code].lang_name);
      if (code === chosen) { option.selected = true; }
      select.appendChild(option);
    });
    redraw();
  }

  function redraw() {
    renderClasses();
    renderClass();
    renderLibrary();
    renderAssignments();
    renderReport();
  }

  // ---- where the page is ---------------------------------------------------------------------

  function show(view) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-view]"), function (node) {
      node.hidden = node.getAttribute("data-view") !== view;
    });
    if (refreshTimer) { clearInterval(refreshTimer); refreshTimer = null; }
    if (view === "class") { refreshTimer = setInterval(loadReport, REFRESH_MS); }
  }

  function route() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    token = params.get("token");
    classId = params.get("class");
    report = null;
    assignments = [];
    if (!token) { show("token"); return; }
    if (!classId) { show("classes"); loadClasses(); return; }
    show("class");
    loadClasses();
    loadLibrary();
    loadAssignments();
    loadReport();
  }

  function signIn(event) {
    event.preventDefault();
    var value = $("#token-input").value.trim();
    if (!value) { return; }
    $("#token-input").value = "";
    token = value;
    location.hash = link();
  }

  function tokenRefused(answer) {
    if (answer.status !== 401) { return false; }
    show("token");
    $("[data-token-message]").textContent = say("token_bad");
    return true;
  }

  // ---- classes -------------------------------------------------------------------------------

  function loadClasses() {
    return api("GET", "/api/classes").then(function (answer) {
      if (tokenRefused(answer)) { return; }
      if (answer.status !== 200) { $("[data-class-message]").textContent = problem(answer); return; }
      classes = answer.data || [];
      renderClasses();
      renderClass();
    });
  }

  function renderClasses() {
    var box = $("[data-classes]");
    box.textContent = "";
    if (!classes.length) { box.appendChild(el("p", {}, say("no_classes"))); return; }
    var table = el("table", {});
    var head = el("tr", {});
    ["class_name", "class_code", "class_lang", "class_pupils", "open"].forEach(function (key) {
      head.appendChild(el("th", {"scope": "col"}, say(key)));
    });
    table.appendChild(el("thead", {})).appendChild(head);
    var body = el("tbody", {});
    classes.forEach(function (c) {
      var row = el("tr", {"data-class-row": c.id});
      // The name opens the class too: on a phone the last column may lie beyond the screen.
      row.appendChild(el("th", {"scope": "row"})).appendChild(el("a", {"href": link({"class": c.id})}, c.name));
      row.appendChild(el("td", {}, c.code)).classList.add("code");
      row.appendChild(el("td", {}, T.table[c.lang] ? T.table[c.lang].lang_name : c.lang));
      row.appendChild(el("td", {"class": "number"}, c.pupils));
      var cell = el("td", {});
      cell.appendChild(el("a", {"href": link({"class": c.id})}, say("open")));
      row.appendChild(cell);
      body.appendChild(row);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  function createClass(event) {
    event.preventDefault();
    var name = $("#class-name").value.trim(), out = $("[data-class-message]");
    if (!name) { out.textContent = say("create_class_name"); return; }
    api("POST", "/api/classes", {name: name, lang: $("[data-class-lang]").value}).then(function (answer) {
      if (tokenRefused(answer)) { return; }
      if (answer.status !== 201 || !answer.data) { out.textContent = problem(answer); return; }
      out.textContent = "";
      $("#class-name").value = "";
      $("[data-created]").hidden = false;
      $("[data-created-code]").textContent = answer.data.code;
      $("[data-created-open]").setAttribute("href", link({"class": answer.data.id}));
      loadClasses();
    });
  }

  function currentClass() {
    for (var i = 0; i < classes.length; i++) { if (classes[i].id === classId) { return classes[i]; } }
    return null;
  }

  function renderClass() {
    $("[data-all-classes]").setAttribute("href", link());
    var c = currentClass();
    $("[data-class-title]").textContent = c ? c.name : "";
    $("[data-class-code]").textContent = c ? c.code : "";
  }

  // ---- assignments ---------------------------------------------------------------------------

  // The library with its rule titles in the dashboard's language.
  function loadLibrary() {
    if (library) { renderLibrary(); return; }
    if (!token || !classId) { return; }
    var asked = lang;
    api("GET", "/api/library?lang=" + encodeURIComponent(asked)).then(function (answer) {
      if (tokenRefused(answer)) { return; }
      if (answer.status !== 200) { $("[data-assignment-message]").textContent = problem(answer); return; }
      // The language changed while this answer was on its way: ask again in the one shown now.
      if (asked !== lang) { loadLibrary(); return; }
      library = answer.data;
      library.lang = asked;
      renderLibrary();
      renderReport();
    });
  }

  // The games an assignment by theme may draw from, each with its themes (Bernauer first).
  function games() {
    if (!library) { return []; }
    return library.games || [{profile: "bernauer", name: "", themes: library.themes}];
  }

  // A rule's title as the library names it (the themes of any game), else its id.
  function ruleTitle(rule) {
    var lists = library ? [library.themes].concat(games().map(function (g) { return g.themes; })) : [];
    for (var j = 0; j < lists.length; j++) {
      var themes = lists[j] || [];
      for (var i = 0; i < themes.length; i++) { if (themes[i].theme === rule && themes[i].title) { return themes[i].title; } }
    }
    return rule;
  }

  function ruleCell(rule) {
    var node = el("td", {});
    var title = ruleTitle(rule);
    if (title !== rule) { node.appendChild(document.createTextNode(title + " ")); }
    node.appendChild(el("code", {}, rule));
    return node;
  }

  function renderLibrary() {
    if (!library) { return; }
    var gameSelect = $("[data-game-select]"), chosenGame = gameSelect.value;
    gameSelect.textContent = "";
    games().forEach(function (g) {
      var option = el("option", {"value": g.profile}, g.name || g.profile);
      if (g.profile === chosenGame) { option.selected = true; }
      gameSelect.appendChild(option);
    });
    renderThemes();
    var puzzles = $("[data-puzzle-select]");
    var chosen = Array.prototype.map.call(puzzles.selectedOptions, function (o) { return o.value; });
    puzzles.textContent = "";
    library.puzzles.forEach(function (p) {
      var option = el("option", {"value": p.id}, say("puzzle_option", {id: p.id, theme: p.theme, difficulty: p.difficulty}));
      if (chosen.indexOf(p.id) >= 0) { option.selected = true; }
      puzzles.appendChild(option);
    });
  }

  // The themes of the game chosen, each with how many puzzles it has.
  function renderThemes() {
    var chosenGame = $("[data-game-select]").value;
    var game = games().filter(function (g) { return g.profile === chosenGame; })[0] || games()[0];
    var themes = $("[data-theme-select]"), chosenTheme = themes.value;
    themes.textContent = "";
    (game ? game.themes : []).forEach(function (t) {
      var option = el("option", {"value": t.theme}, say("theme_option", {title: t.title || t.theme, count: t.count}));
      if (t.theme === chosenTheme) { option.selected = true; }
      themes.appendChild(option);
    });
  }

  function loadAssignments() {
    api("GET", "/api/classes/" + encodeURIComponent(classId) + "/assignments").then(function (answer) {
      if (tokenRefused(answer)) { return; }
      if (answer.status !== 200) { $("[data-assignment-message]").textContent = problem(answer); return; }
      assignments = answer.data || [];
      renderAssignments();
    });
  }

  function renderAssignments() {
    var box = $("[data-assignment-list]");
    box.textContent = "";
    if (!assignments.length) { box.appendChild(el("p", {}, say("no_assignments_teacher"))); return; }
    var table = el("table", {});
    var head = el("tr", {});
    head.appendChild(el("th", {"scope": "col"}, say("assignment_title")));
    head.appendChild(el("th", {"scope": "col"}, say("assignment_puzzles")));
    table.appendChild(el("thead", {})).appendChild(head);
    var body = el("tbody", {});
    assignments.forEach(function (a) {
      var row = el("tr", {});
      row.appendChild(el("th", {"scope": "row"}, a.title));
      var ids = (a.puzzles || []).map(function (p) { return typeof p === "string" ? p : p.id; });
      row.appendChild(el("td", {}, ids.join(", ")));
      body.appendChild(row);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  function kindChanged() {
    var byTheme = $("#kind-theme").checked;
    $("[data-kind-theme]").hidden = !byTheme;
    $("[data-kind-choice]").hidden = byTheme;
  }

  function addAssignment(event) {
    event.preventDefault();
    var out = $("[data-assignment-message]");
    out.classList.remove("ok");
    var title = $("#assignment-title").value.trim();
    if (!title) { out.textContent = say("need_title"); return; }
    var body = {title: title};
    if ($("#kind-theme").checked) {
      body.profile = $("[data-game-select]").value || "bernauer";
      body.theme = $("[data-theme-select]").value;
      body.count = parseInt($("#assignment-count").value, 10) || 1;
    } else {
      body.puzzles = Array.prototype.map.call($("[data-puzzle-select]").selectedOptions, function (o) { return o.value; });
      if (!body.puzzles.length) { out.textContent = say("need_puzzles"); return; }
    }
    api("POST", "/api/classes/" + encodeURIComponent(classId) + "/assignments", body).then(function (answer) {
      if (tokenRefused(answer)) { return; }
      if (answer.status !== 201 || !answer.data) { out.textContent = problem(answer); return; }
      out.classList.add("ok");
      out.textContent = say("added_assignment", {n: (answer.data.puzzles || []).length});
      $("#assignment-title").value = "";
      loadAssignments();
    });
  }

  // ---- the report ----------------------------------------------------------------------------

  function loadReport() {
    if (!classId || !token) { return; }
    api("GET", "/api/classes/" + encodeURIComponent(classId) + "/report").then(function (answer) {
      if (tokenRefused(answer)) { return; }
      var out = $("[data-report-message]");
      if (answer.status !== 200 || !answer.data) { out.textContent = problem(answer); return; }
      out.textContent = "";
      report = answer.data;
      updated = new Date();
      renderReport();
    });
  }

  function number(value) {
    return typeof value === "number" ? value.toLocaleString(lang) : "\u2014";
  }

  function cell(row, value, extra) {
    var node = el("td", {"class": "number" + (extra ? " " + extra : "")}, number(value));
    row.appendChild(node);
    return node;
  }

  function table(headings, rows) {
    var node = el("table", {});
    var head = el("tr", {});
    headings.forEach(function (key) { head.appendChild(el("th", {"scope": "col"}, say(key))); });
    node.appendChild(el("thead", {})).appendChild(head);
    var body = el("tbody", {});
    rows.forEach(function (row) { body.appendChild(row); });
    node.appendChild(body);
    return node;
  }

  // A rating with its deviation, marked while it is provisional (the server says when).
  function ratingCell(item) {
    if (typeof item.rating !== "number") { return el("td", {"class": "number"}, "\u2014"); }
    var node = el("td", {"class": "number"}, Math.round(item.rating).toLocaleString(lang) + " \u00b1 " +
                  Math.round(item.deviation).toLocaleString(lang));
    if (item.provisional) { node.appendChild(el("span", {"class": "tag"}, say("provisional"))); }
    return node;
  }

  function refusedOf(pupil) {
    var by = pupil.by_rule || {};
    return Object.keys(by).reduce(function (sum, rule) { return sum + (by[rule].refused || 0); }, 0);
  }

  function renderReport() {
    var pupilsBox = $("[data-pupils]"), byRuleBox = $("[data-by-rule]"), puzzlesBox = $("[data-puzzle-report]");
    var weakest = $("[data-weakest]"), weak = $("[data-weak]");
    $("[data-updated]").textContent = updated ? say("auto_refresh", {time: updated.toLocaleTimeString(lang)}) : "";
    [pupilsBox, byRuleBox, puzzlesBox, weakest, weak].forEach(function (node) { node.textContent = ""; });
    if (!report) { return; }
    var pupils = report.pupils || [];
    if (!pupils.length) {
      pupilsBox.appendChild(el("p", {}, say("no_pupils")));
    } else {
      pupilsBox.appendChild(table(["pupil", "attempts", "solved_col", "first_try", "refused_col", "pupil_rating"],
                                  pupils.map(function (p) {
        var row = el("tr", {"data-pupil": p.pupil});
        row.appendChild(el("th", {"scope": "row", "class": "pupil-name"}, p.name));
        cell(row, p.attempts);
        cell(row, p.solved);
        cell(row, p.first_try_solved);
        var refused = refusedOf(p);
        cell(row, refused, refused ? "refused-some" : "");
        row.appendChild(ratingCell(p));
        return row;
      })));
    }
    // Per pupil and rule: the rows where something happened.
    var rows = [];
    pupils.forEach(function (p) {
      var by = p.by_rule || {};
      Object.keys(by).sort().forEach(function (rule) {
        var r = by[rule];
        var row = el("tr", {"data-pupil": p.pupil, "data-rule": rule});
        row.appendChild(el("th", {"scope": "row", "class": "pupil-name"}, p.name));
        row.appendChild(ruleCell(rule));
        cell(row, r.attempts);
        cell(row, r.solved);
        cell(row, r.first_try_solved);
        cell(row, r.refused, r.refused ? "refused-some" : "");
        rows.push(row);
      });
    });
    if (rows.length) {
      byRuleBox.appendChild(table(["pupil", "rule_col", "attempts", "solved_col", "first_try", "refused_col"], rows));
    } else {
      byRuleBox.appendChild(el("p", {}, say("no_attempts")));
    }
    // The rules the class misreads most: refused moves added up over the pupils.
    var totals = {};
    pupils.forEach(function (p) {
      var by = p.by_rule || {};
      Object.keys(by).forEach(function (rule) {
        if (!by[rule].refused) { return; }
        totals[rule] = totals[rule] || {rule: rule, refused: 0, pupils: 0};
        totals[rule].refused += by[rule].refused;
        totals[rule].pupils += 1;
      });
    });
    var ranked = Object.keys(totals).map(function (k) { return totals[k]; }).sort(function (a, b) {
      return b.refused - a.refused || b.pupils - a.pupils || (a.rule < b.rule ? -1 : 1);
    }).slice(0, WEAKEST_SHOWN);
    if (!ranked.length) { weakest.appendChild(el("li", {}, say("weakest_none"))); }
    ranked.forEach(function (t) {
      weakest.appendChild(el("li", {"data-rule": t.rule}, say("weakest_item", {title: ruleTitle(t.rule), rule: t.rule,
                                                                             refused: t.refused, pupils: t.pupils})));
    });
    // The server's weak rules: a pupil's first tries on a rule's puzzles below the pupil's rating.
    var weakRules = report.weak_rules || [];
    if (!weakRules.length) { weak.appendChild(el("li", {}, say("weak_none"))); }
    weakRules.forEach(function (w) {
      weak.appendChild(el("li", {"data-rule": w.rule}, say("weak_item", {title: w.title || ruleTitle(w.rule), rule: w.rule,
                                                                        pupils: w.pupils})));
    });
    var puzzles = report.puzzles || [];
    if (!puzzles.length) { puzzlesBox.appendChild(el("p", {}, say("no_attempts"))); return; }
    puzzlesBox.appendChild(table(["puzzle_col", "attempts", "solved_col", "rating"], puzzles.map(function (p) {
      var row = el("tr", {"data-puzzle": p.id});
      row.appendChild(el("th", {"scope": "row"})).appendChild(el("code", {}, p.id));
      cell(row, p.attempts);
      cell(row, p.solved);
      row.appendChild(ratingCell(p));
      return row;
    })));
  }

  // The CSV comes with the token in the header like every request, and is saved from memory: the
  // token never appears in an address.
  function download() {
    var out = $("[data-report-message]");
    fetch("/api/classes/" + encodeURIComponent(classId) + "/report.csv",
          {headers: {"Authorization": "Bearer " + token}, cache: "no-store"}).then(function (response) {
      if (!response.ok) { out.textContent = problem({status: response.status, data: null}); return null; }
      return response.blob();
    }, function () { out.textContent = say("network_failed"); return null; }).then(function (blob) {
      if (!blob) { return; }
      var url = URL.createObjectURL(blob);
      var save = el("a", {"href": url, "download": "report-" + classId + ".csv"});
      document.body.appendChild(save);
      save.click();
      save.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    });
  }

  // ---- start ---------------------------------------------------------------------------------

  function ready() {
    $("[data-token-form]").addEventListener("submit", signIn);
    $("[data-class-form]").addEventListener("submit", createClass);
    $("[data-assignment-form]").addEventListener("submit", addAssignment);
    $("#kind-theme").addEventListener("change", kindChanged);
    $("#kind-choice").addEventListener("change", kindChanged);
    $("[data-game-select]").addEventListener("change", renderThemes);
    $("[data-refresh]").addEventListener("click", loadReport);
    $("[data-download]").addEventListener("click", download);
    window.addEventListener("hashchange", route);
    applyLanguage(lang);
    route();
    document.documentElement.setAttribute("data-classroom", "ready");
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
})();
