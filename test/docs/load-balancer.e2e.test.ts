// docs/deploy.md's load balancer, run: three instances of a built app (one KIT_CSRF_SECRET) behind nginx
// with the configuration docs/deploy/nginx.conf holds (the doc shows that file; deploy.e2e.test.ts checks the
// copy), its addresses, ports and certificate paths filled in here. nginx runs as this process's own
// child with every file it writes in a temporary directory. Where nginx (or the openssl that makes its
// certificate) cannot be found, the tests are skipped with a message; .ci/run installs both.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fixture, repoRoot } from '../helpers/repo.js';
import { waitFor } from '../helpers/wait.js';
import { attach, runKit, SECRET, tempDir, type RunningApp } from '../server/core/app/built-app.js';

const NGINX_CONF = join(repoRoot, 'docs', 'deploy', 'nginx.conf');
const FIXTURE = fixture('app', 'balancer');
const NAMES = ['a', 'b', 'c'];
/** The name the client asks for; the certificate is made for it. */
const HOST = 'shop.example';

// ---- Finding the programs ----

function findProgram(name: string, candidates: string[]): string | undefined {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  for (const p of onPath === '' ? candidates : [onPath, ...candidates]) {
    if (existsSync(p) && spawnSync(p, name === 'nginx' ? ['-v'] : ['version'], { stdio: 'ignore' }).status === 0)
      return p;
  }
  return undefined;
}

// ---- HTTP through the balancer, with full control of Host and the proxy headers ----

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Send {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Over HTTPS, trusting the test's certificate. */
  tls?: boolean;
}

/** A free port on 127.0.0.1 for nginx to listen on (it cannot be told to pick one itself). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` until it holds; fails with `what` after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await waitFor(check, { what, timeout: ms });
}

function field(html: string, re: RegExp, what: string): string {
  const m = re.exec(html);
  assert.ok(m, `${what} in ${html}`);
  return m[1];
}

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: { key: string; value: unknown }[];
}

describe('docs/deploy.md: three instances behind nginx', function () {
  this.timeout(60_000);
  let work = '';
  let orders = '';
  let cert = '';
  let nginx: ChildProcess | undefined;
  let nginxExit: Promise<unknown> = Promise.resolve();
  let httpPort = 0;
  let httpsPort = 0;
  const instances: RunningApp[] = [];
  /** Spans each instance exported, by instance name. */
  const spans = new Map<string, Span[]>(NAMES.map((n) => [n, []]));
  let collector: Server | undefined;

  function send(o: Send): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const port = o.tls ? httpsPort : httpPort;
      const options = {
        host: '127.0.0.1',
        port,
        method: o.method ?? 'GET',
        path: o.path,
        headers: { host: `${HOST}:${port}`, ...o.headers },
        agent: false,
        ...(o.tls ? { ca: cert, servername: HOST } : {}),
      };
      const req = (o.tls ? httpsRequest : httpRequest)(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(o.body);
    });
  }

  /** The order page through the balancer: the instance that served it, its CSRF cookie and token. */
  async function orderPage(
    tls = false,
  ): Promise<{ instance: string; cookie: string; token: string; setCookie: string }> {
    const r = await send({ path: '/order', tls });
    assert.equal(r.status, 200, r.body);
    const setCookie = (r.headers['set-cookie'] ?? [])[0] ?? '';
    return {
      instance: field(r.body, /<p id="instance">([^<]*)<\/p>/, 'the instance name'),
      cookie: setCookie.split(';')[0],
      token: field(r.body, /name="_kit_csrf" value="([^"]+)"/, 'the CSRF field'),
      setCookie,
    };
  }

  function placeOrder(page: { cookie: string; token: string }, ref: string, extra: Record<string, string> = {}) {
    return send({
      method: 'POST',
      path: '/order',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _kit_csrf: page.token, item: 'book', ref, ...extra }).toString(),
    });
  }

  /** Which instances carried out the order `ref` (its side effect: a line in the instance's file). */
  function placedBy(ref: string): string[] {
    return NAMES.filter((n) => {
      const file = join(orders, `${n}.orders`);
      return existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(ref);
    });
  }

  function nginxConfig(): string {
    let site = readFileSync(NGINX_CONF, 'utf8');
    const fill = (re: RegExp, by: string | ((s: string) => string), count = 1): void => {
      const found = site.match(new RegExp(re.source, 'gm'))?.length ?? 0;
      assert.equal(found, count, `docs/deploy/nginx.conf: ${count} line(s) matching ${re}`);
      site = site.replace(re, by as string);
    };
    let i = 0;
    fill(/^(\s*)server \S+:\d+;$/gm, (line) => line.replace(/\S+:\d+/, `127.0.0.1:${instances[i++].port}`), 3);
    fill(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${httpPort};`);
    fill(/^(\s*)listen 443 ssl;$/m, `$1listen 127.0.0.1:${httpsPort} ssl;`);
    fill(/^(\s*)ssl_certificate \S+;$/m, `$1ssl_certificate ${join(work, 'cert.pem')};`);
    fill(/^(\s*)ssl_certificate_key \S+;$/m, `$1ssl_certificate_key ${join(work, 'key.pem')};`);
    writeFileSync(join(work, 'site.conf'), site);
    // The main configuration a package's nginx.conf would be: here every path is in the test's directory.
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((t) => `  ${t}_temp_path ${join(work, 'temp', t)};`)
      .join('\n');
    return `daemon off;
worker_processes 1;
pid ${join(work, 'nginx.pid')};
lock_file ${join(work, 'nginx.lock')};
error_log ${join(work, 'error.log')} notice;
events { worker_connections 256; }
http {
  log_format balancer '$request_method $request_uri $status upstream=$upstream_addr';
  access_log ${join(work, 'access.log')} balancer;
${temp}
  include ${join(work, 'site.conf')};
}
`;
  }

  async function startNginx(program: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      httpPort = await freePort();
      httpsPort = await freePort();
      writeFileSync(join(work, 'nginx.conf'), nginxConfig());
      const proc = spawn(program, ['-p', work, '-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log')], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      proc.stderr!.on('data', (d: Buffer) => (stderr += d));
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      nginx = proc;
      nginxExit = exited;
      let gone = false;
      void exited.then(() => (gone = true));
      await until('nginx to listen', async () => gone || ((await portOpen(httpPort)) && (await portOpen(httpsPort))));
      if (!gone) return;
      const log = existsSync(join(work, 'error.log')) ? readFileSync(join(work, 'error.log'), 'utf8') : '';
      // Another process took a port between freePort and nginx's bind: try new ones.
      if (attempt < 3 && /Address already in use/.test(log + stderr)) continue;
      assert.fail(`nginx exited at start:\n${stderr}\n${log}`);
    }
  }

  before(async function () {
    this.timeout(120_000);
    const program = findProgram('nginx', ['/usr/sbin/nginx', '/usr/local/sbin/nginx']);
    const openssl = findProgram('openssl', ['/usr/bin/openssl']);
    if (program === undefined || openssl === undefined) {
      const what = program === undefined ? 'nginx' : 'openssl';
      console.log(
        `      load balancer: skipped, ${what} cannot be found (Debian package ${what}; .ci/run installs it)`,
      );
      this.skip();
    }
    work = tempDir('kit-balancer-');
    // nginx started as root runs its workers as an unprivileged user: they must reach their files here.
    if (process.getuid?.() === 0) chmodSync(work, 0o755);
    orders = join(work, 'orders');
    mkdirSync(orders, { mode: 0o777 });
    mkdirSync(join(work, 'temp'));
    const made = spawnSync(
      openssl,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        join(work, 'key.pem'),
        '-out',
        join(work, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(made.status, 0, `openssl could not make a certificate:\n${made.stderr}`);
    cert = readFileSync(join(work, 'cert.pem'), 'utf8');

    const built = runKit([
      'build',
      '--ssr',
      '--strict-bindings',
      '--out',
      join(work, 'dist'),
      '--app',
      join(work, 'app'),
      FIXTURE,
    ]);
    assert.equal(built.status, 0, built.stderr + built.stdout);

    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const name = (req.url ?? '').split('/').pop() ?? '';
        spans.get(name)?.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Span[]));
        res.end();
      });
    });
    await new Promise<void>((resolve) => collector!.listen(0, '127.0.0.1', resolve));
    const spansAt = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/spans`;

    for (const name of NAMES) {
      const proc = spawn(process.execPath, [join(work, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? '',
          KIT_CSRF_SECRET: SECRET,
          SHOP_INSTANCE: name,
          SHOP_ORDERS: orders,
          SHOP_SPANS: `${spansAt}/${name}`,
        },
      });
      instances.push(await attach(proc));
    }
    await startNginx(program!);
  });

  // Should the after hook not run (the run interrupted), nothing started here outlives the test process.
  const leftOver = (): void => {
    for (const p of [nginx, ...instances.map((i) => i.proc)])
      if (p !== undefined && p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  };
  process.once('exit', leftOver);

  after(async () => {
    if (nginx !== undefined && nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGTERM');
    await nginxExit;
    await Promise.all(instances.map((i) => i.stop()));
    collector?.closeAllConnections();
    await new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve()));
    process.removeListener('exit', leftOver);
  });

  it('a form served by one instance is accepted by whichever instance the balancer sends its post to', async () => {
    const pairs: [string, string][] = [];
    for (let i = 0; i < 6; i++) {
      const page = await orderPage();
      const ref = `form-${i}`;
      const r = await placeOrder(page, ref);
      assert.equal(r.status, 200, r.body);
      const answer = JSON.parse(r.body) as { instance: string; ref: string };
      assert.equal(answer.ref, ref);
      assert.deepEqual(
        placedBy(ref),
        [answer.instance],
        `order ${ref} carried out once, by the instance that answered`,
      );
      pairs.push([page.instance, answer.instance]);
    }
    // Round robin: each post goes to another instance than the page it came from, and all three serve.
    for (const [got, posted] of pairs) assert.notEqual(got, posted, `posts went to another instance: ${pairs}`);
    assert.deepEqual([...new Set(pairs.flat())].sort(), NAMES);
  });

  it('uploads go through the balancer to the action, and nginx refuses what the app would', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const page = await orderPage();
      // Bigger than nginx keeps in memory: it writes the body to its temporary directory first.
      const bytes = randomBytes(300 * 1024 + i);
      const form = new FormData();
      form.append('_kit_csrf', page.token);
      form.append('note', `upload ${i}`);
      form.append('receipt', new Blob([bytes], { type: 'application/octet-stream' }), `receipt-${i}.bin`);
      const encoded = new Response(form);
      const r = await send({
        method: 'POST',
        path: '/order/attach',
        headers: { cookie: page.cookie, 'content-type': encoded.headers.get('content-type')! },
        body: Buffer.from(await encoded.arrayBuffer()),
      });
      assert.equal(r.status, 200, r.body);
      const got = JSON.parse(r.body) as { instance: string; note: string; name: string; size: number; sha256: string };
      assert.deepEqual(
        { note: got.note, name: got.name, size: got.size, sha256: got.sha256 },
        {
          note: `upload ${i}`,
          name: `receipt-${i}.bin`,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        },
      );
      seen.add(got.instance);
    }
    assert.deepEqual([...seen].sort(), NAMES, 'each instance took an upload');
    const page = await orderPage();
    const tooBig = await send({
      method: 'POST',
      path: '/order/attach',
      headers: { cookie: page.cookie, 'content-type': 'multipart/form-data; boundary=x' },
      body: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    assert.equal(tooBig.status, 413, 'client_max_body_size matches the app upload limit');
  });

  it('X-Forwarded-* and Forwarded: the balancer says what the client asked for, whatever the client sent', async () => {
    const forged = {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-for': '203.0.113.9',
      forwarded: 'for=203.0.113.9;proto=https;host=evil.example',
    };
    type Whoami = {
      url: string;
      forwardedFor: string;
      forwardedProto: string;
      forwardedHost: string;
      forwarded: string;
    };
    for (const tls of [false, true]) {
      const scheme = tls ? 'https' : 'http';
      const r = await send({ path: '/api/whoami?x=1', headers: forged, tls });
      assert.equal(r.status, 200, r.body);
      const me = JSON.parse(r.body) as Whoami;
      assert.deepEqual(
        { url: me.url, proto: me.forwardedProto, host: me.forwardedHost, for: me.forwardedFor, fwd: me.forwarded },
        { url: `${scheme}://${HOST}/api/whoami?x=1`, proto: scheme, host: HOST, for: '127.0.0.1', fwd: null },
        `over ${scheme}`,
      );
    }
    // The CSRF cookie follows the scheme the balancer reports: a client's claim of HTTPS changes nothing.
    const plain = await send({ path: '/order', headers: forged });
    const plainCookie = String(plain.headers['set-cookie']);
    assert.match(plainCookie, /^kit-csrf=[^;]+;/);
    assert.doesNotMatch(plainCookie, /; Secure(;|$)/);
    const secure = await orderPage(true);
    assert.match(secure.setCookie, /^__Host-kit-csrf=[^;]+;/);
    assert.match(secure.setCookie, /; Secure(;|$)/);
    const over = async (tls: boolean, ref: string) =>
      send({
        method: 'POST',
        path: '/order',
        tls,
        headers: { cookie: secure.cookie, 'content-type': 'application/x-www-form-urlencoded', ...forged },
        body: new URLSearchParams({ _kit_csrf: secure.token, item: 'book', ref }).toString(),
      });
    assert.equal((await over(true, 'https-post')).status, 200, 'the HTTPS form posts over HTTPS');
    const downgraded = await over(false, 'http-post');
    assert.equal(downgraded.status, 403, 'over plain HTTP the __Host- cookie is not the one the app reads');
    assert.deepEqual(placedBy('http-post'), []);
  });

  it('the trace a client starts is continued by the instance behind the balancer (traceparent)', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const r = await send({ path: '/api/whoami', headers: { traceparent: `00-${traceId}-${parent}-01` } });
    assert.equal(r.status, 200, r.body);
    const { instance } = JSON.parse(r.body) as { instance: string };
    const ofTrace = (name: string): Span[] => spans.get(name)!.filter((s) => s.traceId === traceId);
    const requestSpan = (): Span | undefined => ofTrace(instance).find((s) => s.name === 'GET /api/whoami');
    await until(`the request span of trace ${traceId} from instance ${instance}`, () => requestSpan() !== undefined);
    const span = requestSpan()!;
    assert.equal(span.parentSpanId, parent, 'the request span is a child of the client span');
    assert.deepEqual(
      span.attributes.find((a) => a.key === 'server.address')?.value,
      HOST,
      'the span names the host the client asked for',
    );
    for (const other of NAMES.filter((n) => n !== instance))
      assert.deepEqual(ofTrace(other), [], `instance ${other} has no span of the trace`);
  });

  // Last: it leaves two instances.
  it('an instance killed mid-run: every idempotent request is answered, no post is carried out twice', async () => {
    const page = await orderPage();
    // Requests the instances hold until the test releases them, so that some are in the victim's hands when it
    // dies: three GETs and three posts, two per instance by round robin, so one instance holds a GET and a post.
    const held = Array.from({ length: 6 }, (_, i) => `held-${i % 2 === 0 ? 'get' : 'post'}-${i}`);
    const isGet = (id: string): boolean => id.startsWith('held-get-');
    const answers = held.map((id) =>
      isGet(id) ? send({ path: `/api/whoami?hold=${id}` }) : placeOrder(page, id, { hold: id }),
    );
    const holding = (name: string): string[] => {
      const file = join(orders, `${name}.holds`);
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    };
    await until('every held request to reach an instance', () => NAMES.flatMap(holding).length === held.length);
    const victim = NAMES.find((n) => holding(n).some(isGet) && !holding(n).every(isGet));
    assert.ok(victim, `an instance holds a GET and a post: ${NAMES.map((n) => `${n}=${holding(n)}`)}`);
    const victimApp = instances[NAMES.indexOf(victim)];
    const victimHeld = holding(victim);

    // A stream of GETs and posts, four at a time; the victim is killed while it runs.
    type Sent = { kind: 'get' | 'post'; ref: string; answer: Answer; afterKill: boolean };
    const sent: Sent[] = [];
    let killed = false;
    let n = 0;
    const total = 160;
    const worker = async (): Promise<void> => {
      while (n < total) {
        const i = n++;
        const ref = `stream-${i}`;
        const kind = i % 2 === 0 ? 'get' : 'post';
        const afterKill = killed;
        const answer = await (kind === 'get' ? send({ path: `/api/whoami?n=${i}` }) : placeOrder(page, ref));
        sent.push({ kind, ref, answer, afterKill });
        if (sent.length === 40 && !killed) {
          killed = true;
          victimApp.proc.kill('SIGKILL');
        }
      }
    };
    const stream = Promise.all([worker(), worker(), worker(), worker()]);
    // A failed request ends the wait at once, with its own error.
    await Promise.race([stream, until('the victim to be killed', () => killed)]);
    await until('the killed instance to exit', () => victimApp.proc.signalCode !== null);
    writeFileSync(join(orders, 'release'), '');
    await stream;
    const heldAnswers = await Promise.all(answers);

    // Held GETs: all answered, the victim's by another instance (nginx resent it).
    const accessLog = (): string => readFileSync(join(work, 'access.log'), 'utf8');
    for (const [i, id] of held.entries()) {
      const a = heldAnswers[i];
      if (isGet(id)) {
        assert.equal(a.status, 200, `held GET ${id}: ${a.body}`);
        if (victimHeld.includes(id)) {
          assert.notEqual((JSON.parse(a.body) as { instance: string }).instance, victim);
          // nginx writes its log line as the answer leaves: wait for it.
          const line = new RegExp(
            `^GET /api/whoami\\?hold=${id} 200 upstream=127\\.0\\.0\\.1:${victimApp.port}, `,
            'm',
          );
          await until(`nginx to log ${id} as tried on ${victim}, then another instance`, () => line.test(accessLog()));
        }
      } else if (victimHeld.includes(id)) {
        // The victim had carried the order out when it died: nginx must not send it to another instance.
        assert.equal(a.status, 502, `held post ${id} on the killed instance: ${a.body}`);
        assert.deepEqual(placedBy(id), [victim], `held post ${id} carried out once, by the killed instance`);
      } else {
        assert.equal(a.status, 200, `held post ${id}: ${a.body}`);
        assert.deepEqual(placedBy(id), [(JSON.parse(a.body) as { instance: string }).instance]);
      }
    }

    // The stream: every GET answered; each post carried out once where it was answered, at most once where
    // nginx answered 502 (the victim died with it).
    const failed: string[] = [];
    for (const s of sent) {
      if (s.kind === 'get') {
        assert.equal(s.answer.status, 200, `GET ${s.ref}: ${s.answer.body}`);
        continue;
      }
      const by = placedBy(s.ref);
      if (s.answer.status === 502) {
        failed.push(s.ref);
        assert.ok(by.length === 0 || (by.length === 1 && by[0] === victim), `${s.ref} carried out by ${by}`);
      } else {
        assert.equal(s.answer.status, 200, `${s.ref}: ${s.answer.body}`);
        assert.deepEqual(by, [(JSON.parse(s.answer.body) as { instance: string }).instance], s.ref);
      }
    }
    const servedAfter = sent
      .filter((s) => s.afterKill && s.answer.status === 200)
      .map((s) => (JSON.parse(s.answer.body) as { instance: string }).instance);
    const survivors = NAMES.filter((x) => x !== victim);
    assert.deepEqual([...new Set(servedAfter)].sort(), survivors, 'the two other instances serve on');
    const retried = accessLog()
      .split('\n')
      .filter((l) => /upstream=\S+, /.test(l)).length;
    console.log(
      `      load balancer: ${sent.length} requests while ${victim} was killed; ${failed.length} posts answered 502, ` +
        `${retried} passed on by nginx to a second instance`,
    );
  });
});
