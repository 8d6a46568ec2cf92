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

  // A swap re-renders the play: keep every <details> (sheets, setup, islands) as the person
  // left it open or closed, so a tap on Bjorn's sheet does not fold it away.
  var openState = {};
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.target) return;
    e.detail.target.querySelectorAll("details[id]").forEach(function (d) { openState[d.id] = d.open; });
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    Object.keys(openState).forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = openState[id];
    });
  });

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

  // Local +/- buttons (type="button" data-step="1" aria-controls="<input id>") for forms that
  // post once, e.g. a whole game turn: they change the number without sending anything.
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[data-step][aria-controls]");
    var input = b && document.getElementById(b.getAttribute("aria-controls"));
    if (!input) return;
    e.preventDefault();
    var v = (parseInt(input.value, 10) || 0) + parseInt(b.dataset.step, 10);
    if (input.min !== "" && v < Number(input.min)) v = Number(input.min);
    if (input.max !== "" && v > Number(input.max)) v = Number(input.max);
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();
