// Told when it matters (the play page and the lobby): while a game waits for you the tab's title
// starts with "Your turn" and the icon has a green dot; if you turned them on (remembered in
// this browser), a notification and a sound when a game starts waiting for you while this tab is
// in the background. The play page learns it from its board, which htmx's poll swaps in
// (templates/games/_game.html: data-my-turn, data-turn-title); the lobby fetches itself again
// every 20 s (templates/play/lobby.html: data-waiting), which also brings its countdowns. A file of its own: the CSP forbids
// inline script (config/settings.py).
(function () {
  "use strict";

  var KEYS = { notify: "uno.notify", sound: "uno.sound" };
  var LOBBY_EVERY = 20000;

  function stored(name) {
    try { return window.localStorage.getItem(KEYS[name]) === "on"; } catch (e) { return false; }
  }

  function store(name, on) {
    try { window.localStorage.setItem(KEYS[name], on ? "on" : "off"); } catch (e) { /* private */ }
  }

  var canNotify = "Notification" in window;

  // What the page says now: whether something waits for you, the title to show, and the words
  // of a notification.
  function state() {
    var board = document.getElementById("game");
    if (board && board.dataset.turnTitle) {
      return {
        waiting: board.hasAttribute("data-my-turn"),
        count: board.hasAttribute("data-my-turn") ? 1 : 0,
        title: board.dataset.turnTitle,
        body: (board.getAttribute("aria-label") || "A game") + " waits for you"
      };
    }
    var lobby = document.querySelector("[data-lobby]");
    if (lobby) {
      var count = parseInt(lobby.dataset.waiting, 10) || 0;
      return {
        waiting: count > 0, count: count, title: lobby.dataset.turnTitle,
        body: count === 1 ? "A game waits for you" : count + " games wait for you"
      };
    }
    return null;
  }

  function showState(now) {
    if (now.title) document.title = now.title;
    var icon = document.querySelector('link[rel="icon"][data-turn]');
    if (icon) {
      var href = now.waiting ? icon.dataset.turn : icon.dataset.idle;
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
  }

  var audio = null;

  function alert(now) {
    if (!document.hidden) return;
    if (stored("notify") && canNotify && Notification.permission === "granted") {
      var icon = document.querySelector('link[rel="icon"][data-turn]');
      try {
        var note = new Notification("Your turn · UNO League", {
          body: now.body, tag: "uno-turn", icon: icon ? icon.dataset.turn : undefined
        });
        note.onclick = function () { window.focus(); note.close(); };
      } catch (e) { /* a browser that only notifies from a service worker */ }
    }
    if (stored("sound")) {
      var box = document.querySelector("[data-alerts]");
      if (box && box.dataset.sound) {
        audio = audio || new Audio(box.dataset.sound);
        audio.currentTime = 0;
        var played = audio.play();
        if (played && played.catch) played.catch(function () { /* not allowed yet */ });
      }
    }
  }

  var last = null;

  function update() {
    var now = state();
    if (!now) return;
    showState(now);
    // A game started waiting (or one more did): only a change is told, never the page's load.
    if (last !== null && now.count > last.count) alert(now);
    last = now;
  }

  // What the page says when the browser does not let the site notify: why, and what to do, in
  // the page (the browser's own prompt may never show). "waiting" while the browser's answer to
  // a tap is pending, "unanswered" when it came back neither granted nor denied.
  var asking = "";
  var SETTINGS = "This browser blocks the site's notifications. To allow them, open the " +
    "browser's settings for this site (the icon beside the address), allow notifications, " +
    "then reload this page.";
  var WAITING = "The browser is asking whether this site may notify you: answer its question " +
    "(by the address bar). If it shows none, it blocks the question: allow notifications in " +
    "the browser's settings for this site (the icon beside the address).";
  var UNANSWERED = "The browser did not allow notifications: it blocked the question or its " +
    "prompt was closed. To allow them, open the browser's settings for this site (the icon " +
    "beside the address), allow notifications, then press the button again.";

  // The buttons: each says what it does and whether it is on (aria-pressed).
  function drawButtons() {
    var box = document.querySelector("[data-alerts]");
    if (!box) return;
    box.hidden = false;
    var notifyButton = box.querySelector('[data-alert-toggle="notify"]');
    var soundButton = box.querySelector('[data-alert-toggle="sound"]');
    var words = [];
    var notifyOn = stored("notify") && canNotify && Notification.permission === "granted";
    if (notifyButton) {
      notifyButton.setAttribute("aria-pressed", notifyOn ? "true" : "false");
      if (!canNotify) {
        notifyButton.disabled = true;
        notifyButton.textContent = "Notifications: not in this browser";
      } else if (Notification.permission === "denied") {
        notifyButton.disabled = true;
        notifyButton.textContent = "Notifications: blocked";
        words.push(SETTINGS);
      } else {
        notifyButton.textContent = notifyOn ? "Notifications: on" : "Notifications: off";
        // The person asked and the browser said neither yes nor no (it blocked the question
        // without showing it, or its prompt was closed), or has not answered yet.
        if (!notifyOn && asking === "waiting") words.push(WAITING);
        if (!notifyOn && asking === "unanswered") words.push(UNANSWERED);
      }
    }
    if (soundButton) {
      soundButton.setAttribute("aria-pressed", stored("sound") ? "true" : "false");
      soundButton.textContent = stored("sound") ? "Sound: on" : "Sound: off";
    }
    if (notifyOn || stored("sound")) {
      words.push("While this tab is in the background, you are " +
        (notifyOn && stored("sound") ? "notified with a sound" : notifyOn ? "notified" : "told by a sound") +
        " when a game starts waiting for you.");
    } else if (!words.length) {
      words.push("Turn these on to be told when a game starts waiting for you while this tab is in the background.");
    }
    var said = box.querySelector("[data-alerts-state]");
    if (said) said.textContent = words.join(" ");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-alert-toggle]");
    if (!button) return;
    var name = button.dataset.alertToggle;
    if (name === "notify") {
      if (stored("notify") && Notification.permission === "granted") {
        store("notify", false);
        drawButtons();
        return;
      }
      asking = "waiting";
      drawButtons();
      var asked = Notification.requestPermission(function () { /* older browsers */ });
      var done = function (answer) {
        var granted = (answer || Notification.permission) === "granted";
        store("notify", granted);
        asking = granted ? "" : "unanswered";
        drawButtons();
      };
      if (asked && asked.then) asked.then(done); else done(Notification.permission);
      return;
    }
    store("sound", !stored("sound"));
    if (stored("sound")) {
      // Played once now: the browser then allows it later, and the person hears what it is.
      alertSoundPreview();
    }
    drawButtons();
  });

  function alertSoundPreview() {
    var box = document.querySelector("[data-alerts]");
    if (!box || !box.dataset.sound) return;
    audio = audio || new Audio(box.dataset.sound);
    var played = audio.play();
    if (played && played.catch) played.catch(function () { /* not allowed */ });
  }

  // The lobby: fetch the same page again and swap its list when the count of waiting games moves;
  // otherwise take the fresh page's countdowns, so that the time left is only ever the server's
  // words (frontdoor/variant_text.time_left), never counted here.
  function refreshLobby() {
    var lobby = document.querySelector("[data-lobby]");
    if (!lobby || !window.fetch || !window.DOMParser) return;
    window.fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-lobby]");
        if (!fresh) return;
        if (fresh.dataset.waiting !== lobby.dataset.waiting) {
          lobby.replaceWith(document.importNode(fresh, true));
          update();
          return;
        }
        fresh.querySelectorAll("[data-countdown]").forEach(function (told) {
          var shown = lobby.querySelector('[data-countdown="' + told.dataset.countdown + '"]');
          if (shown) shown.textContent = told.textContent;
        });
      })
      .catch(function () { /* offline: try again next time */ });
  }

  function start() {
    drawButtons();
    update();
    if (document.querySelector("[data-lobby]")) setInterval(refreshLobby, LOBBY_EVERY);
  }

  document.addEventListener("htmx:afterSettle", update);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  // For the browser tests and for anyone curious: the lobby refreshes now.
  window.unoNotify = { refreshLobby: refreshLobby, update: update };
})();
