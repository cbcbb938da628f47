// kit dev live-reload client, served at /_kit/dev/client.js by `kit dev` only: builds never link it.
// Plain browser JavaScript, no dependencies. It listens on /_kit/dev/events for this page:
//   reload   the page's HTML changed: reload it, keeping the scroll position;
//   css      stylesheets changed: [[old href, new href], ...] swapped in place, no reload;
//   overlay  the workspace has errors (or a request failed): show the overlay HTML the server made;
//   clear    no errors any more: remove the overlay.
// After an SPA navigation (kit:after-navigate) it listens for the new page instead.
(function () {
  'use strict';
  var w = window;
  if (w.__kitDev) return;
  w.__kitDev = true;
  var SCROLL = 'kit-dev-scroll';
  var OVERLAY = 'kit-dev-overlay';
  var source = null;

  function here() {
    return location.pathname + location.search;
  }

  // A reload this client asked for comes back to where the reader was.
  try {
    var saved = JSON.parse(sessionStorage.getItem(SCROLL) || 'null');
    sessionStorage.removeItem(SCROLL);
    if (saved && saved.at === here()) {
      var restore = function () {
        w.scrollTo(saved.x, saved.y);
      };
      if (document.readyState === 'complete') restore();
      else w.addEventListener('load', restore, { once: true });
      restore();
    }
  } catch (_e) {
    /* storage off: reloads start at the top */
  }

  function reload() {
    try {
      sessionStorage.setItem(SCROLL, JSON.stringify({ at: here(), x: w.scrollX, y: w.scrollY }));
    } catch (_e) {
      /* storage off */
    }
    location.reload();
  }

  function swapCss(pairs) {
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    pairs.forEach(function (pair) {
      for (var i = 0; i < links.length; i++) {
        var old = links[i];
        if (old.getAttribute('href') !== pair[0]) continue;
        var next = old.cloneNode();
        next.setAttribute('href', pair[1]);
        // The old sheet stays until the new one applies: no flash of unstyled content.
        next.addEventListener('load', function () {
          if (this.__old && this.__old.parentNode) this.__old.parentNode.removeChild(this.__old);
        });
        next.__old = old;
        old.parentNode.insertBefore(next, old.nextSibling);
      }
    });
  }

  function clearOverlay() {
    var el = document.getElementById(OVERLAY);
    if (el) el.parentNode.removeChild(el);
  }

  function showOverlay(html) {
    clearOverlay();
    var box = document.createElement('div');
    // The server escaped every text it put in this HTML.
    box.innerHTML = html;
    var el = box.firstElementChild;
    if (el) (document.body || document.documentElement).appendChild(el);
  }

  function connect() {
    if (source) source.close();
    source = new EventSource('/_kit/dev/events?path=' + encodeURIComponent(location.pathname));
    source.addEventListener('reload', reload);
    source.addEventListener('css', function (e) {
      swapCss(JSON.parse(e.data));
    });
    source.addEventListener('overlay', function (e) {
      showOverlay(JSON.parse(e.data));
    });
    source.addEventListener('clear', clearOverlay);
  }

  connect();
  document.addEventListener('kit:after-navigate', connect);
})();
