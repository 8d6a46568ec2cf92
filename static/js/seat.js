// North Sea Companion: "Your turn" (issue 24). When the seat whose turn it is shows on this
// phone, it vibrates once for that turn (where the phone allows it); the screen stays on
// through app.js's wake lock. With a turn limit, the banner counts on from the turn's time as
// the server read it and, once the turn passes the limit, turns a warmer colour and shows its
// sentence (drawn by the server, hidden until then): once, silently, no blinking.
// Everything else is the server's page, swapped in by htmx.
(function () {
  "use strict";
  var seen = "";
  var since = new WeakMap();
  function overLimit() {
    var mine = document.getElementById("your-turn");
    if (!mine || !mine.dataset.turnLimit) { return; }
    var from = since.get(mine);
    if (!from || from.elapsed !== mine.dataset.turnElapsed) {
      from = {elapsed: mine.dataset.turnElapsed, at: Date.now()};
      since.set(mine, from);
    }
    var running = mine.dataset.running === "true";
    var seconds = Number(from.elapsed) + (running ? (Date.now() - from.at) / 1000 : 0);
    if (seconds < Number(mine.dataset.turnLimit) || mine.classList.contains("over-limit")) {
      return;
    }
    mine.classList.add("over-limit");
    var note = document.getElementById("turn-over");
    if (note) { note.hidden = false; }
  }
  function check() {
    var mine = document.getElementById("your-turn");
    var key = mine ? mine.dataset.turnKey || "" : "";
    if (key && key !== seen && typeof navigator.vibrate === "function") {
      try { navigator.vibrate(200); } catch (e) { /* not allowed here: the banner says it */ }
    }
    seen = key;
    document.documentElement.dataset.yourTurn = key ? "yes" : "no";
    overLimit();
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
  setInterval(overLimit, 1000);
})();
