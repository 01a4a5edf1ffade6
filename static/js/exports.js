// Exports run in the page (templates/macros/export.html, app/exports.py): a click on an
// a[data-export] fetches the file with an id of its own, shows the rows the server has written
// ("N of M rows", counted there, polled), and Cancel stops both the download and the server's
// reading. The finished file is saved under the server's name. Without this file the links are
// plain downloads. Loaded with `defer`; no inline scripts (strict CSP).
(function () {
  "use strict";

  if (window.bookdeskExports) { return; }  // a page swapped in again must not bind twice
  window.bookdeskExports = true;

  var POLL_MS = 400;
  var current = null;

  function panel() { return document.getElementById("export-progress"); }

  function number(value) {
    return Number(value).toLocaleString(document.documentElement.lang || undefined);
  }

  function say(run, key) {
    var text = run.box.getAttribute("data-" + key)
      .replace("{done}", number(run.rows)).replace("{total}", number(run.total));
    run.box.querySelector(".export-progress__text").textContent = text;
  }

  function show(run) {
    var bar = run.box.querySelector("progress");
    if (run.total) {
      bar.max = run.total;
      bar.value = Math.min(run.rows, run.total);
      say(run, "rows-of");
    } else {
      bar.removeAttribute("value");
      say(run, run.rows ? "rows" : "starting");
    }
  }

  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // The UTF-8 name (filename*, RFC 6266) when there is one: the plain one has no accents.
  function fileName(response) {
    var header = response.headers.get("Content-Disposition") || "";
    var utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
    if (utf8) {
      try { return decodeURIComponent(utf8[1]); } catch (error) { /* the plain name below */ }
    }
    var match = /filename="([^"]+)"/.exec(header);
    return match ? match[1] : null;
  }

  // One poll at a time; a record past "running" is the server's last word (it forgets it then).
  function poll(run) {
    if (run.pending) { return run.pending; }
    var url = run.box.getAttribute("data-progress-url") + "?export=" + run.id;
    run.pending = fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (response) { return response.status === 200 ? response.json() : null; })
      .then(function (record) {
        if (record && !run.over) {
          run.rows = record.rows;
          run.total = record.total;
          show(run);
        }
      })
      .catch(function () {})
      .then(function () { run.pending = null; });
    return run.pending;
  }

  function save(blob, name) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }

  function finish(run, state) {
    if (run.over) { return; }
    run.over = true;
    clearInterval(run.timer);
    var cancel = run.box.querySelector("[data-export-cancel]");
    if (document.activeElement === cancel) { run.link.focus(); }
    cancel.hidden = true;
    var bar = run.box.querySelector("progress");
    if (state === "done") {
      bar.max = Math.max(run.rows, 1);
      bar.value = bar.max;
    }
    run.box.querySelector(".alert").classList.toggle("alert--error", state === "failed");
    run.box.setAttribute("data-state", state);
    say(run, state);
    if (current === run) { current = null; }
  }

  function place(box, link) {
    var header = link.closest(".page-header");
    var anchor = header || link.parentNode;
    if (box.previousElementSibling !== anchor) { anchor.after(box); }
  }

  function start(link, box) {
    var run = {id: randomId(), link: link, box: box, rows: 0, total: null, over: false,
               controller: new AbortController()};
    current = run;
    place(box, link);
    box.querySelector(".alert").classList.remove("alert--error");
    box.classList.add("messages");  // the flash messages' spacing (its display keeps it shown)
    box.setAttribute("data-state", "running");
    box.querySelector("[data-export-cancel]").hidden = false;
    box.hidden = false;
    show(run);
    run.timer = setInterval(function () { poll(run); }, POLL_MS);
    var url = link.href + (link.href.indexOf("?") < 0 ? "?" : "&") + "export=" + run.id;
    fetch(url, {signal: run.controller.signal, credentials: "same-origin"})
      .then(function (response) {
        var name = fileName(response);
        if (!response.ok || !name) { throw new Error("no file"); }
        var total = response.headers.get("Export-Total");
        if (total !== null && !run.rows) { run.total = Number(total); show(run); }
        return response.blob().then(function (blob) { save(blob, name); });
      })
      .then(function () {
        clearInterval(run.timer);
        // The last count: after any poll in flight, the server's final record.
        return Promise.resolve(run.pending).then(function () { return poll(run); });
      })
      .then(function () { finish(run, "done"); })
      .catch(function () { finish(run, "failed"); });
  }

  function cancel() {
    var run = current;
    if (!run || run.over) { return; }
    var body = new URLSearchParams();
    body.set("export", run.id);
    finish(run, "cancelled");
    fetch(run.box.getAttribute("data-cancel-url"), {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"X-CSRFToken": csrfToken()}
    }).catch(function () {});
    run.controller.abort();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-export-cancel]")) { cancel(); return; }
    var link = event.target.closest("a[data-export]");
    var box = panel();
    if (!link || !box || !window.fetch || !window.AbortController || event.button !== 0 ||
        event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    if (!current) { start(link, box); }
  });
})();
