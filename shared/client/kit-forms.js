// kit partial forms (appended to /assets/kit/kit.js after the link runtime). Plain browser
// JavaScript, no dependencies. A POST form with `data-kit-target="#id"` (what `g:post` with
// `g:target` lowers to) is submitted in the background and the answer is swapped into the target;
// without this script the same form posts normally.
//
// - Submit: cancelable `kit:before-request` {form, target, url} on the form (cancelling stops the
//   request); the target gets `aria-busy="true"` while the request runs; one request per form at a
//   time. The request carries the form fields (the CSRF field `_kit_csrf` included) and the
//   submitter, with `X-Kit-Partial: 1`, `X-Kit-Target: #id` and `X-Kit-Swap: innerHTML|outerHTML`.
// - Answer: `X-Kit-Reload: 1` reloads the page; a redirect is followed with a full navigation; a
//   failed submission (422 from `fail()` or the server's constraint check, `X-Kit-Form-Replace: 1`)
//   replaces the form with the re-rendered one (values kept, errors shown), focuses its first
//   field marked `aria-invalid` and fires `kit:form-invalid` {form, status} then `kit:after-swap`;
//   any other non-2xx answer fires `kit:request-error` {form, target, error, status, body, response}; 204
//   swaps nothing; otherwise the HTML goes into `X-Kit-Fragment-Target` (else the form's target)
//   with `X-Kit-Fragment-Swap` (else `data-kit-swap`, else innerHTML), focus returns to the element
//   that had it (by id or name) and `kit:after-swap` {form, target, swap} fires.
(function () {
  'use strict';
  var w = window;
  var doc = document;
  var kit = (w.kit = w.kit || {});
  if (kit.submitPartial) return;
  var inflight = new WeakSet();

  function emit(el, name, detail, cancelable) {
    var ev = new CustomEvent(name, { bubbles: true, cancelable: !!cancelable, detail: detail });
    return el.dispatchEvent(ev);
  }

  function byTarget(sel) {
    if (typeof sel !== 'string' || sel.charAt(0) !== '#') return null;
    return doc.getElementById(sel.slice(1));
  }

  function body(form, submitter) {
    var fd;
    try {
      fd = submitter ? new FormData(form, submitter) : new FormData(form);
    } catch (_e) {
      fd = new FormData(form);
      if (submitter && submitter.name) fd.append(submitter.name, submitter.value);
    }
    if ((form.getAttribute('enctype') || '').toLowerCase() === 'multipart/form-data') return fd;
    var params = new URLSearchParams();
    fd.forEach(function (v, k) {
      if (typeof v === 'string') params.append(k, v);
    });
    return params;
  }

  function focusKey() {
    var a = doc.activeElement;
    if (!a || a === doc.body) return null;
    return a.id ? { id: a.id } : a.name ? { name: a.name } : null;
  }

  function restoreFocus(key) {
    if (!key) return;
    var el = key.id
      ? doc.getElementById(key.id)
      : doc.querySelector('[name="' + String(key.name).replace(/["\\]/g, '\\$&') + '"]');
    if (el && el !== doc.activeElement && typeof el.focus === 'function') el.focus();
  }

  function replaceForm(form, text, status) {
    var holder = doc.createElement('template');
    holder.innerHTML = text;
    var next = holder.content.firstElementChild;
    if (!next || next.tagName !== 'FORM') return false;
    var key = focusKey();
    form.replaceWith(next);
    var bad = next.querySelector('[aria-invalid="true"]');
    if (bad && typeof bad.focus === 'function') bad.focus();
    else restoreFocus(key);
    emit(next, 'kit:form-invalid', { form: next, status: status });
    emit(next, 'kit:after-swap', { form: next, target: next, swap: 'outerHTML' });
    return true;
  }

  function submitPartial(form, submitter) {
    var sel = form.getAttribute('data-kit-target');
    var target = byTarget(sel);
    if (!target) return false;
    if (inflight.has(form)) return true;
    var url = new URL(form.getAttribute('action') || location.href, location.href);
    if (url.origin !== location.origin) return false;
    if (!emit(form, 'kit:before-request', { form: form, target: target, url: url.href }, true)) return true;
    var swap = form.getAttribute('data-kit-swap') === 'outerHTML' ? 'outerHTML' : 'innerHTML';
    inflight.add(form);
    target.setAttribute('aria-busy', 'true');
    var response = null;
    function done() {
      inflight.delete(form);
      target.removeAttribute('aria-busy');
    }
    fetch(url.href, {
      method: 'POST',
      body: body(form, submitter),
      credentials: 'same-origin',
      headers: { Accept: 'text/html', 'X-Kit-Partial': '1', 'X-Kit-Target': sel, 'X-Kit-Swap': swap },
    })
      .then(function (r) {
        response = r;
        if (r.headers.get('X-Kit-Reload') === '1') {
          location.reload();
          return null;
        }
        if (r.redirected) {
          location.assign(r.url);
          return null;
        }
        return r.text();
      })
      .then(function (text) {
        done();
        if (text === null) return;
        if (
          response.status >= 400 &&
          response.headers.get('X-Kit-Form-Replace') === '1' &&
          replaceForm(form, text, response.status)
        )
          return;
        if (!response.ok) {
          emit(form, 'kit:request-error', {
            form: form,
            target: target,
            error: new Error('HTTP ' + response.status),
            status: response.status,
            body: text,
            response: response,
          });
          return;
        }
        if (response.status === 204) return;
        var into = byTarget(response.headers.get('X-Kit-Fragment-Target')) || target;
        var how = response.headers.get('X-Kit-Fragment-Swap') || swap;
        var key = focusKey();
        if (how === 'outerHTML') {
          var id = into.id;
          into.outerHTML = text;
          into = (id && doc.getElementById(id)) || into;
        } else {
          into.innerHTML = text;
        }
        restoreFocus(key);
        emit(form, 'kit:after-swap', { form: form, target: into, swap: how });
      })
      .catch(function (err) {
        done();
        emit(form, 'kit:request-error', {
          form: form,
          target: target,
          error: err,
          status: response ? response.status : 0,
          body: '',
          response: response,
        });
      });
    return true;
  }

  doc.addEventListener('submit', function (e) {
    var form = e.target;
    if (e.defaultPrevented || !form || !form.matches || !form.matches('form[data-kit-target]')) return;
    if ((form.getAttribute('method') || 'get').toLowerCase() !== 'post') return;
    if (submitPartial(form, e.submitter || null)) e.preventDefault();
  });

  kit.submitPartial = submitPartial;
})();
