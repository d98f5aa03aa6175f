// Copy buttons: a button with data-copy="<id>" copies the value of that read-only box (a new API
// token, a bot's token or secret, a club's invitation link: templates/accounts/token_new.html,
// templates/bots/registered.html, templates/leagues/club.html) or the text of an element (a
// bot's id, templates/bots/_head.html) and says so in the status beside it. The buttons are
// hidden until this script shows them: without it the text is there to select. A file of its
// own: the CSP forbids inline script (config/settings.py).
(function () {
  "use strict";

  // A box is a read-only textarea or input, or any element whose text is the value (a bot's id
  // on its page, templates/bots/_head.html).
  function valueOf(box) {
    return "value" in box ? box.value : box.textContent.trim();
  }

  function select(box) {
    if ("select" in box) {
      box.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(box);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copy(box) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(valueOf(box));
    }
    // Plain HTTP has no clipboard API: the older command copies the selection.
    select(box);
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject(new Error("copy"));
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var box = document.getElementById(button.dataset.copy);
    var said = document.getElementById(button.dataset.copy + "-copied");
    if (!box || !said) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      said.textContent = "";
      copy(box).then(
        function () { said.textContent = "Copied."; },
        function () {
          box.focus();
          select(box);
          said.textContent = "Not copied: the text is selected, copy it yourself.";
        }
      );
    });
  });
})();
