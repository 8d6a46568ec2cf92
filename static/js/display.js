// The table display and the play page: the game clock ticks between updates (the server's
// number, counted on from when the page got it). No inline script: the CSP forbids it.
// A morph keeps the element and only changes data-elapsed, so the start of the count is kept
// per element together with the number it started from.
(function () {
  "use strict";
  var seen = new WeakMap();
  function words(el, seconds) {
    var minutes = Math.floor(seconds / 60), hours = Math.floor(minutes / 60);
    minutes = minutes % 60;
    var m = minutes < 10 && hours ? "0" + minutes : String(minutes);
    var pattern = hours ? el.dataset.fmtHm : el.dataset.fmtM;
    if (!pattern) { return null; }
    return pattern.replace("{h}", String(hours)).replace("{m}", m);
  }
  function tick() {
    document.querySelectorAll("[data-elapsed][data-running='true']").forEach(function (el) {
      var from = seen.get(el);
      if (!from || from.elapsed !== el.dataset.elapsed) {
        from = {elapsed: el.dataset.elapsed, at: Date.now()};
        seen.set(el, from);
      }
      var seconds = Number(from.elapsed) + (Date.now() - from.at) / 1000;
      var text = words(el, seconds), out = el.querySelector(".clock-time");
      if (text && out && out.textContent !== text) { out.textContent = text; }
    });
  }
  tick();
  setInterval(tick, 15000);
  document.body.addEventListener("htmx:afterSwap", tick);
  document.body.addEventListener("htmx:afterSettle", tick);
})();
