// A form posts once: while its POST is in flight (the next page not yet drawn), its submit
// buttons are disabled and a second tap on them sends nothing. The server acts on a creating
// form's token once anyway (web/once.py): this saves the second request. Every page loads it
// (templates/base.html); a form htmx sends (it cancels the browser's submission) is left to
// htmx. A file of its own: the CSP forbids inline script (config/settings.py).
(function () {
  "use strict";

  // A POST that never leaves the page (a download, a refused connection) frees the form again.
  var STUCK_MS = 15000;

  function buttons(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return (el.type === "submit" || el.type === "image") && !el.disabled;
    });
  }

  function release(form) {
    if (!form.dataset.onceSending) return;
    delete form.dataset.onceSending;
    form.removeAttribute("aria-busy");
    form.querySelectorAll("[data-once-disabled]").forEach(function (el) {
      el.disabled = false;
      delete el.dataset.onceDisabled;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.dataset.onceSending) {
      event.preventDefault();
      return;
    }
    form.dataset.onceSending = "1";
    form.setAttribute("aria-busy", "true");
    // After the browser has read the form (its pressed button's name and value with it): a
    // disabled button would be left out of what it sends.
    window.setTimeout(function () {
      buttons(form).forEach(function (el) {
        el.disabled = true;
        el.dataset.onceDisabled = "1";
      });
    }, 0);
    window.setTimeout(function () { release(form); }, STUCK_MS);
  });

  // Back to a page kept whole in the browser's cache: its forms may be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-once-sending]").forEach(release);
  });
})();
