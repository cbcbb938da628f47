// The single executable of a generated app: time from spawning it to the first answered request
// (median of several starts, target < 150 ms) beside a hello-world node:http server packaged the
// same way (the peer figure of design/performance.md), `node <app>/server.js` and the hello-world
// server under plain node; and the binary's size beside the node executable (target: within 5 MB).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildApp, median, SECRET, workDir, writeFiles } from './http-harness.js';
import { SEA_FUSE } from '#core/app/index.js';

const STARTS = Number(process.env.KIT_BENCH_STARTS ?? 11);

const SITE = {
  'src/home.kit': `package bench

page home
route "/"
guard public

view {
  <main><h1>Hello</h1></main>
}
`,
  'src/report.kit': `package bench

page report
route "/report"
guard public

server {
  => { title }
}

view {
  <main><h1>{title}</h1></main>
}
`,
  'src/handlers.ts': `export function LoadReport(ctx: unknown) { void ctx; return { title: 'Report' }; }\n`,
};

const HELLO = `import { createServer } from 'node:http';
const s = createServer((q, r) => r.end('hello'));
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
`;

const HELLO_CJS = `const { createServer } = require('node:http');
const s = createServer((q, r) => r.end('hello'));
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
`;

/** A hello-world single executable, made exactly as kit makes its binaries (code cache on). */
function helloSea(dir: string): string {
  writeFileSync(join(dir, 'hello.cjs'), HELLO_CJS);
  writeFileSync(
    join(dir, 'hello-sea.json'),
    JSON.stringify({
      main: join(dir, 'hello.cjs'),
      output: join(dir, 'hello.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
    }),
  );
  const prep = spawnSync(process.execPath, ['--experimental-sea-config', join(dir, 'hello-sea.json')], {
    encoding: 'utf8',
  });
  if (prep.status !== 0) throw new Error(prep.stderr);
  const bin = join(dir, 'hello-sea');
  copyFileSync(process.execPath, bin);
  chmodSync(bin, 0o755);
  const cli = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  const inj = spawnSync(
    process.execPath,
    [cli, bin, 'NODE_SEA_BLOB', join(dir, 'hello.blob'), '--sentinel-fuse', SEA_FUSE],
    { encoding: 'utf8' },
  );
  if (inj.status !== 0) throw new Error(inj.stderr);
  return bin;
}

/** Spawn → `listening on` → first 200 answer, in milliseconds. */
async function startToFirstAnswer(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<number> {
  const t0 = performance.now();
  const p = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      p.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      p.once('exit', (c) => reject(new Error(`exited ${c} before listening`)));
    });
    const r = await fetch(url + '/');
    await r.text();
    if (r.status !== 200) throw new Error(`first answer ${r.status}`);
    return performance.now() - t0;
  } finally {
    p.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const { dir, done } = workDir('kit-bin-bench-');
  try {
    writeFiles(dir, SITE);
    const t0 = performance.now();
    buildApp(dir, true);
    const buildMs = performance.now() - t0;
    writeFileSync(join(dir, 'hello.mjs'), HELLO);
    const bin = join(dir, 'site-bin');
    const env = { PATH: '', KIT_CSRF_SECRET: SECRET };
    const hello = helloSea(dir);
    // Interleaved so load from other work on the machine hits every series alike.
    const runs: Record<string, number[]> = { bin: [], sea: [], app: [], node: [] };
    for (let i = 0; i <= STARTS; i++) {
      const b = await startToFirstAnswer(bin, ['--addr', '127.0.0.1:0'], env, dir);
      const h = await startToFirstAnswer(hello, [], env, dir);
      const a = await startToFirstAnswer(
        process.execPath,
        [join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0'],
        env,
        dir,
      );
      const n = await startToFirstAnswer(process.execPath, [join(dir, 'hello.mjs')], env, dir);
      if (i === 0) continue; // warm-up
      runs.bin.push(b);
      runs.sea.push(h);
      runs.app.push(a);
      runs.node.push(n);
    }
    const b = median(runs.bin);
    const h = median(runs.sea);
    const a = median(runs.app);
    const n = median(runs.node);
    console.log(`single executable: start to first answered request, median of ${STARTS} starts`);
    console.log(
      `  kit binary                    ${b.toFixed(1).padStart(7)} ms   (runs ${runs.bin.map((x) => x.toFixed(0)).join(', ')})`,
    );
    console.log(
      `  hello-world SEA (peer)        ${h.toFixed(1).padStart(7)} ms   ratio kit binary / hello SEA ${(b / h).toFixed(2)}×`,
    );
    console.log(
      `  node <app>/server.js          ${a.toFixed(1).padStart(7)} ms   ratio kit binary / node app ${(b / a).toFixed(2)}×`,
    );
    console.log(`  node hello-world server       ${n.toFixed(1).padStart(7)} ms`);
    const size = statSync(bin).size;
    const node = statSync(process.execPath).size;
    console.log(
      `binary size ${(size / 1e6).toFixed(1)} MB, node executable ${(node / 1e6).toFixed(1)} MB, difference ${((size - node) / 1e6).toFixed(2)} MB (target < 5 MB)`,
    );
    console.log(`kit build --app --bin of this site: ${(buildMs / 1000).toFixed(1)} s`);
    console.log('target: binary start to first answer < 150 ms');
  } finally {
    done();
  }
}

await main();
