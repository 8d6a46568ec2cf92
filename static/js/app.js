// North Sea Companion: small progressive enhancements (no inline script: the CSP forbids it).
(function () {
  "use strict";
  document.body.setAttribute("hx-indicator", "#spinner");

  // Remember the plays opened on this device, so the home page can list them.
  var root = document.getElementById("play-root");
  if (root && root.dataset.playId) {
    try {
      var mine = JSON.parse(localStorage.getItem("nsc.plays") || "[]")
        .filter(function (p) { return p.id !== root.dataset.playId; });
      mine.unshift({ id: root.dataset.playId, url: location.pathname, game: root.dataset.game,
                     role: root.dataset.role, at: new Date().toISOString() });
      localStorage.setItem("nsc.plays", JSON.stringify(mine.slice(0, 20)));
    } catch (e) { /* private mode: nothing to remember */ }
  }
  var list = document.getElementById("my-plays");
  if (list) {
    try {
      JSON.parse(localStorage.getItem("nsc.plays") || "[]").forEach(function (p) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = p.url; a.textContent = p.game + (p.role === "view" ? " (watching)" : "");
        li.appendChild(a); li.appendChild(document.createTextNode(" · " + new Date(p.at).toLocaleString()));
        list.appendChild(li);
      });
    } catch (e) { /* ignore */ }
  }

  // Keep the screen awake during a play; released when the play has finished.
  var lock = null, video = null;
  function playing() {
    var play = document.getElementById("play");
    return play && play.dataset.finished !== "true";
  }
  function fallbackAwake(on) {
    // Plain http on a LAN has no Wake Lock: a tiny muted looping video keeps most phones awake.
    if (on && !video) {
      video = document.createElement("video");
      video.setAttribute("muted", ""); video.setAttribute("playsinline", ""); video.muted = true;
      video.loop = true; video.className = "sr-only";
      video.src = "/static/media/keepawake.webm";
      document.body.appendChild(video);
      video.play().catch(function () {});
    } else if (!on && video) { video.pause(); video.remove(); video = null; }
  }
  function keepAwake() {
    var want = playing() && document.visibilityState === "visible";
    document.documentElement.dataset.wakeLock = want ? "wanted" : "off";
    if (!want) {
      if (lock) { lock.release().catch(function () {}); lock = null; }
      fallbackAwake(false);
      return;
    }
    if ("wakeLock" in navigator && window.isSecureContext) {
      if (!lock) {
        navigator.wakeLock.request("screen").then(function (l) {
          lock = l; document.documentElement.dataset.wakeLock = "held";
          l.addEventListener("release", function () { lock = null; });
        }).catch(function () { fallbackAwake(true); });
      }
    } else { fallbackAwake(true); document.documentElement.dataset.wakeLock = "fallback"; }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.body.addEventListener("htmx:afterSwap", keepAwake);
  document.addEventListener("click", function once() { keepAwake(); }, { once: true });
  keepAwake();
})();
