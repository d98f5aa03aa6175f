// The play page and the replay, enhanced: a turn clock and the bots' grace for an out-of-turn
// chance that count down, keys that step through a replay, on a phone the count of the hand's
// cards past each edge of its strip, a closed chat's count of new messages, and a line that says
// when a move's request failed (the chat box's count of what is left: static/limits.js). Both
// pages work without it (the clocks show the absolute time; the replay's steps are links; the
// strip scrolls). Listeners sit on the document, so boards that htmx swaps in need nothing.
(function () {
  "use strict";

  function remaining(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
    var m = Math.floor(s % 3600 / 60), sec = s % 60;
    // After "Turn ends": "Turn ends in 2d 23h".
    if (d > 0) return "in " + d + "d " + h + "h";
    if (h > 0) return "in " + h + "h " + m + "m";
    return "in " + m + ":" + String(sec).padStart(2, "0");
  }

  // A grace for an out-of-turn chance lasts seconds: count them.
  function graceLeft(ms) {
    var s = Math.ceil(ms / 1000);
    return s > 1 ? s + " more seconds" : s === 1 ? "1 more second" : "no longer";
  }

  function tick() {
    document.querySelectorAll("time[data-grace]").forEach(function (el) {
      if (!el.dataset.absolute) el.dataset.absolute = el.textContent;
      el.textContent = graceLeft(Date.parse(el.getAttribute("datetime")) - Date.now());
      el.title = el.dataset.absolute;
    });
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      if (!el.dataset.absolute) el.dataset.absolute = el.textContent;
      var left = Date.parse(el.getAttribute("datetime")) - Date.now();
      el.textContent = left > 0 ? remaining(left) : "now (time is up)";
      el.title = el.dataset.absolute;
    });
  }

  var STEP_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    if (!document.querySelector("[data-replay]")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // Arrow keys belong to the slider and the select while they have focus.
    if (event.target.closest("input, select, textarea")) return;
    var step = STEP_KEYS[event.key];
    var link = step && document.querySelector('[data-replay] a[data-step="' + step + '"]');
    if (link) {
      event.preventDefault();
      link.click();
    }
  });

  document.addEventListener("change", function (event) {
    var el = event.target.closest("[data-autosubmit]");
    if (el && el.form) el.form.requestSubmit();
  });

  // A card's choice (colours, the UNO call) closes when another opens or on Escape; so does a
  // phone's dock question of the moves that would cost cards (games/_asked_catches.html), which
  // opens in the same place, above the dock.
  var ABOVE_DOCK = "details.card-choice, details.asks";
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches(ABOVE_DOCK) || !opened.open) return;
    document.querySelectorAll(ABOVE_DOCK).forEach(function (other) {
      if (other !== opened) other.open = false;
    });
  }, true);

  // An opened question (a catch or a call that will cost cards) shows whole: below the window's
  // edge (on a desktop), or under a pinned dock, the page scrolls just enough to clear it. (A
  // phone's dock asks its own, above it: games/_asked_catches.html.)
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches("details.confirm") || !opened.open) return;
    var body = opened.querySelector(".confirm__body");
    var dock = document.querySelector(".dock");
    if (!body || opened.closest(".dock")) return;
    var bottom = dock && getComputedStyle(dock).position === "sticky"
      ? dock.getBoundingClientRect().top : window.innerHeight;
    var overlap = body.getBoundingClientRect().bottom + 8 - bottom;
    if (overlap > 0) window.scrollBy(0, overlap);
  }, true);

  // On a phone the dock is pinned over the page's foot: a control under it reached with Tab (a
  // link of the story, the chat) is brought above it, not left focused where nobody sees it. Not
  // the focus the page gives back after a swap (`refocusing`, below): a move leaves the page
  // where it was.
  var refocusing = false;
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    var dock = document.querySelector(".dock");
    if (refocusing || !dock || dock.contains(el) || !el.getBoundingClientRect) return;
    if (getComputedStyle(dock).position !== "sticky") return;
    requestAnimationFrame(function () {
      var top = dock.getBoundingClientRect().top, box = el.getBoundingClientRect();
      var overlap = box.bottom + 8 - top, room = box.top - 8;
      if (overlap > 0 && room > 0) window.scrollBy(0, Math.min(overlap, room));
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = event.target.closest &&
      event.target.closest("details.card-choice[open], details.asks[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
    }
  });

  // A swapped board replaces the element that had the focus: give it back to the same control
  // (by its name) when the new board has one, else to the hand (its first card that can be
  // used, or its first move), else to the board's status line. The focus never scrolls the
  // page (preventScroll): a move leaves the page where it was, and on a phone the hand is
  // pinned in view anyway. What happened is read out by the #announce region (the server
  // fills it with the story's new lines), not by moving the focus to the top.
  var refocus = null;

  function nameOf(el) {
    return el.getAttribute("aria-label") || el.textContent.trim();
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    var target = event.detail.target;
    if (active && target && target.contains(active)) {
      refocus = nameOf(active);
    } else if (active && active !== document.body) {
      refocus = null;
    }
    // Else the focus is nowhere (the body): a swap before this one took its element away and
    // been given back yet (a poll's board and a move's answer crossing). Its pending refocus
    // stays, so the focus comes back to the table, not to the top of the page.
  });

  // A move's form waits for the board's poll in flight instead of aborting it. Its hx-sync
  // ("closest .game:replace") aborts the poll, so that the poll's older board cannot replace
  // the move's answer, and htmx writes every aborted request to the console as errors
  // ("htmx:afterRequest", "htmx:sendAbort"), a pair for many moves in normal play. So the abort
  // of the poll is stopped before htmx's own listener (on the body) sees it: htmx then queues
  // the move until the poll answers (milliseconds), the poll's board is not swapped in (it is
  // older than the move), and the move is sent from the board the person tapped. A move in
  // flight is still replaced by another (a second tap: the service answers a command once).
  var pollInFlight = false, moveWaiting = false;
  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    return !!elt && elt.id === "game" && (!config || String(config.verb).toLowerCase() === "get");
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    if (isPoll(event)) pollInFlight = true;
  });
  document.addEventListener("htmx:abort", function (event) {
    if (event.target.id !== "game" || !pollInFlight) return;
    event.stopPropagation();
    moveWaiting = true;
  }, true);
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isPoll(event) || !moveWaiting) return;
    event.detail.shouldSwap = false;
  }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event)) return;
    pollInFlight = false;
    moveWaiting = false;
  });

  // On afterSwap, in the same task that took the old board away, not on afterSettle 20 ms later:
  // no moment in between when the focus is on the page's body.
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("game") || document.getElementById("replay");
    if (refocus === null || !board) return;
    var name = refocus;
    refocus = null;
    // Only a control drawn: a phone's dock asks the costly catches that a desktop asks on the
    // seats, each size hiding the other's (static/cards.css).
    function drawn(selector, test) {
      return Array.prototype.find.call(board.querySelectorAll(selector), function (el) {
        return el.getClientRects().length > 0 && (!test || test(el));
      });
    }
    var same = drawn("button, summary, a[href], select", function (el) {
      return nameOf(el) === name;
    });
    var next = same ||
      drawn(".hand__card--live :is(.card-button, summary)") ||
      drawn(".dock :is(button, summary, select):not([hidden])") ||
      board.querySelector(".hand") ||
      board.querySelector(".status");
    refocusing = true;
    next.focus({ preventScroll: true });
    refocusing = false;
  });

  // A move whose request fails (no network, no answer in time, the server's error) changes
  // nothing on the page, so the page says so: a line at the top of the dock (pinned in view on a
  // phone) and the same words in the #announce region. The board stays as it was; the next board
  // the server sends (the move tried again, or the poll's news) replaces the dock and the region,
  // and the line with them. The poll's own failures (every second while offline) say nothing:
  // the board is simply not news. A refused move is not a failure: it comes back in a board.
  var NO_ANSWER = "Your move got no answer from the server: check your connection and try again.";

  function failedMove(event, words) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    if (!elt || !elt.closest || !config || String(config.verb).toLowerCase() !== "post") return;
    var board = elt.closest("#game");
    var dock = board && board.querySelector(".dock");
    if (!dock) return;
    var line = dock.querySelector("[data-move-failed]");
    if (!line) {
      line = document.createElement("p");
      line.className = "banner banner--error dock__failed";
      line.setAttribute("data-move-failed", "");
      dock.insertBefore(line, dock.firstChild);
    }
    line.textContent = words;
    var announce = document.getElementById("announce");
    if (announce) {
      // Emptied first: the same words again (a second failed tap) are read out again.
      announce.textContent = "";
      setTimeout(function () { announce.textContent = words; }, 50);
    }
  }

  document.addEventListener("htmx:sendError", function (event) { failedMove(event, NO_ANSWER); });
  document.addEventListener("htmx:timeout", function (event) { failedMove(event, NO_ANSWER); });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    failedMove(event, status >= 500
      ? "The server failed on your move (error " + status + "): try again in a moment."
      : "The server turned your move away (error " + status + "): nothing changed; " +
        "refresh the page and try again.");
  });

  // On a phone the hand is one strip that scrolls sideways. Beside its title a count says how
  // many cards lie past its edge ("3 more \u203a", or "\u2039 3 more" for the cards before it once
  // scrolled), outlined when one of them can be used now, and a tap brings them into view (the
  // first that can be used, else the next). A card counts as past the edge when less than half
  // of it shows. The strip comes with each board: the count is made again after each swap
  // (before the new board is drawn), on the strip's scroll and on a resize.
  function pastEdge(strip, after) {
    var s = strip.getBoundingClientRect();
    var cards = Array.prototype.filter.call(strip.children, function (card) {
      var r = card.getBoundingClientRect();
      return after ? r.right - r.width / 2 > s.right : r.left + r.width / 2 < s.left;
    });
    return after ? cards : cards.reverse();
  }

  function isLive(card) {
    return card.classList.contains("hand__card--live");
  }

  // The side the count points to: where a card that can be used lies, else after, else before.
  function handSide(strip) {
    var after = pastEdge(strip, true), before = pastEdge(strip, false);
    if (!after.some(isLive) && before.some(isLive)) return { after: false, cards: before };
    return after.length ? { after: true, cards: after } : { after: false, cards: before };
  }

  function handEdges() {
    var button = document.querySelector(".dock [data-hand-more]");
    if (!button) return;
    var area = button.closest(".hand-area"), strip = area.querySelector(".hand");
    var scrolls = strip.scrollWidth > strip.clientWidth + 1 &&
      getComputedStyle(strip).overflowX !== "visible";
    area.classList.toggle("hand-area--strip", scrolls);
    var side = scrolls ? handSide(strip) : { after: true, cards: [] };
    var count = side.cards.length, live = side.cards.filter(isLive).length;
    if (!count) {
      if (button === document.activeElement) strip.focus({ preventScroll: true });
      button.hidden = true;
      return;
    }
    button.hidden = false;
    button.dataset.after = side.after ? "1" : "";
    // "2 more \u203a", not "+2 \u203a": a plus and a figure read as a Draw Two card.
    button.textContent = side.after ? count + " more \u203a" : "\u2039 " + count + " more";
    button.classList.toggle("hand-more--live", live > 0);
    button.setAttribute("aria-label", count + " more card" + (count === 1 ? "" : "s") +
      (side.after ? " to the right" : " to the left") +
      (live ? " (" + live + " you can use)" : ""));
    // Centred on the moves' row (which keeps its room whoever's turn it is), else on the hand's
    // title, in the dock's box (the dock is its containing block).
    var dock = button.offsetParent;
    if (!dock) return;
    var row = Array.prototype.find.call(dock.querySelectorAll(".actions"), function (el) {
      return el.getClientRects().length > 0;
    });
    var head = (row || area.querySelector(".hand-head")).getBoundingClientRect();
    button.style.top = Math.round(head.top - dock.getBoundingClientRect().top +
      (head.height - button.offsetHeight) / 2) + "px";
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-hand-more]");
    if (!button) return;
    var strip = button.closest(".hand-area").querySelector(".hand");
    var after = button.dataset.after === "1";
    var cards = pastEdge(strip, after);
    var target = cards.find(isLive) || cards[0];
    if (!target) return;
    var r = target.getBoundingClientRect(), s = strip.getBoundingClientRect();
    strip.scrollLeft += after ? r.right - s.right + 8 : r.left - s.left - 8;
    handEdges();
  });

  document.addEventListener("scroll", function (event) {
    if (event.target.matches && event.target.matches(".dock .hand")) handEdges();
  }, true);
  window.addEventListener("resize", handEdges);
  document.addEventListener("htmx:afterSwap", handEdges);
  handEdges();

  // A closed chat does not poll: the board's poll says the newest message's seq (X-Chat-Newest,
  // web/play.py live_board), and when it grows the list is read once, to count only what this
  // person reads (their channels, nobody they mute) past the newest they have had in view. The
  // count marks the toggle ("2 new"); opening the chat clears it.
  var chatNewest = 0, chatChecked = 0;
  // The count is said on the toggle and on the status line's link to the chat (in view while
  // the person plays; the board's swap brings it back hidden, and chatRemark marks it again).
  var chatFresh = 0;
  function chatMark(chat, fresh) {
    chatFresh = fresh;
    chatMarkOne(chat.querySelector("[data-chat-new]"), fresh);
    chatMarkOne(document.querySelector("[data-chat-jump] [data-chat-new]"), fresh);
  }
  function chatMarkOne(mark, fresh) {
    if (!mark || mark.dataset.count === String(fresh)) return;  // as it is: no write
    mark.dataset.count = String(fresh);
    mark.hidden = fresh < 1;
    // The status line's count is a number in a dot, its words for screen readers.
    var short = mark.hasAttribute("data-chat-short");
    mark.textContent = short ? String(fresh) : fresh + " new";
    var words = document.createElement("span");
    words.className = "visually-hidden";
    words.textContent = (short ? " new" : "") + (fresh === 1 ? " message" : " messages");
    mark.appendChild(words);
  }
  function chatSeen(chat) {
    chat.dataset.chatLast = Math.max(parseInt(chat.dataset.chatLast, 10) || 0, chatNewest);
    chatMark(chat, 0);
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var chat = document.getElementById("chat"), xhr = event.detail.xhr;
    var newest = xhr ? parseInt(xhr.getResponseHeader("X-Chat-Newest"), 10) : NaN;
    if (!chat || !chat.dataset.chatUrl || isNaN(newest)) return;
    chatNewest = Math.max(chatNewest, newest);
    if (chat.open) { chatSeen(chat); return; }
    var last = parseInt(chat.dataset.chatLast, 10) || 0;
    if (chatNewest <= last || chatNewest <= chatChecked) return;
    chatChecked = chatNewest;
    fetch(chat.dataset.chatUrl, { credentials: "same-origin" }).then(function (answer) {
      return answer.status === 200 ? answer.text() : "";
    }).then(function (html) {
      var list = new DOMParser().parseFromString(html, "text/html");
      var fresh = Array.prototype.filter.call(list.querySelectorAll("[data-seq]"), function (li) {
        return parseInt(li.dataset.seq, 10) > last;
      }).length;
      if (!chat.open) chatMark(chat, fresh);
    }).catch(function () { chatChecked = 0; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    chatMarkOne(document.querySelector("[data-chat-jump] [data-chat-new]"), chatFresh);
  });
  // The status line's link opens the chat where it is, under the board.
  document.addEventListener("click", function (event) {
    var jump = event.target.closest && event.target.closest("[data-chat-jump]");
    var chat = document.getElementById("chat");
    if (!jump || !chat) return;
    event.preventDefault();
    chat.open = true;
    chat.scrollIntoView({ block: "start" });
    var summary = chat.querySelector("summary");
    if (summary) summary.focus({ preventScroll: true });
  });
  document.addEventListener("toggle", function (event) {
    if (event.target.id === "chat" && event.target.open) chatSeen(event.target);
  }, true);

  // Away from the board (in the chat under it) the dock is out of view with the board, and a
  // turn that comes changes nothing in view: while it is the viewer's turn and less than half
  // of the dock shows, a bar pinned to the screen's bottom says so, and a tap on it brings the
  // board back (its status line at the top, the dock pinned under it) with the focus on the
  // status line. The page never moves by itself. Its region reads "Your turn" out once a
  // turn, when the bar first shows in it.
  var turnBackSaid = false, turnBackQueued = false;
  function turnBack() {
    turnBackQueued = false;
    var bar = document.querySelector("[data-turn-back]");
    var board = document.getElementById("game");
    if (!bar || !board) return;
    var mine = board.hasAttribute("data-my-turn");
    var dock = board.querySelector(".dock");
    var away = false;
    if (mine && dock) {
      var box = dock.getBoundingClientRect();
      away = box.bottom < box.height / 2;
    }
    if (!mine) turnBackSaid = false;
    if (bar.hidden !== !away) bar.hidden = !away;
    var said = document.querySelector("[data-turn-back-said]");
    if (away && !turnBackSaid && said) {
      turnBackSaid = true;
      said.textContent = "Your turn: the link at the bottom of the screen takes you back to the table.";
    } else if (!away && said && said.textContent) {
      said.textContent = "";
    }
  }
  function turnBackSoon() {
    if (turnBackQueued) return;
    turnBackQueued = true;
    requestAnimationFrame(turnBack);
  }
  window.addEventListener("scroll", turnBackSoon, { passive: true });
  window.addEventListener("resize", turnBackSoon);
  document.addEventListener("htmx:afterSwap", turnBack);
  document.addEventListener("toggle", turnBackSoon, true);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-turn-back] a");
    var board = document.getElementById("game");
    if (!link || !board) return;
    event.preventDefault();
    board.scrollIntoView({ block: "start" });
    var status = board.querySelector(".status");
    refocusing = true;
    if (status) status.focus({ preventScroll: true });
    refocusing = false;
    turnBack();
  });
  turnBack();

  tick();
  setInterval(tick, 1000);
  // A board htmx swaps in shows its clock at once, not a second later.
  document.addEventListener("htmx:afterSettle", tick);
})();
