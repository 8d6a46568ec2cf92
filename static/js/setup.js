// North Sea Companion: "Setup done" puts the play's setup card away on this phone, and "Setup"
// (near the bottom of the play) brings it back. The choice is this person's alone: a cookie
// scoped to this play's address, so the server draws the page the same way on a reload
// (#play-root data-setup="done"), and no change on another phone opens, folds or moves it.
(function () {
  "use strict";
  var root = document.getElementById("play-root");
  if (!root) { return; }
  var path = "/plays/" + root.dataset.playId + "/";
  function put(done) {
    if (done) { root.dataset.setup = "done"; } else { delete root.dataset.setup; }
    document.cookie = "nsc_setup=" + (done ? "done" : "") + "; path=" + path +
      "; max-age=" + (done ? 31536000 : 0) + "; SameSite=Lax";
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-setup-done], button[data-setup-show]");
    if (!button || !root.contains(button)) { return; }
    var done = button.hasAttribute("data-setup-done");
    put(done);
    var card = document.getElementById("setup-card");
    var details = document.getElementById("setup-details");
    if (done) { window.scrollTo(0, 0); return; }      // the next move is at the top
    if (details && !details.open) { details.querySelector("summary").click(); }  // as if tapped
    if (card) { card.scrollIntoView({ block: "start" }); }
  });
})();
