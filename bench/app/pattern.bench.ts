// An author's `pattern="(a+)+b"` against hostile values, through the generated app
// (`node <app>/server.js`): the answer time of a POST whose field is n a's and a `!` (28, 30, 32 and
// 100 KB), and the time `/_kit/health` takes when sent while that POST is being answered; then the
// matcher's own worst case, a megabyte against `a*a{100}`, which its step budget ends. Baseline
// in the same run: what the app did before it had a linear matcher, RegExp compiled as browsers
// compile `pattern` (`^(?:…)$`, `v` flag) on the same values in this process; it doubles per
// character, so it is measured from 20 to 28 characters; 32 and 100 KB are out of its reach.
import { join } from 'node:path';
import { buildApp, SECRET, startServer, workDir, writeFiles } from './http-harness.js';
import { csrfKeys, newToken } from '#shared/app/csrf.js';

const PATTERN = '(a+)+b';
const SITE: Record<string, string> = {
  'src/join.kit': `package bench

page join
route "/join"
guard public

act Join POST "/join"

view {
  <form g:post={Join}>
    <input name="a" pattern="${PATTERN}" /><p g:error="a"></p>
    <input name="b" pattern="a*a&#123;100&#125;" /><p g:error="b"></p>
  </form>
}
`,
  'src/handlers.ts': `export function Join(ctx: unknown, input: { a?: string; b?: string }): Response {
  void ctx;
  return new Response('ok ' + (input.a ?? input.b ?? '').length);
}
`,
};

const LENGTHS: [string, number][] = [
  ['28 a', 28],
  ['30 a', 30],
  ['32 a', 32],
  ['100 KB', 100 * 1024],
];
// RegExp quadruples per two characters: 28 already takes seconds, so the baseline stops there.
const NATIVE_MAX = 28;

const ms = (t: number) => `${t.toFixed(1)} ms`;

const { dir, done } = workDir('kit-pattern-');
try {
  writeFiles(dir, SITE);
  buildApp(dir, false);
  const server = await startServer('kit', process.execPath, [join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0']);
  try {
    const token = newToken(csrfKeys(SECRET));
    const post = (value: string, field = 'a') =>
      fetch(server.url + '/join', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `kit-csrf=${token}` },
        body: new URLSearchParams([
          ['_kit_csrf', token],
          [field, value],
        ]).toString(),
      });
    // Warm-up: compiles the pattern and the request path once.
    for (let i = 0; i < 5; i++) await (await post('aab')).text();
    const native = new RegExp(`^(?:${PATTERN})$`, 'v');
    const t0 = performance.now();
    const ok = await post('a'.repeat(1000) + 'b');
    const okMs = performance.now() - t0;
    console.log(`matching value (1,000 a + b): ${ok.status}, ${ms(okMs)}`);
    await ok.text();
    console.log('value            app answer   health meanwhile');
    for (const [label, n] of LENGTHS) {
      const start = performance.now();
      const answered = post('a'.repeat(n) + '!').then(async (r) => {
        await r.text();
        return { status: r.status, ms: performance.now() - start };
      });
      const h0 = performance.now();
      const health = await fetch(server.url + '/_kit/health');
      await health.text();
      const healthMs = performance.now() - h0;
      const a = await answered;
      console.log(`${label.padEnd(16)} ${String(a.status).padEnd(4)} ${ms(a.ms).padEnd(12)} ${ms(healthMs)}`);
    }
    // The worst case of the linear matcher: a hundred live states per code point, a megabyte,
    // where the step budget ends the check.
    const w0 = performance.now();
    const worst = await post('a'.repeat(1_000_000), 'b');
    await worst.text();
    console.log(`a*a{100}, 1 MB: ${worst.status} in ${ms(performance.now() - w0)} (step budget)`);
    // After the app's figures: the server's idle connections would time out while RegExp runs.
    console.log('baseline: RegExp as the app ran it before (in this process)');
    for (let n = 20; n <= NATIVE_MAX; n += 2) {
      const b0 = performance.now();
      native.test('a'.repeat(n) + '!');
      console.log(`${`${n} a`.padEnd(16)} ${ms(performance.now() - b0)}`);
    }
  } finally {
    await server.stop();
  }
} finally {
  done();
}
