// North Sea Companion: the play page as a live instrument shared by several phones.
//
// The server owns the state; this phone owns what is being typed and what has not reached the
// server yet. Three parts, with as little code of our own as htmx allows:
// - Outbox. Every change made on this page (a tap, a typed number, a turn) becomes an entry with
//   an idempotency key, kept in localStorage and sent in order. Offline or on a slow link the
//   entries wait ("2 changes waiting") and go out when the link is back; a repeated key is
//   recorded once by the server, so a retry can never count a tap twice.
// - Morph. A fresh play block is merged into the page by idiomorph (htmx's morphing swap), which
//   keeps focus, open sections and every field a person has changed and not yet sent. The phone
//   says which parts of the block it holds (X-Parts: their hashes); the server sends the parts
//   that changed and an empty placeholder (data-keep) for each of the others (web/parts.py).
// - Live. The server pushes "version N" over server-sent events (htmx's SSE extension); the
//   phone then fetches the block. When the stream is down it polls instead.
(function () {
  "use strict";
  // Words the script writes itself, in the page's language: app.js's word() (base.html's
  // #nsc-words block).
  var word = window.nscWord;
  var root = document.getElementById("play-root");
  if (!root || !window.Idiomorph) { return; }
  var playId = root.dataset.playId;
  var pollUrl = root.dataset.pollUrl;
  var KEYS = { queue: "nsc.outbox." + playId, typed: "nsc.typed." + playId,
               open: "nsc.open." + playId };
  var SEND_TIMEOUT = 15000, POLL_EVERY = 2000, SAFETY_EVERY = 30000, MAX_BACKOFF = 10000;

  function load(key, fallback) {
    try { var v = JSON.parse(localStorage.getItem(key)); return v == null ? fallback : v; }
    catch (e) { return fallback; }
  }
  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function randomId() {   // crypto.randomUUID needs https; getRandomValues works on a LAN's http
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  var device = load("nsc.device", null);
  if (!device) { device = randomId(); save("nsc.device", device); }
  // the same id as a cookie: a full page load (a reload, a QR scan) cannot send the header,
  // and the server needs it to show this phone's own "undo my last change" at once
  document.cookie = "nsc_device=" + device + "; path=/; max-age=31536000; SameSite=Lax";
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }
  function playEl() { return document.getElementById("play"); }
  function shownVersion() { var p = playEl(); return p ? Number(p.dataset.version) : -1; }

  var queue = load(KEYS.queue, []);   // entries not yet acknowledged, oldest first
  var notes = [];                     // refused entries, shown next to their control
  var sending = false, stale = false, backoff = 0, retryTimer = null, live = false;
  var mine = {};   // versions this phone's own changes produced: they never make it stale

  // ------------------------------------------------------------------ what a person changed
  // A field a person has changed and not yet sent is "typed": kept across morphs and reloads.
  function fieldKey(el) {   // an id, or that of the label around it (a setup tick box)
    var label = !el.id && el.closest && el.closest("label[id]");
    return el.id || (label ? "label:" + label.id : null);
  }
  function byKey(key) {
    if (key.indexOf("label:") !== 0) { return document.getElementById(key); }
    var label = document.getElementById(key.slice(6));
    return label && label.querySelector("input");
  }
  function rememberTyped() {
    var typed = {};
    document.querySelectorAll("#play [data-nsc-typed]").forEach(function (el) {
      var key = fieldKey(el);
      if (!key) { return; }
      typed[key] = el.type === "checkbox" ? { checked: el.checked } : { value: el.value };
      if (wholeForm(el)) { typed[key].form = formKey(el.form); }
    });
    save(KEYS.typed, typed);
  }
  function markTyped(e) {
    var el = e.target;
    if (el.type === "hidden" || !el.closest || !el.closest("#play")) { return; }
    var group = el.type === "radio" && el.name && el.form ?   // a radio group is one answer
      el.form.querySelectorAll("input[type=radio][name='" + CSS.escape(el.name) + "']") : [el];
    Array.prototype.forEach.call(group, function (one) { one.dataset.nscTyped = "1"; });
    el.dataset.nscEdited = "1";            // typed since this phone last sent it
    rememberTyped();
  }
  document.addEventListener("input", markTyped, true);
  function clearTyped(el) {
    if (el && el.dataset && el.dataset.nscTyped) { delete el.dataset.nscTyped; rememberTyped(); }
  }
  // ------------------------------------------------------------------ leaving a box
  // A typed box is saved however it is left: the next box or a tap elsewhere (the browser's
  // "change"), Enter, the screen locking or the page going away (reload, back button), and a
  // reload that put it back. A form sent box by box is one whose boxes are changes of their own.
  function perField(form) {
    return !!form && (form.classList.contains("sheet-form") || form.hasAttribute("data-nsc-per-field") ||
                      /(^|[\s,])change\b/.test(form.getAttribute("hx-trigger") || ""));
  }
  // A form sent whole (a turn, a round's card) holds what is typed for one turn or round: its
  // key is its hidden fields (whose turn) and its data-for (which turn or round). What was
  // typed in it belongs to that key, on this phone and after a reload: once another phone
  // ends the turn, the next player's boxes show their own values, not what was typed here.
  function wholeForm(el) { return !!el.form && !perField(el.form); }
  function formKey(form) { return formSig(form) + "|" + (form.getAttribute("data-for") || ""); }
  // Before a morph: a typed box whose whole form the fresh block no longer holds, or holds for
  // another turn or round, is typed no more (its part unchanged, a placeholder, keeps it).
  var dropping = [];
  function dropOtherTurns(fresh) {
    dropping = [];
    document.querySelectorAll("#play [data-nsc-typed]").forEach(function (el) {
      if (!wholeForm(el)) { return; }
      var part = el.closest("[data-h][id]");
      var held = part && fresh.querySelector("#" + CSS.escape(part.id));
      if (held && held.hasAttribute("data-keep")) { return; }
      var named = el.form.id ? el.form : el.form.querySelector("[id]");
      var twin = named && fresh.querySelector("#" + CSS.escape(named.id));
      var form = twin && (twin.tagName === "FORM" ? twin : twin.form || twin.closest("form"));
      if (form && formKey(form) === formKey(el.form)) { return; }
      delete el.dataset.nscTyped;
      delete el.dataset.nscEdited;
      dropping.push(el);
    });
    if (dropping.length) { rememberTyped(); }
  }
  function isBox(el) {
    return el && el.tagName === "INPUT" && !/^(checkbox|radio|hidden|submit|button)$/.test(el.type);
  }
  // Enter leaves the box, which saves it. (The browser's own Enter would submit the form with
  // its first button, a stepper's "−", as if it had been tapped.)
  document.addEventListener("keydown", function (e) {
    var el = e.target;
    if (e.key !== "Enter" || e.isComposing || !isBox(el) || !el.closest("#play") || !perField(el.form)) { return; }
    e.preventDefault();
    el.blur();
  }, true);
  // A number put back after a reload fires no "change" when its box is left, so a sheet field
  // that still differs from what was last sent is sent on leaving it, as if typed just now.
  document.addEventListener("focusout", function (e) {
    var el = e.target;
    if (!el.dataset || !el.dataset.nscTyped || !perField(el.form) || !isBox(el)) { return; }
    if (el.value === (el.dataset.nscSent || el.defaultValue)) { return; }
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
  // The box as left just now: its change goes into the outbox (enqueue skips one sent already).
  function commit(el) {
    var path = el.form && el.form.getAttribute("hx-post");
    if (path) { enqueue(el.form, { path: path, triggeringEvent: { type: "change", target: el } }); }
  }
  function queued(el) { return queue.some(function (q) { return q.field === el.id; }); }
  // Every box typed and not sent yet, when the page may be about to go (the screen locks, the
  // browser goes back or reloads): into the outbox, which goes out even as the page closes.
  function commitTyped() {
    document.querySelectorAll("#play [data-nsc-edited]").forEach(function (el) {
      if (isBox(el) && perField(el.form)) { commit(el); }
    });
  }
  function restoreTyped() {   // after a reload: put back what was typed and not sent, and send it
    var typed = load(KEYS.typed, {});
    Object.keys(typed).forEach(function (id) {
      var el = byKey(id);
      if (!el || el.disabled) { return; }
      if (wholeForm(el) && typed[id].form !== formKey(el.form)) { return; }   // another turn's
      if ("checked" in typed[id]) { el.checked = typed[id].checked; } else { el.value = typed[id].value; }
      el.dataset.nscTyped = "1";
      if (!isBox(el) || !perField(el.form) || queued(el)) { return; }   // (already on its way)
      if (el.value === el.defaultValue) { clearTyped(el); } else { commit(el); }
    });
  }

  // A section the person opened or closed stays as they left it (across morphs and reloads);
  // a morph never opens or folds one (keepPersonal), so the server's choice counts only on a
  // page load and for a section new on the page. Choices come from taps on a summary.
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("summary");
    var d = summary && summary.parentElement;
    if (!d || d.tagName !== "DETAILS" || !d.id || !d.closest("#play-root")) { return; }
    var open = load(KEYS.open, {});
    open[d.id] = !d.open;
    save(KEYS.open, open);
  }, true);
  function restoreOpen() {
    var open = load(KEYS.open, {});
    Object.keys(open).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS" && d.open !== open[id]) { d.open = open[id]; }
    });
  }

  // ------------------------------------------------------------------ morph
  function keepPersonal(attr, el) {
    if (attr.indexOf("data-nsc-") === 0) { return false; }
    // A section is opened and folded by the person holding this phone, never by a change
    // (this phone's or another's): the server's "open" counts only for a section new here.
    if (el.tagName === "DETAILS" && attr === "open") { return false; }
    if ((attr === "value" || attr === "checked") && el.dataset && el.dataset.nscTyped) { return false; }
    // The box being typed in keeps its value (idiomorph's own ignoreActiveValue would also
    // freeze a focused button's label, e.g. "Pause clock" after it was tapped).
    if (attr === "value" && el === document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) &&
        dropping.indexOf(el) < 0) { return false; }
    return true;
  }
  // The parts this phone holds, as the server stamped them: sent with every poll and change.
  function heldParts() {
    return Array.prototype.map.call(document.querySelectorAll("#play [data-h]"),
                                    function (el) { return el.dataset.h; }).join(" ");
  }
  function placeholder(node) { return node.nodeType === 1 && node.hasAttribute("data-keep"); }
  // False when the answer cannot be used: older than what is shown, or naming a part this
  // phone no longer holds as it was (then the whole block is asked for).
  function morph(html) {
    var current = playEl();
    if (!current || !html) { return true; }
    var box = document.createElement("template");
    box.innerHTML = html;
    var fresh = box.content.querySelector("#play");
    if (!fresh) { return true; }
    if (Number(fresh.dataset.version) < shownVersion()) { return true; }
    var kept = fresh.querySelectorAll("[data-keep]");
    for (var i = 0; i < kept.length; i++) {
      var mine = document.getElementById(kept[i].id);
      if (!mine || mine.dataset.h !== kept[i].dataset.h) { return false; }
    }
    var banner = fresh.querySelector(":scope > p.error[role=alert]");   // shown next to the control instead
    if (banner) { banner.remove(); }
    removeNotes();
    dropOtherTurns(fresh);
    Idiomorph.morph(current, fresh, { morphStyle: "outerHTML",
                                      callbacks: { beforeAttributeUpdated: keepPersonal,
                                                   beforeNodeMorphed: function (old, node) { return !placeholder(node); } } });
    dropping = [];
    var now = playEl();
    if (window.htmx) { htmx.process(now); }
    restoreOpen();
    showNotes();
    document.dispatchEvent(new CustomEvent("nsc:morphed"));
    return !now.querySelector("[data-keep]");
  }

  // ------------------------------------------------------------------ fetching the block
  // One fetch at a time; a push that arrives meanwhile asks for one more afterwards, so the
  // last change of a burst is never missed (with the stream open nothing else would poll).
  var fetching = false, again = false, whole = false;
  function refresh() {
    if (queue.length || sending) { stale = true; return; }
    if (document.visibilityState === "hidden") { return; }
    if (fetching) { again = true; return; }
    fetching = true; stale = false; again = false;
    var headers = { "HX-Request": "true", "X-Device-Id": device };
    if (!whole) { headers["X-Parts"] = heldParts(); }
    var url = pollUrl + (whole ? "" : "?version=" + shownVersion());
    whole = false;
    function done() { fetching = false; if (again || stale) { refresh(); } }
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        if (html && !queue.length && !sending) { if (!morph(html)) { whole = again = true; } }
        else if (html) { stale = true; }
        fetching = false;
        if (again) { refresh(); }
      }, done);
  }

  // ------------------------------------------------------------------ the outbox
  function setStatus() {
    var el = document.getElementById("outbox");
    if (!el) { return; }
    var n = queue.length, text = "";
    if (n) {
      text = (n === 1 ? word("1 change waiting") : word("%(n)s changes waiting", { n: n })) +
        (navigator.onLine === false || backoff ? word(" · no connection") : word(" · sending…"));
    }
    el.hidden = !text;
    el.textContent = text;
    el.dataset.state = n ? (backoff || navigator.onLine === false ? "offline" : "sending") : "idle";
    root.dataset.waiting = String(n);
  }
  function persist() { save(KEYS.queue, queue); setStatus(); }

  // Where a message about a change will stand: the control's id, or else a signature of its
  // form (its hidden fields) and of the button, found again after any number of morphs.
  function anchorOf(el) {
    if (el && el.closest && el.closest(".stepper")) {
      var input = el.closest(".stepper").querySelector("input[id]");
      if (input) { return { id: input.id }; }
    }
    if (el && el.id) { return { id: el.id }; }
    var form = el && (el.tagName === "FORM" ? el : el.form);
    if (!form) { return { id: "play" }; }
    if (form.id) { return { id: form.id, button: buttonSig(el) }; }
    return { form: formSig(form), button: buttonSig(el) };
  }
  function formSig(form) {
    var parts = [];
    form.querySelectorAll("input[type=hidden]").forEach(function (h) {
      if (h.name !== "expected_version") { parts.push(h.name + "=" + h.value); }
    });
    return parts.join("&");
  }
  function buttonSig(el) {
    return el && el.tagName === "BUTTON" ? (el.name || "") + "=" + (el.value || "") + "|" + el.textContent.trim() : null;
  }
  function findAnchor(anchor) {
    var at = null;
    if (anchor.id) { at = document.getElementById(anchor.id); }
    else {
      document.querySelectorAll("#play form").forEach(function (f) {
        if (!at && formSig(f) === anchor.form) { at = f; }
      });
    }
    if (at && anchor.button) {
      at.querySelectorAll("button").forEach(function (b) {
        if (buttonSig(b) === anchor.button) { at = b; }
      });
    }
    return at;
  }

  function sheetBody(form, event) {
    var params = new URLSearchParams(), submitter = event && event.submitter;
    form.querySelectorAll("input[type=hidden]").forEach(function (h) {
      if (h.name && h.name !== "expected_version" && !/^f:/.test(h.name)) { params.append(h.name, h.value); }
    });
    var changed = event && event.type === "change" ? event.target : null;
    if (changed && changed.name) {
      params.append(changed.name, changed.type === "checkbox" ? String(changed.checked) : changed.value);
      return { params: params, field: changed };
    }
    if (submitter && submitter.name) {
      params.append(submitter.name, submitter.value);
      return { params: params, control: submitter };
    }
    form.querySelectorAll("[data-nsc-typed]").forEach(function (el) {   // Enter in a box
      params.append(el.name, el.type === "checkbox" ? String(el.checked) : el.value);
    });
    return { params: params };
  }

  function formBody(form, event) {
    var submitter = event && event.submitter;
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    return { params: new URLSearchParams(data), control: submitter };
  }

  // A tap on a +/- (a delta: add:<field>, or a game counter's d:add / d:steps) is shown at
  // once; the server's answer confirms it once nothing waits any more.
  var DELTA = /^(add:.+|d:add|d:steps)$/;
  function showTapAtOnce(control) {
    var stepper = control && control.name && DELTA.test(control.name) && control.closest(".stepper");
    var box = stepper && (stepper.querySelector("input:not([type=hidden])") || stepper.querySelector("output"));
    var step = control && parseInt(control.value, 10);
    if (!box || isNaN(step)) { return null; }
    var isInput = box.tagName === "INPUT";
    var v = (parseInt(isInput ? box.value : box.textContent, 10) || 0) + step;
    var min = isInput && box.min !== "" ? Number(box.min) : 0;
    if (v < min) { v = min; }
    if (isInput && box.max !== "" && v > Number(box.max)) { v = Number(box.max); }
    var was = parseInt(isInput ? box.value : box.textContent, 10) || 0;
    if (isInput) { box.value = String(v); } else { box.textContent = String(v); }
    return isInput && box.id ? { id: box.id, added: v - was } : null;
  }
  // A refused tap takes back what it showed at once: nothing changed, so the answer holds no
  // fresh copy of its part, and the box kept a count that was never recorded (7 pigs shown,
  // 5 recorded).
  var shownHere = {};
  function takeBackTap(entry) {
    var added = shownHere[entry.key];
    delete shownHere[entry.key];
    var box = added && document.getElementById(entry.shown);
    if (!box || box.dataset.nscTyped) { return; }
    box.value = String((parseInt(box.value, 10) || 0) - added);
  }

  function sentNow(fields) {
    Array.prototype.forEach.call(fields, function (el) {
      el.dataset.nscSent = el.value;
      delete el.dataset.nscEdited;
    });
  }

  // The sections around what a person is working on stay open for them (an island the
  // server would fold once it has pieces must not fold under the next tap).
  function keepOpenAround(el) {
    var open = load(KEYS.open, {}), d = el && el.closest && el.closest("details[id]");
    while (d) {
      if (d.open) { open[d.id] = true; }
      d = d.parentElement && d.parentElement.closest("details[id]");
    }
    save(KEYS.open, open);
  }

  // A change that ends a turn, a round or the game: once recorded, a note beside its button
  // says what it ended, with a one-tap undo.
  var ENDS = /^(advance|turn|finish)$/;

  function enqueue(form, detail) {
    var event = detail.triggeringEvent;
    keepOpenAround(form);
    var oneByOne = form.classList.contains("sheet-form") || form.hasAttribute("data-nsc-per-field");
    var built = oneByOne ? sheetBody(form, event) : formBody(form, event);
    // A value this phone already sent and nobody typed since is not sent twice (the browser
    // fires "change" again when a box is left after Enter or after a scripted change).
    var f = built.field;
    if (f && f.type !== "checkbox" && !f.dataset.nscEdited &&
        (f.dataset.nscSent === f.value ||
         (f.value === f.defaultValue && !queue.some(function (q) { return q.field === f.id; })))) { return; }
    var edited = form.querySelectorAll("[data-nsc-edited]");
    sentNow(!oneByOne ? edited : f ? [f] : built.control ? [] : edited);
    var control = built.field || built.control || form;
    var entry = { key: randomId(), url: detail.path, body: built.params.toString(),
                  anchor: anchorOf(control), at: Date.now(), seen: shownVersion(),
                  field: built.field && built.field.id ? built.field.id : null,
                  form: form.id || null, whole: !oneByOne,
                  ends: ENDS.test(built.params.get("type") || ""),
                  label: built.control && built.control.tagName === "BUTTON" ? built.control.textContent.trim() : null };
    var shown = showTapAtOnce(built.control);
    if (shown) { entry.shown = shown.id; shownHere[entry.key] = shown.added; }
    queue.push(entry);
    persist();
    pump();
  }

  function schedule() {
    if (retryTimer) { return; }
    backoff = Math.min(backoff ? backoff * 2 : 1000, MAX_BACKOFF);
    setStatus();
    retryTimer = setTimeout(function () { retryTimer = null; pump(); }, backoff);
  }

  // A change that must not cross another phone's (a turn, a phase) was made against the version
  // its person saw; this phone's own changes queued before it do not count as crossing it.
  function bodyToSend(entry) {
    var params = new URLSearchParams(entry.body);
    if (!params.has("expected_version") || entry.seen == null) { return entry.body; }
    var v = entry.seen;
    while (mine[v + 1]) { v += 1; }
    params.set("expected_version", String(v));
    return params.toString();
  }
  function versionIn(html) {
    var box = document.createElement("template");
    box.innerHTML = html || "";
    var p = box.content.querySelector("#play");
    return p && p.dataset.version ? Number(p.dataset.version) : null;
  }

  function headersOf(entry) {
    return { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
             "Idempotency-Key": entry.key, "X-Device-Id": device, "X-CSRFToken": csrfToken(),
             "X-Parts": heldParts() };
  }
  // The page may be going away: every waiting change is sent with keepalive, which outlives
  // the page. The outbox keeps them all the same; a repeat of a key the server has already
  // recorded records nothing, so the next load (or this one, if it stays) sends them safely.
  function sendAsLeaving() {
    if (navigator.onLine === false) { return; }
    queue.forEach(function (entry) {
      try {
        fetch(entry.url, { method: "POST", body: bodyToSend(entry), credentials: "same-origin",
                           keepalive: true, headers: headersOf(entry) }).catch(function () {});
      } catch (e) { /* too much for keepalive: the outbox sends it next time */ }
    });
  }
  function leaving() { commitTyped(); sendAsLeaving(); }

  function pump() {
    if (sending || !queue.length) { setStatus(); if (!queue.length && stale) { refresh(); } return; }
    if (navigator.onLine === false) { backoff = backoff || 1000; setStatus(); return; }
    sending = true;
    var entry = queue[0];
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, SEND_TIMEOUT);
    setStatus();
    fetch(entry.url, {
      method: "POST", body: bodyToSend(entry), credentials: "same-origin", signal: controller.signal,
      headers: headersOf(entry)
    }).then(function (r) {
      return r.text().then(function (html) { return { status: r.status, html: html }; });
    }).then(function (answer) {
      clearTimeout(timer);
      sending = false;
      settle(entry, answer);
    }, function () {   // no answer: the link is down or too slow; the same key is sent again
      clearTimeout(timer);
      sending = false;
      schedule();
    });
  }

  // A whole form recorded (a turn ended): what was typed in it has been said, so the next
  // answer's values stand in its boxes (the next player's own), not this turn's numbers;
  // a box typed in again since it was sent stays typed. The form is found as the change's
  // anchor is (its id, else its hidden fields and button): the page is not morphed while a
  // change is on its way.
  function sentForm(entry) {
    var at = entry.form ? document.getElementById(entry.form) : findAnchor(entry.anchor);
    var form = at && (at.tagName === "FORM" ? at : at.form);
    if (!form) { return; }
    form.querySelectorAll("[data-nsc-typed]").forEach(function (el) {
      if (!el.dataset.nscEdited) { clearTyped(el); }
    });
  }

  function messageIn(html) {
    var box = document.createElement("template");
    box.innerHTML = html || "";
    var p = box.content.querySelector("#play-error, .error[role=alert]");
    return p ? p.textContent.trim() : "";
  }

  function settle(entry, answer) {
    var status = answer.status;
    if (status === 429 || status >= 500 || status === 0) { schedule(); return; }
    backoff = 0;
    queue.shift();
    persist();
    if (status < 200 || status >= 300) { takeBackTap(entry); }
    if (status >= 200 && status < 300) {
      var produced = versionIn(answer.html);
      if (produced != null) { mine[produced] = true; }
      var field = entry.field && document.getElementById(entry.field);
      if (field) { clearTyped(field); }
      if (entry.ends) { noteDone(entry, answer.html); }      // (shown by the morph below)
      if (entry.whole) { sentForm(entry); }
    } else if (status === 403 || status === 404) {
      notes.push({ entry: entry, text: word("This phone may no longer change this play (the link is view only or the play is gone).") });
    } else {
      var what = entry.label ? word("“%(label)s”", { label: entry.label }) : word("Your change");
      // the same refusal again beside the same control (a tap repeated past a limit) is said
      // once; a conflict keeps each, for each has its own "Try again"
      var said = messageIn(answer.html), at = JSON.stringify(entry.anchor);
      notes = notes.filter(function (n) {
        return n.conflict || n.done || !said || n.text !== said ||
          JSON.stringify(n.entry.anchor) !== at;
      });
      notes.push({ entry: entry, conflict: status === 409,
                   text: status === 409
                     ? word("%(what)s was not recorded: another phone changed the play first. Check the screen, then try again if it still applies.", { what: what })
                     : messageIn(answer.html) || word("%(what)s was not recorded.", { what: what }) });
    }
    if (!queue.length && answer.html && status !== 403 && status !== 404) {
      if (!morph(answer.html)) { whole = true; refresh(); }
    } else { showNotes(); }
    pump();
  }

  // ------------------------------------------------------------------ messages beside controls
  // "Done: End of round 2 · ↶ Undo": the change in words is the one this phone's Undo names
  // now (its own last change), read from the answer (its controls are sent whenever the
  // label changed; else they are a placeholder and the page's own still say it).
  var DONE_FOR = 10000;
  function noteDone(entry, html) {
    var box = document.createElement("template");
    box.innerHTML = html || "";
    var undo = box.content.querySelector("[data-undo-mine][data-change]") ||
      document.querySelector("#play [data-undo-mine][data-change]");
    if (!undo) { return; }
    var note = { entry: entry, done: true,
                 text: word("Done: %(change)s", { change: undo.dataset.change }) };
    notes = notes.filter(function (n) { return !n.done; });
    notes.push(note);
    setTimeout(function () {
      var at = notes.indexOf(note);
      if (at >= 0) { notes.splice(at, 1); showNotes(); }
    }, DONE_FOR);
  }
  function removeNotes() {
    document.querySelectorAll("[data-nsc-note]").forEach(function (n) { n.remove(); });
  }
  function showNotes() {
    removeNotes();
    notes.forEach(function (note, i) {
      var head = note.done && document.getElementById("play-head");
      var at = head || findAnchor(note.entry.anchor) || playEl();
      if (!at) { return; }
      var box = document.createElement("div");
      box.className = note.done ? "tap-note done" : "tap-note";
      box.setAttribute("role", note.done ? "status" : "alert");
      box.dataset.nscNote = String(i);
      var text = document.createElement("span");
      text.textContent = note.text;
      box.appendChild(text);
      if (note.conflict) { box.appendChild(noteButton(word("Try again"), "retry", i)); }
      if (note.done) { box.appendChild(noteButton("↶ " + word("Undo"), "undo", i)); }
      box.appendChild(noteButton(note.conflict ? word("Drop it") : word("OK"), "drop", i));
      var holder = at.closest("[role=toolbar]") || at.closest(".stepper") ||
        (at.tagName === "BUTTON" && at.form) || at.closest("label") || at;
      // what a tap ended lies over the play's title, just above the Undo that names it: it
      // moves nothing (the next move stays where it was, on the first screen)
      if (head) { head.insertBefore(box, head.firstChild); }
      else if (holder.id === "play") { holder.insertBefore(box, holder.firstChild); }
      else { holder.insertAdjacentElement("afterend", box); }
    });
  }
  function noteButton(label, action, i) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = label;
    b.dataset.nscAction = action; b.dataset.nscIndex = String(i);
    return b;
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[data-nsc-action]");
    if (!b) { return; }
    var note = notes[Number(b.dataset.nscIndex)];
    if (!note) { return; }
    notes.splice(notes.indexOf(note), 1);
    if (b.dataset.nscAction === "undo") {     // this phone's own last change: the one named
      var undo = document.querySelector("#play [data-undo-mine]");
      if (undo && !undo.disabled) { undo.click(); }
    }
    if (b.dataset.nscAction === "retry") {   // the same change against the state now shown
      var params = new URLSearchParams(note.entry.body);
      if (params.has("expected_version")) { params.set("expected_version", String(shownVersion())); }
      queue.push(Object.assign({}, note.entry, { key: randomId(), body: params.toString(),
                                                 seen: shownVersion() }));
      persist();
      pump();
    }
    showNotes();
  });

  // ------------------------------------------------------------------ taking over htmx's posts
  document.body.addEventListener("htmx:configRequest", function (e) {
    var d = e.detail;
    if (d.verb === "get" || !d.elt.closest || !d.elt.closest("#play")) { return; }
    e.preventDefault();
    var form = d.elt.tagName === "FORM" ? d.elt : d.elt.closest("form");
    if (form) { enqueue(form, d); }
  });

  // ------------------------------------------------------------------ live: push, then fetch
  document.body.addEventListener("htmx:sseOpen", function () { live = true; refresh(); });
  document.body.addEventListener("htmx:sseError", function () { live = false; });
  document.body.addEventListener("sse:version", function (e) {
    var version = Number(e.detail && e.detail.data);
    if (version !== shownVersion()) { refresh(); }
  });
  setInterval(function () { if (!live) { refresh(); } }, POLL_EVERY);
  setInterval(refresh, SAFETY_EVERY);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { leaving(); } else { pump(); refresh(); }
  });
  window.addEventListener("pagehide", leaving);
  window.addEventListener("pageshow", function (e) { if (e.persisted) { pump(); refresh(); } });
  window.addEventListener("online", function () { backoff = 0; pump(); refresh(); });
  window.addEventListener("offline", setStatus);

  // ------------------------------------------------------------------ start
  restoreTyped();
  restoreOpen();
  queue.forEach(function (entry) {   // after a reload: show the taps still on their way
    if (!entry.shown) { return; }
    var params = new URLSearchParams(entry.body), input = document.getElementById(entry.shown);
    params.forEach(function (value, name) {
      if (input && /^add:/.test(name)) {
        shownHere[entry.key] = parseInt(value, 10);
        input.value = String((parseInt(input.value, 10) || 0) + shownHere[entry.key]);
      }
    });
  });
  setStatus();
  pump();
})();
