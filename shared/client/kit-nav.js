// kit SPA link runtime (emitted as /assets/kit/kit.js). Plain browser JavaScript, no dependencies,
// no build step. It makes same-origin links fetch the next page's HTML and swap head and body in
// place; every page still works without it (direct open, refresh, no JavaScript).
//
// - Intercepts left clicks without modifier keys on `<a href>` links to the same origin that have
//   no `target` (other than _self) or `download` and are not a hash link on the same page.
// - Dispatches `kit:before-navigate` {link, url} (cancelable: cancelling leaves the click to the
//   browser) and, after the swap, `kit:after-navigate` {url, source: 'link' | 'popstate'}.
// - Fetches with `Accept: text/html` and `X-Kit-Navigate: 1`; a non-2xx answer, a non-HTML answer, a
//   cross-origin redirect or any error falls back to a full navigation.
// - Replaces the head (elements already present are kept, so stylesheets do not reload; scripts
//   not seen before run once) and the body; pushes history; handles back/forward (`popstate`).
// - Focus and scroll: the hash target when there is one, else the element that had focus (by id
//   or name) when the new page has it, else the top; back/forward restores the saved position.
// - Announces the new title in an aria-live region for screen readers.
// - Prefetches on hover (after 65 ms), focus and touchstart; keeps up to 8 answers, each used once.
(function () {
  'use strict';
  var w = window;
  var doc = document;
  if (w.kit && w.kit.navigate) return; // already running (a swapped-in head lists this script again)
  var kit = (w.kit = w.kit || {});
  var prefetched = new Map();
  var seenScripts = new Set();
  var current = location.href;
  var hoverTimer = 0;
  var navId = 0;

  try {
    history.scrollRestoration = 'manual';
  } catch (_e) {
    /* older browsers */
  }
  doc.querySelectorAll('script[src]').forEach(function (s) {
    seenScripts.add(s.src);
  });

  function pageKey(href) {
    var u = new URL(href, location.href);
    u.hash = '';
    return u.href;
  }

  // The URL to navigate to for a link, or null when the browser should handle it.
  function target(a) {
    if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return null;
    var url = new URL(a.href, location.href);
    if (url.origin !== location.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return null;
    return url;
  }

  function linkOf(e) {
    var t = e.target;
    return t && t.closest ? t.closest('a[href]') : null;
  }

  function load(href, prefetch) {
    var headers = { Accept: 'text/html', 'X-Kit-Navigate': '1' };
    if (prefetch) headers['X-Kit-Prefetch'] = '1';
    return fetch(pageKey(href), { headers: headers, credentials: 'same-origin' }).then(function (r) {
      var type = r.headers.get('content-type') || '';
      if (!r.ok || type.indexOf('text/html') < 0) return null;
      if (new URL(r.url || href, location.href).origin !== location.origin) return null;
      return r.text().then(function (html) {
        return { html: html, url: r.redirected ? r.url : null };
      });
    });
  }

  function prefetch(href) {
    var key = pageKey(href);
    if (prefetched.has(key) || key === pageKey(location.href)) return;
    prefetched.set(
      key,
      load(key, true).catch(function () {
        return null;
      }),
    );
    if (prefetched.size > 8) prefetched.delete(prefetched.keys().next().value);
  }

  function take(href) {
    var key = pageKey(href);
    var p = prefetched.get(key);
    if (!p) return load(href, false);
    prefetched.delete(key);
    return p;
  }

  function saveScroll() {
    try {
      history.replaceState(Object.assign({}, history.state, { kitScroll: [w.scrollX, w.scrollY] }), '');
    } catch (_e) {
      /* state not cloneable: nothing to restore later */
    }
  }

  function swapHead(next) {
    var head = doc.head;
    var old = new Map();
    Array.prototype.forEach.call(head.children, function (el) {
      var list = old.get(el.outerHTML) || [];
      list.push(el);
      old.set(el.outerHTML, list);
    });
    var nodes = [];
    Array.prototype.forEach.call(next.head.children, function (el) {
      var same = old.get(el.outerHTML);
      if (same && same.length) return nodes.push(same.shift());
      if (el.tagName === 'SCRIPT') {
        var src = el.src;
        if (src && seenScripts.has(src)) return nodes.push(doc.importNode(el, true));
        // A script parsed by DOMParser never runs; a fresh element runs once when inserted.
        var s = doc.createElement('script');
        Array.prototype.forEach.call(el.attributes, function (at) {
          s.setAttribute(at.name, at.value);
        });
        s.text = el.text;
        if (src) seenScripts.add(src);
        return nodes.push(s);
      }
      nodes.push(doc.importNode(el, true));
    });
    nodes.forEach(function (n, i) {
      if (head.children[i] !== n) head.insertBefore(n, head.children[i] || null);
    });
    while (head.children.length > nodes.length) head.removeChild(head.lastElementChild);
  }

  function announce(text) {
    var live = doc.createElement('div');
    live.setAttribute('aria-live', 'assertive');
    live.setAttribute('aria-atomic', 'true');
    live.setAttribute('data-kit-announcer', '');
    live.style.cssText =
      'position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0';
    doc.body.appendChild(live);
    setTimeout(function () {
      live.textContent = text;
    }, 50);
  }

  function focusAndScroll(url, focusKey, scroll) {
    var hash = url.hash ? decodeURIComponent(url.hash.slice(1)) : '';
    var el = hash && (doc.getElementById(hash) || doc.getElementsByName(hash)[0]);
    if (el) {
      el.scrollIntoView();
      if (!el.hasAttribute('tabindex') && el.tabIndex < 0) el.setAttribute('tabindex', '-1');
      el.focus({ preventScroll: true });
      return;
    }
    w.scrollTo(scroll ? scroll[0] : 0, scroll ? scroll[1] : 0);
    var again = focusKey && (doc.getElementById(focusKey) || doc.getElementsByName(focusKey)[0]);
    if (again && again.focus) again.focus({ preventScroll: true });
  }

  function swap(res, href, source, push, scroll) {
    var next = new DOMParser().parseFromString(res.html, 'text/html');
    var active = doc.activeElement;
    var focusKey = active && active !== doc.body ? active.id || active.getAttribute('name') : '';
    var url = new URL(res.url || href, location.href);
    if (res.url && url.hash === '') url.hash = new URL(href, location.href).hash;
    if (push) {
      saveScroll();
      history.pushState({ kit: 1 }, '', url.href);
    }
    current = location.href;
    swapHead(next);
    doc.title = next.title;
    doc.body.replaceWith(doc.importNode(next.body, true));
    focusAndScroll(url, focusKey, scroll);
    announce(doc.title);
    doc.dispatchEvent(new CustomEvent('kit:after-navigate', { detail: { url: url.href, source: source } }));
  }

  function navigate(href, source, push, scroll) {
    var id = ++navId;
    var root = doc.documentElement;
    root.setAttribute('data-kit-navigating', 'true');
    return take(href)
      .then(function (res) {
        if (id !== navId) return;
        if (!res) throw new Error('not an HTML page');
        swap(res, href, source, push, scroll);
      })
      .catch(function () {
        if (id !== navId) return;
        if (push) location.assign(href);
        else location.reload();
      })
      .then(function () {
        if (id === navId) root.removeAttribute('data-kit-navigating');
      });
  }

  doc.addEventListener('click', function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = linkOf(e);
    var url = target(a);
    if (!url) return;
    var ev = new CustomEvent('kit:before-navigate', { cancelable: true, detail: { link: a, url: url.href } });
    if (!doc.dispatchEvent(ev)) return;
    e.preventDefault();
    navigate(url.href, 'link', true);
  });

  w.addEventListener('popstate', function (e) {
    var before = new URL(current);
    current = location.href;
    // A hash change within one page is the browser's own business.
    if (before.pathname === location.pathname && before.search === location.search) return;
    navigate(location.href, 'popstate', false, e.state && e.state.kitScroll);
  });

  function hinted(e) {
    var url = target(linkOf(e));
    return url && url.href;
  }
  doc.addEventListener('mouseover', function (e) {
    var href = hinted(e);
    if (!href) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(function () {
      prefetch(href);
    }, 65);
  });
  doc.addEventListener('mouseout', function () {
    clearTimeout(hoverTimer);
  });
  doc.addEventListener('focusin', function (e) {
    var href = hinted(e);
    if (href) prefetch(href);
  });
  doc.addEventListener(
    'touchstart',
    function (e) {
      var href = hinted(e);
      if (href) prefetch(href);
    },
    { passive: true },
  );

  w.addEventListener('pagehide', saveScroll);
  if (history.state && history.state.kitScroll) w.scrollTo(history.state.kitScroll[0], history.state.kitScroll[1]);

  kit.navigate = function (href) {
    return navigate(new URL(href, location.href).href, 'link', true);
  };
  kit.prefetch = prefetch;
})();
