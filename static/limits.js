// A text box with a limit (data-limit: the chat's on the play page, a club board's post and
// replies) says how many characters are left once the limit nears, and by how many a longer text
// (a paste) is past it: the server refuses that (message-too-long) and keeps the text in the box,
// rather than the box cutting it silently, as a maxlength would. Without it the server's refusal
// says the same.
(function () {
  "use strict";

  var NEAR = 100;
  function count(box) {
    var told = document.querySelector('[data-count-for="' + box.id + '"]');
    if (!told) return;
    var limit = parseInt(box.dataset.limit, 10), length = Array.from(box.value.trim()).length;  // code points, as the server counts
    var left = limit - length;
    told.hidden = left > NEAR;
    told.classList.toggle("chat__count--over", left < 0);
    if (left < 0) {
      box.setAttribute("aria-invalid", "true");
      told.textContent = -left + " character" + (left === -1 ? "" : "s") +
        " too many: a message holds " + limit + " at most";
    } else {
      box.removeAttribute("aria-invalid");
      told.textContent = left + " character" + (left === 1 ? "" : "s") + " left";
    }
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-limit]")) count(event.target);
  });
  function countAll() { document.querySelectorAll("[data-limit]").forEach(count); }
  // After the settle, which would put back the attributes of the count the swap replaced.
  document.addEventListener("htmx:afterSettle", countAll);
  countAll();
})();
