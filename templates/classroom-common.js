/* What the pupil's page and the dashboard share.

   classroomElement: the one way the pages make an element; text is set as text, never as markup,
   so a pupil's name or a class title can never become HTML.

   classroomRequest: one JSON request to the classroom server.  Resolves with {status, data} (data: the parsed JSON answer, or null); rejects with
   {network: true} when no answer came within timeoutMs (a dropped connection or a hung server),
   so each page decides what "offline" means for it. */
(function () {
  "use strict";
  window.classroomElement = function (tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  };
  window.classroomRequest = function (method, path, body, token, timeoutMs) {
    var headers = {"Accept": "application/json"};
    if (token) { headers.Authorization = "Bearer " + token; }
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, timeoutMs);
    var init = {method: method, headers: headers, cache: "no-store", signal: controller.signal};
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (response) {
      return response.text().then(function (text) {
        clearTimeout(timer);
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (ignored) { data = null; }
        return {status: response.status, data: data};
      });
    }).catch(function (error) {
      clearTimeout(timer);
      if (error && error.network) { throw error; }
      throw {network: true};
    });
  };
}());
