// The new-play form remembers the table on this device: names and colours of the last play
// fill the seats next time (localStorage, nothing leaves the phone). No inline script: CSP.
(function () {
  "use strict";
  var form = document.getElementById("new-play");
  if (!form) { return; }
  var KEY = "nsc.table";
  // the table's time zone (minutes east of UTC): BG Stats dates the play by its local start
  var offset = document.getElementById("utc-offset");
  if (offset && !offset.value) { offset.value = String(-new Date().getTimezoneOffset()); }
  var seats = form.querySelectorAll(".seat[data-seat]");

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function pick(i, colour) {
    var radio = form.querySelector('input[name="colour' + i + '"][value="' + colour + '"]');
    if (radio) { radio.checked = true; }
  }

  // Fill only an untouched form: a form sent back with an error keeps what was typed.
  var untouched = !form.querySelector("#form-error") &&
    Array.prototype.every.call(seats, function (s) { return !s.querySelector("input[id^=name]").value; });
  if (untouched) {
    load().slice(0, seats.length).forEach(function (p, i) {
      if (!p || typeof p.name !== "string") { return; }
      var input = form.querySelector("#name" + i);
      if (input) { input.value = p.name; }
      if (p.colour) { pick(i, p.colour); }
    });
  }

  form.addEventListener("submit", function () {
    var table = [];
    seats.forEach(function (s) {
      var i = s.dataset.seat, name = form.querySelector("#name" + i).value.trim();
      var colour = form.querySelector('input[name="colour' + i + '"]:checked');
      if (name) { table.push({ name: name, colour: colour ? colour.value : null }); }
    });
    try { localStorage.setItem(KEY, JSON.stringify(table)); } catch (e) { /* private mode */ }
  });
})();
