// Forms that round-trip and uploads, over real HTTP against the built fixture app (`signup.kit`):
// the 422 re-render a browser without JavaScript gets (layout, values echoed escaped, g:error),
// fail() and showPage(), the partial (kit-forms.js) answers, and uploads at and over each limit of
// the fixture's `uploads` config, with the temporary files gone after every request.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { startApp, type RunningApp } from '../../server/core/app/built-app.js';

interface Session {
  token: string;
  cookie: string;
}

async function session(base: string): Promise<Session> {
  const r = await fetch(base + '/signup');
  const token = /kit-csrf=([A-Za-z0-9_-]{86})/.exec(r.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(token, 'GET /signup sets a CSRF cookie');
  return { token, cookie: `kit-csrf=${token}` };
}

describe('forms that round-trip and uploads (built app, HTTP)', function () {
  this.timeout(240000);
  let app: RunningApp;
  let s: Session;
  const tmp = mkdtempSync(join(tmpdir(), 'kit-forms-tmp-'));

  before(async () => {
    app = await startApp('node', { env: { TMPDIR: tmp } });
    s = await session(app.url);
  });
  after(async () => {
    await app?.stop();
  });

  const post = (fields: [string, string][], headers: Record<string, string> = {}) =>
    fetch(app.url + '/signup', {
      method: 'POST',
      headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams([['_kit_csrf', s.token], ...fields]).toString(),
      redirect: 'manual',
    });

  describe('JavaScript off: the page again', () => {
    it('a constraint failure: 422, the page with its layout, every value echoed escaped, errors by field', async () => {
      const r = await post([
        ['name', 'A'],
        ['email', '<b>"x\''],
        ['age', '7'],
        ['code', 'abc'],
        ['password', 'hunter2'],
        ['bio', '</textarea><script>alert(1)</script>'],
        ['news', 'yes'],
        ['plan', 'pro'],
      ]);
      assert.equal(r.status, 422);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(r.headers.get('cache-control'), 'no-store');
      assert.equal(r.headers.get('x-kit-error-code'), 'validation_failed');
      const html = await r.text();
      assert.match(html, /<header><a href="\/">Fixture<\/a><\/header>/, 'the layout is there');
      assert.match(html, /<input name="name" required minlength="2" maxlength="20" value="A" aria-invalid="true">/);
      assert.ok(html.includes('value="&lt;b&gt;&quot;x&#39;" aria-invalid="true"'), 'the email value is escaped');
      assert.ok(
        html.includes(
          '<textarea name="bio" maxlength="200">&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>',
        ),
      );
      assert.ok(!html.includes('<script>alert'), 'nothing submitted runs');
      assert.ok(!html.includes('hunter2'), 'a password is never sent back');
      assert.match(html, /<input type="checkbox" name="news" value="yes" checked>/);
      assert.match(html, /<option value="pro" selected>Pro<\/option>/);
      assert.match(html, /<option value="free">Free<\/option>/);
      assert.match(html, /<p class="error" data-kit-error="name">Please use at least 2 characters\.<\/p>/);
      assert.match(html, /<p class="error" data-kit-error="email">Please enter an email address\.<\/p>/);
      assert.match(html, /<p class="error" data-kit-error="age">Please enter 13 or more\.<\/p>/);
      assert.match(html, /<p class="error" data-kit-error="code">Please match the requested format\.<\/p>/);
      assert.match(
        html,
        /<input type="hidden" name="_kit_csrf" value="[A-Za-z0-9_-]{86}">/,
        'the form can be sent again',
      );
    });

    it('a g:message:required text replaces the default message; fields without errors show none', async () => {
      const r = await post([['name', 'Ann']]);
      assert.equal(r.status, 422);
      const html = await r.text();
      assert.match(html, /data-kit-error="email">We need your email\.<\/p>/);
      assert.ok(!html.includes('data-kit-error="name"'), 'a valid field shows no error element');
      assert.match(html, /<input name="name" required minlength="2" maxlength="20" value="Ann">/);
    });

    it('fail(422, { errors }) from the handler re-renders with its message', async () => {
      const r = await post([
        ['name', 'Ann'],
        ['email', 'ann@taken.example'],
      ]);
      assert.equal(r.status, 422);
      const html = await r.text();
      assert.match(html, /data-kit-error="email">ann@taken\.example is already registered<\/p>/);
      assert.ok(html.includes('value="ann@taken.example" aria-invalid="true"'));
    });

    it('a value the input type cannot decode is a 422 on that field, not a plain-text 400', async () => {
      const r = await post([
        ['name', 'Ann'],
        ['email', 'ann@example.com'],
        ['news', 'maybe'],
      ]);
      assert.equal(r.status, 422);
      assert.match(await r.text(), /<input type="checkbox" name="news" value="yes" aria-invalid="true">/);
    });

    it('an unknown field is still a 400 naming it (a tampered form)', async () => {
      const r = await post([
        ['name', 'Ann'],
        ['email', 'ann@example.com'],
        ['admin', 'yes'],
      ]);
      assert.equal(r.status, 400);
      assert.equal(await r.text(), 'invalid form: field "admin" is not a field of the input\n');
    });

    it('showPage(data) renders the page with {form.message}, escaped', async () => {
      const r = await post([
        ['name', 'Ann <i>'],
        ['email', 'ann@example.com'],
      ]);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      assert.match(await r.text(), /<div id="outcome"><p class="thanks">Welcome, Ann &lt;i&gt;!<\/p><\/div>/);
    });
  });

  describe('an action bound as (ctx) alone (Action) answers its form as every action does', () => {
    const subscribe = (fields: [string, string][]) =>
      fetch(app.url + '/signup/subscribe', {
        method: 'POST',
        headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([['_kit_csrf', s.token], ...fields]).toString(),
        redirect: 'manual',
      });

    it('its form is checked against the constraints before the handler runs', async () => {
      const r = await subscribe([['topic', '']]);
      assert.equal(r.status, 422);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      const html = await r.text();
      assert.match(html, /<p class="error" data-kit-error="topic">Please fill in this field\.<\/p>/);
      assert.match(html, /<input name="topic" required value aria-invalid="true">/);
    });

    it('a fail() it returns shows the page again with 422, not JSON', async () => {
      const r = await subscribe([['topic', 'news']]);
      assert.equal(r.status, 422);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(r.headers.get('x-kit-error-code'), 'validation_failed');
      const html = await r.text();
      assert.match(html, /data-kit-error="topic">Subscriptions to this topic are closed\.<\/p>/);
      assert.match(html, /<input name="topic" required value="news" aria-invalid="true">/);
      assert.match(html, /<form method="post" action="\/signup\/subscribe" id="subscribe-form">/);
    });
  });

  describe('an author pattern cannot stall the app', () => {
    // `(a+)+b` backtracks exponentially in RegExp: 32 characters took 14.7 s, 100 KB would never end.
    it('a hostile value answers 422 at once, whatever its length, and /_kit/health answers meanwhile', async () => {
      for (const n of [28, 30, 32, 100_000]) {
        const sent = post([
          ['name', 'Ann'],
          ['email', 'ann@example.com'],
          ['probe', 'a'.repeat(n) + '!'],
        ]);
        const health = await fetch(app.url + '/_kit/health');
        assert.equal(health.status, 200);
        const r = await sent;
        assert.equal(r.status, 422, `${n} characters`);
        assert.match(await r.text(), /data-kit-error="probe">Please match the requested format\.<\/p>/);
      }
    }).timeout(20000);

    it('a value the pattern matches passes', async () => {
      const r = await post([
        ['name', 'Ann'],
        ['email', 'ann@example.com'],
        ['probe', 'a'.repeat(50_000) + 'b'],
      ]);
      assert.equal(r.status, 200);
    });
  });

  describe('JavaScript on: partial answers', () => {
    const partial = { 'x-kit-partial': '1', 'x-kit-target': '#outcome' };
    it('a failure answers the re-rendered form alone, with X-Kit-Form-Replace', async () => {
      const r = await post([['name', 'A']], partial);
      assert.equal(r.status, 422);
      assert.equal(r.headers.get('x-kit-form-replace'), '1');
      const html = await r.text();
      assert.match(html, /^<form method="post" action="\/signup" data-kit-target="#outcome" id="signup-form">/);
      assert.match(html, /<\/form>$/);
      assert.match(html, /data-kit-error="email">We need your email\./);
      assert.match(html, /name="_kit_csrf"/);
    });
    it('showPage answers the g:target region', async () => {
      const r = await post(
        [
          ['name', 'Ann'],
          ['email', 'ann@example.com'],
        ],
        partial,
      );
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-kit-fragment-target'), '#outcome');
      assert.equal(await r.text(), '<p class="thanks">Welcome, Ann!</p>');
    });
  });

  describe('uploads', () => {
    const upload = (parts: [string, string | Blob, string?][], headers: Record<string, string> = {}) => {
      const fd = new FormData();
      fd.append('_kit_csrf', s.token);
      for (const [k, v, name] of parts) {
        if (typeof v === 'string') fd.append(k, v);
        else fd.append(k, v, name);
      }
      return fetch(app.url + '/signup/upload', { method: 'POST', headers: { cookie: s.cookie, ...headers }, body: fd });
    };
    const bytes = (n: number, seed = 1) => new Blob([Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255)]);
    const leftovers = () => readdirSync(tmp).filter((f) => f.startsWith('kit-upload-'));

    it('files reach the handler as File fields, byte for byte, at exactly maxFileBytes and maxFiles', async () => {
      const r = await upload([
        ['title', 'Holiday'],
        ['avatar', new Blob(['hi there'], { type: 'text/plain' }), 'me.txt'],
        ['extras', bytes(16 * 1024), 'a.bin'],
        ['extras', bytes(100, 7), 'b.bin'],
      ]);
      assert.equal(r.status, 200);
      const body = (await r.json()) as {
        title: string;
        avatar: { name: string; type: string; size: number; sha256: string };
        extras: { name: string; size: number; sha256: string }[];
      };
      assert.equal(body.title, 'Holiday');
      assert.deepEqual(
        { name: body.avatar.name, type: body.avatar.type, size: body.avatar.size },
        { name: 'me.txt', type: 'text/plain', size: 8 },
      );
      const { createHash } = await import('node:crypto');
      const sha = async (b: Blob) =>
        createHash('sha256')
          .update(Buffer.from(await b.arrayBuffer()))
          .digest('hex');
      assert.deepEqual(
        body.extras.map((e) => [e.name, e.size, e.sha256]),
        [
          ['a.bin', 16384, await sha(bytes(16 * 1024))],
          ['b.bin', 100, await sha(bytes(100, 7))],
        ],
      );
      assert.deepEqual(leftovers(), [], 'temporary files are gone after the request');
    });

    it('one byte over maxFileBytes → 413 naming the limit', async () => {
      const r = await upload([
        ['title', 't'],
        ['avatar', bytes(16 * 1024 + 1), 'big.bin'],
      ]);
      assert.equal(r.status, 413);
      assert.equal(r.headers.get('x-kit-error-code'), 'upload_limit_exceeded');
      assert.equal(await r.text(), 'file too large: a file may have at most maxFileBytes (16384 bytes)\n');
      assert.deepEqual(leftovers(), []);
    });

    it('one file over maxFiles → 413 naming the limit', async () => {
      const r = await upload([
        ['title', 't'],
        ['avatar', bytes(10), 'a'],
        ['extras', bytes(10), 'b'],
        ['extras', bytes(10), 'c'],
        ['extras', bytes(10), 'd'],
      ]);
      assert.equal(r.status, 413);
      assert.equal(await r.text(), 'too many files: a request may carry at most maxFiles (3) files\n');
      assert.deepEqual(leftovers(), []);
    });

    it('a body over maxTotalBytes → 413, whether declared or streamed without a length', async () => {
      const parts: [string, Blob, string][] = [0, 1, 2].map((i) => ['extras', bytes(15 * 1024, i), `f${i}`]);
      const declared = await upload([
        ['title', 't'],
        ['avatar', bytes(15 * 1024), 'a'],
        ...parts.slice(0, 2),
        ['title2', 'x'.repeat(20 * 1024)],
      ]);
      assert.equal(declared.status, 413);
      assert.equal(await declared.text(), 'upload too large: the request body exceeds maxTotalBytes (65536 bytes)\n');
      // Chunked: no Content-Length, the limit is found while streaming.
      const boundary = 'kitboundary';
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          app.url + '/signup/upload',
          {
            method: 'POST',
            headers: { cookie: s.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="_kit_csrf"\r\n\r\n${s.token}\r\n`);
        for (let i = 0; i < 8; i++) {
          req.write(
            `--${boundary}\r\nContent-Disposition: form-data; name="extras"; filename="f${i}"\r\n\r\n` +
              'z'.repeat(10 * 1024) +
              '\r\n',
          );
        }
        req.end(`--${boundary}--\r\n`);
      });
      assert.equal(status, 413);
      assert.deepEqual(leftovers(), []);
    });

    it('a file before a valid CSRF token is refused before it is written (403)', async () => {
      const fd = new FormData();
      fd.append('avatar', bytes(10), 'a');
      const r = await fetch(app.url + '/signup/upload', { method: 'POST', headers: { cookie: s.cookie }, body: fd });
      assert.equal(r.status, 403);
      assert.deepEqual(leftovers(), []);
    });

    const raw = (parts: string[]) =>
      fetch(app.url + '/signup/upload', {
        method: 'POST',
        headers: { cookie: s.cookie, 'content-type': 'multipart/form-data; boundary=xyz', 'x-kit-csrf': s.token },
        body: parts.map((p) => `--xyz\r\n${p}\r\n`).join('') + '--xyz--\r\n',
      });
    const title = 'Content-Disposition: form-data; name="title"\r\n\r\nt';

    it('every part with a file name counts toward maxFiles, empty or not: 600 empty files are a 413', async () => {
      const empties = Array.from(
        { length: 600 },
        (_, i) => `Content-Disposition: form-data; name="extras"; filename="e${i}"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      const r = await raw([title, ...empties]);
      assert.equal(r.status, 413);
      assert.equal(await r.text(), 'too many files: a request may carry at most maxFiles (3) files\n');
      assert.deepEqual(leftovers(), []);
    });

    it('a file name holding "; name=" is the file name of the part its name parameter names', async () => {
      const r = await raw([
        title,
        'Content-Disposition: form-data; filename="x; name=title"; name="avatar"\r\nContent-Type: text/plain\r\n\r\nhi',
      ]);
      assert.equal(r.status, 200);
      const body = (await r.json()) as { title: string; avatar: { name: string; size: number } };
      assert.deepEqual([body.title, body.avatar.name, body.avatar.size], ['t', 'x; name=title', 2]);
    });

    it('a CRLF inside a quoted file name and a 20 KiB part header in one chunk are 400s', async () => {
      const cut = await raw([title, 'Content-Disposition: form-data; name="avatar"; filename="\r\nname="a"\r\n\r\nx']);
      assert.equal(cut.status, 400);
      assert.match(await cut.text(), /^invalid form: a part header line is malformed/);
      const big = await raw([
        title,
        `Content-Disposition: form-data; name="avatar"\r\nX-Pad: ${'p'.repeat(20 * 1024)}\r\n\r\nx`,
      ]);
      assert.equal(big.status, 400);
      assert.equal(await big.text(), 'invalid form: part headers are too long\n');
    });

    it('a malformed multipart body is a 400 naming the problem', async () => {
      const r = await fetch(app.url + '/signup/upload', {
        method: 'POST',
        headers: { cookie: s.cookie, 'content-type': 'multipart/form-data; boundary=xyz', 'x-kit-csrf': s.token },
        body: '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nno end',
      });
      assert.equal(r.status, 400);
      assert.equal(await r.text(), 'invalid form: the body ends before its closing boundary\n');
    });
  });
});
