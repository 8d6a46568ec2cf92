// North Sea Companion: taps that come before the page's scripts are ready still count.
// The page is drawn before its deferred scripts run (on a slow phone or link, a second or
// more), and a button that only a script brings to life (type="button": the +/- steppers,
// "another Round Card", ...) would do nothing when tapped in that time. This file is the only
// script loaded without defer, in the head, so it listens from the first paint: it keeps
// those taps, in order, and once every deferred script and htmx have started, taps the same
// buttons again for them. Submit buttons and links need no help (they work without scripts).
(function () {
  "use strict";
  var waiting = [];
  function keep(e) {
    var target = e.target && e.target.closest ? e.target : e.target && e.target.parentElement;
    var button = target && target.closest("button[type=button]");
    if (button && !button.disabled) {
      // held back from any handler that is already listening (one deferred script may have
      // run while the next still loads), so each tap acts exactly once: when it is replayed
      e.stopPropagation();
      waiting.push(button);
    }
  }
  document.addEventListener("click", keep, true);
  document.addEventListener("DOMContentLoaded", function () {
    // after every DOMContentLoaded listener (htmx starts in one) has run
    setTimeout(function () {
      document.removeEventListener("click", keep, true);
      waiting.splice(0).forEach(function (button) {
        if (button.isConnected && !button.disabled) { button.click(); }
      });
    }, 0);
  });
})();
