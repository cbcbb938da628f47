// docs/getting-started.md is followed as a reader without the npm registry would: its blocks marked
// `sh test=tarball` are read from the page and run command by command in a fresh directory that
// holds only the packed tarball, without the network (test/package/offline-install.ts installs
// from npm's cache). A command the test does not know how to run fails it, so the page cannot show
// a command nobody ran. Servers (`npm run dev`, `npm start`) are started, asked for their home
// page, and stopped.
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { codeBlocks } from '../../docs/tools/markdown.js';
import { repoRoot } from '../helpers/repo.js';
import { installOffline, packKit, run } from '../package/offline-install.js';

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
async function runScript(args: string[], cwd: string, where: string): Promise<string> {
  const child: ChildProcess = spawn('npm', args, {
    cwd,
    detached: true,
    env: { ...process.env, PORT: '0', KIT_CSRF_SECRET: 'x'.repeat(32), npm_config_update_notifier: 'false' },
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

describe('docs: getting-started.md from the tarball, offline', function () {
  this.timeout(400_000);
  let work: string;
  let tarball: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-getting-started-'));
    tarball = packKit(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('names the tarball this version packs', () => {
    const steps = tarballSteps();
    assert.ok(steps.length >= 4, `${steps.length} commands`);
    const named = steps.flatMap((s) => [...s.command.matchAll(/\.\/(\S+\.tgz)/g)].map((m) => m[1]));
    assert.ok(named.length > 0);
    for (const n of named) assert.equal(n, basename(tarball), 'the page names the current version');
  });

  it('runs every command of the tested blocks in a fresh directory', async () => {
    const fresh = join(work, 'fresh');
    mkdirSync(fresh);
    copyFileSync(tarball, join(fresh, basename(tarball)));
    let cwd = fresh;
    let npxKit: string | undefined;
    for (const { line, command } of tarballSteps()) {
      const where = `docs/getting-started.md:${line}: ${command}`;
      let m: RegExpExecArray | null;
      if ((m = /^npx -p \.\/(\S+\.tgz) kit (.+)$/.exec(command))) {
        // What npx does: install the tarball (and its dependencies) somewhere, run its `kit`.
        if (!npxKit) {
          const npx = join(work, 'npx');
          mkdirSync(npx);
          writeFileSync(join(npx, 'package.json'), '{ "name": "npx-run", "private": true }\n');
          installOffline(npx, join(cwd, m[1]));
          npxKit = join(npx, 'node_modules', '@kit-lang', 'kit', 'bin', 'kit.js');
        }
        const r = run(process.execPath, [npxKit, ...m[2].split(/\s+/)], cwd);
        assert.equal(r.status, 0, `${where}\n${r.stdout}${r.stderr}`);
      } else if ((m = /^cd (\S+)$/.exec(command))) {
        cwd = join(cwd, m[1]);
      } else if (command === 'npm install') {
        installOffline(cwd, tarball);
      } else if ((m = /^npm (start|run \S+)$/.exec(command))) {
        await runScript(m[1].split(' '), cwd, where);
      } else {
        assert.fail(
          `${where}: the test does not know how to run this command; teach test/docs/getting-started.test.ts`,
        );
      }
    }
    assert.ok(npxKit, 'the page creates the site from the tarball');
  });
});
