// North Sea Companion: "Your turn" (issue 24). When the seat whose turn it is shows on this
// phone, it vibrates once for that turn (where the phone allows it); the screen stays on
// through app.js's wake lock. Everything else is the server's page, swapped in by htmx.
(function () {
  "use strict";
  var seen = "";
  function check() {
    var mine = document.getElementById("your-turn");
    var key = mine ? mine.dataset.turnKey || "" : "";
    if (key && key !== seen && typeof navigator.vibrate === "function") {
      try { navigator.vibrate(200); } catch (e) { /* not allowed here: the banner says it */ }
    }
    seen = key;
    document.documentElement.dataset.yourTurn = key ? "yes" : "no";
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
})();
