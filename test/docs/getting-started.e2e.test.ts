// docs/getting-started.md is followed as a reader without a registry copy of kit would: its blocks
// marked `sh test=tarball` are read from the page and run command by command, exactly as written,
// in a fresh directory that holds only the release files, with npm pointed at a local registry
// that serves kit's dependencies but no `@kit-lang` package (test/package/local-registry.ts). A
// command the test does not know how to run fails it, so the page cannot show a command nobody
// ran. Servers (`npm run dev`, `npm start`) are started, asked for their home page, and stopped.
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { codeBlocks } from '../../docs/tools/markdown.js';
import { type Release, release } from '../helpers/release.js';
import { repoRoot } from '../helpers/repo.js';
import { type LocalRegistry, npmEnv, startLocalRegistry } from '../package/local-registry.js';
import { run } from '../package/offline-install.js';

const PAGE = join(repoRoot, 'docs', 'getting-started.md');

interface Step {
  line: number;
  command: string;
}

/** The commands of the page's tested blocks, comments dropped, with their page lines. */
function tarballSteps(): Step[] {
  const steps: Step[] = [];
  for (const block of codeBlocks(readFileSync(PAGE, 'utf8'))) {
    if (block.lang !== 'sh' || block.attrs.test !== 'tarball') continue;
    block.body.split('\n').forEach((raw, i) => {
      const command = raw.replace(/\s+#.*$/, '').trim();
      if (command) steps.push({ line: block.line + i, command });
    });
  }
  return steps;
}

/** Runs an npm script until it exits (status 0 expected) or serves; a server's home page must answer. */
async function runScript(args: string[], cwd: string, env: NodeJS.ProcessEnv, where: string): Promise<string> {
  const child: ChildProcess = spawn('npm', args, {
    cwd,
    detached: true,
    env: { ...env, PORT: '0', KIT_CSRF_SECRET: 'x'.repeat(32) },
  });
  let output = '';
  const served = new Promise<string | undefined>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${where}: no answer in 120 s:\n${output}`)), 120_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (url) {
        clearTimeout(timer);
        resolve(url[0]);
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(undefined);
      else reject(new Error(`${where}: exit status ${code}:\n${output}`));
    });
  });
  const url = await served;
  if (url === undefined) return output;
  try {
    const home = await fetch(`${url}/`);
    assert.equal(home.status, 200, `${where}: GET ${url}/`);
    assert.match(await home.text(), /Welcome/, `${where}: the starter's home page`);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  return output;
}

describe('docs: getting-started.md from the release files, without a registry copy of kit', function () {
  this.timeout(400_000);
  let work: string;
  let rel: Release;
  let registry: LocalRegistry;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'kit-getting-started-'));
    rel = await release();
    registry = await startLocalRegistry();
  });
  after(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('names the tarball this version packs', () => {
    const steps = tarballSteps();
    assert.ok(steps.length >= 4, `${steps.length} commands`);
    const named = steps.flatMap((s) => [...s.command.matchAll(/\.\/(\S+\.tgz)/g)].map((m) => m[1]));
    assert.ok(named.length > 0);
    for (const n of named) assert.equal(n, basename(rel.kit), 'the page names the current version');
  });

  it('runs every command of the tested blocks in a fresh directory', async () => {
    const fresh = join(work, 'fresh');
    mkdirSync(fresh);
    for (const file of [rel.kit, rel.create]) copyFileSync(file, join(fresh, basename(file)));
    const env = { ...npmEnv(registry), npm_config_yes: 'true' };
    let cwd = fresh;
    let created = false;
    for (const { line, command } of tarballSteps()) {
      const where = `docs/getting-started.md:${line}: ${command}`;
      let m: RegExpExecArray | null;
      if (/^npx -p \.\/\S+\.tgz /.test(command) || command === 'npm install') {
        const [cmd, ...args] = command.split(/\s+/);
        const r = await run(cmd, args, cwd, env);
        assert.equal(r.status, 0, `${where}\n${r.stdout}${r.stderr}`);
        created ||= cmd === 'npx';
      } else if ((m = /^cd (\S+)$/.exec(command))) {
        cwd = join(cwd, m[1]);
      } else if ((m = /^npm (start|run \S+)$/.exec(command))) {
        await runScript(m[1].split(' '), cwd, env, where);
      } else {
        assert.fail(
          `${where}: the test does not know how to run this command; teach test/docs/getting-started.e2e.test.ts`,
        );
      }
    }
    assert.ok(created, 'the page creates the site from the tarball');
    assert.deepEqual(
      registry.requests.filter((path) => path.includes('@kit-lang')),
      [],
      'no @kit-lang package was asked of the registry',
    );
  });
});
