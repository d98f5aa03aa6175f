// The lobby (templates/play/lobby.html): ticks the games' countdowns once the page is open; the
// words match web/variant_text.time_left. A file of its own, not an inline script, for the
// Content-Security-Policy (config/settings.py).
(function () {
  function left(ms) {
    var s = Math.floor(ms / 1000);
    if (s <= 0) return "time is up";
    var d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
    if (d) return d + " d " + h + " h left";
    if (h) return h + " h " + m + " min left";
    if (m) return m + " min left";
    return "under a minute left";
  }
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      el.textContent = left(Date.parse(el.getAttribute("data-deadline")) - Date.now());
    });
  }
  setInterval(tick, 20000);
})();
