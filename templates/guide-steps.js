/* Worked examples, one step at a time: the steps are all in the page (and all printed);
   this script only shows one of them on screen, with buttons to go back and forth. */
(function () {
  "use strict";
  var labels = JSON.parse(document.getElementById("step-labels").textContent);
  var examples = document.querySelectorAll(".example[data-steps]");
  Array.prototype.forEach.call(examples, function (example) {
    var steps = example.querySelectorAll("figure.step");
    if (steps.length < 2) { return; }
    var current = 0;
    var bar = document.createElement("div");
    bar.className = "step-controls";
    var back = document.createElement("button");
    back.type = "button";
    back.setAttribute("data-step-back", "");
    back.textContent = labels.back;
    var next = document.createElement("button");
    next.type = "button";
    next.setAttribute("data-step-next", "");
    next.textContent = labels.next;
    var status = document.createElement("span");
    status.setAttribute("role", "status");
    bar.appendChild(back);
    bar.appendChild(next);
    bar.appendChild(status);
    example.insertBefore(bar, steps[0]);
    function show(index) {
      current = index;
      Array.prototype.forEach.call(steps, function (step, i) {
        step.classList.toggle("step-hidden", i !== index);
      });
      back.disabled = index === 0;
      next.disabled = index === steps.length - 1;
      status.textContent = labels.status.replace("{n}", String(index + 1)).replace("{count}", String(steps.length));
    }
    back.addEventListener("click", function () { if (current > 0) { show(current - 1); } });
    next.addEventListener("click", function () { if (current < steps.length - 1) { show(current + 1); } });
    show(0);
  });
})();
