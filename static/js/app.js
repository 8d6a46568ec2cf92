// North Sea Companion: small progressive enhancements (no inline script: the CSP forbids it).
(function () {
  "use strict";
  document.body.setAttribute("hx-indicator", "#spinner");
  // Words the script writes itself, in the page's language (base.html's #nsc-words block).
  var words = null;
  function word(text, vars) {
    if (words === null) {
      try { words = JSON.parse(document.getElementById("nsc-words").textContent); }
      catch (e) { words = {}; }
    }
    var out = words[text] || text;
    Object.keys(vars || {}).forEach(function (k) { out = out.split("%(" + k + ")s").join(vars[k]); });
    return out;
  }
  window.nscWord = word;   // for table.js (app.js runs first: both are deferred, in order)

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
        a.href = p.url; a.textContent = p.game + (p.role === "view" ? word(" (watching)") : "");
        li.appendChild(a); li.appendChild(document.createTextNode(" · " + new Date(p.at).toLocaleString()));
        list.appendChild(li);
      });
    } catch (e) { /* ignore */ }
  }

  // Keep the screen awake during a play; released when the play has finished or is hidden.
  // Wake Lock where the browser allows it (a secure context); elsewhere (plain http on a LAN)
  // a tiny muted looping video, which keeps most phones' screens on while it plays.
  var lock = null, video = null, pending = false;
  function playing() {
    var play = document.getElementById("play");
    return !!play && play.dataset.finished !== "true";
  }
  function showWake(state) {
    document.documentElement.dataset.wakeLock = state;
    var el = document.getElementById("wake-state");
    if (!el) { return; }
    var text = { held: word("Screen stays on"), fallback: word("Screen stays on"),
                 blocked: word("Tap anywhere to keep the screen on") }[state];
    el.hidden = !text;
    el.textContent = text || "";
    el.dataset.state = state;
  }
  function addSource(v, file, type) {
    var src = document.createElement("source");
    src.src = "/static/media/" + file; src.type = type;
    v.appendChild(src);
  }
  function fallbackAwake(on) {
    if (on && !video) {
      video = document.createElement("video");
      video.setAttribute("muted", ""); video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true"); video.muted = true; video.loop = true;
      video.className = "keepawake";
      addSource(video, "keepawake.mp4", "video/mp4");
      addSource(video, "keepawake.webm", "video/webm");
      document.body.appendChild(video);
    }
    if (on) {
      var started = video.play();
      if (started && started.then) {
        started.then(function () { showWake("fallback"); },
                     function () { showWake("blocked"); });
      } else { showWake("fallback"); }
    } else if (video) { video.pause(); video.remove(); video = null; }
  }
  function keepAwake() {
    var want = playing() && document.visibilityState === "visible";
    if (!want) {
      if (lock) { lock.release().catch(function () {}); lock = null; }
      fallbackAwake(false);
      showWake("off");
      return;
    }
    if ("wakeLock" in navigator && window.isSecureContext) {
      if (!lock && !pending) {
        pending = true;
        navigator.wakeLock.request("screen").then(function (l) {
          pending = false; lock = l; showWake("held");
          l.addEventListener("release", function () { lock = null; });
        }).catch(function () { pending = false; fallbackAwake(true); });
      }
    } else if (!video || video.paused) { fallbackAwake(true); }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("nsc:morphed", keepAwake);
  // A video may only start after a touch on some phones: retry on each tap until it runs.
  document.addEventListener("pointerdown", function () {
    if (document.documentElement.dataset.wakeLock !== "held" &&
        document.documentElement.dataset.wakeLock !== "fallback") { keepAwake(); }
  });
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
