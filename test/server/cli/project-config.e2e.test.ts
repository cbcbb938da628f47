// kit.config as the project's settings: every command run without paths reads the sources (and
// `kit build` the outputs) and `ssr` from it; paths and flags given take their place; a setting
// kit cannot read without running the config is an error at its file:line:col.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../../helpers/repo.js';
import { attach } from '../core/app/built-app.js';
import { CLI_MAIN, runInProcess } from './cli-harness.js';

const SSR_OFF = 'export const ssr = false;\n';

describe('kit.config: the project settings every command reads', function () {
  this.timeout(60_000);
  let work: string;
  let project: string;
  const config = (text: string) => writeFileSync(join(project, 'kit.config.ts'), text);
  const kit = (args: string[], cwd = project) => runInProcess(args, { cwd });

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'kit-project-config-'));
    project = join(work, 'project');
    cpSync(fixture('project-config'), project, { recursive: true });
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('kit check without paths checks the sources (site/ beside the config) with its ssr, from any folder inside', async () => {
    const r = await kit(['check']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /checked 2 files, no problems/);
    const inside = await kit(['check', '--json'], join(project, 'site'));
    assert.equal(inside.code, 0, inside.stdout + inside.stderr);
    assert.deepEqual(JSON.parse(inside.stdout).diagnostics, []);
  });

  it('--ssr and paths take the place of the settings', async () => {
    config(SSR_OFF);
    const off = await kit(['check']);
    assert.equal(off.code, 1);
    assert.match(off.stdout, /^site\/account\.kit:\d+:\d+: error missing_ssr_addon: .*set ssr = true in kit\.config/m);
    assert.equal((await kit(['check', '--ssr'])).code, 0);
    // A path: only that file, still with the config's settings.
    const one = await kit(['check', '--json', '--ssr', 'site/home.kit']);
    assert.equal(one.code, 0, one.stderr);
    const elsewhere = join(work, 'other');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'x.kit'), 'package x\n\npage x\nroute "/x"\nguard public\n\nview {\n  <p>x</p>\n}\n');
    const other = await kit(['check', elsewhere]);
    assert.equal(other.code, 0, other.stdout + other.stderr);
    assert.match(other.stdout, /checked 1 file, no problems/);
  });

  it('reads sources from the config, relative to it, and says when they are not a directory', async () => {
    renameSync(join(project, 'site'), join(project, 'pages'));
    config("export default { ssr: true, sources: 'pages' };\n");
    const r = await kit(['routes', '--format', 'table']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\/account\/\{id:int\}/);
    config("export const ssr = true;\nexport const sources = 'nowhere';\n");
    const missing = await kit(['check']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'kit check: kit.config.ts sets sources to nowhere, which is not a directory\n');
    // Without `sources` and without site/, the config's own folder holds the pages.
    config('export const ssr = true;\n');
    const own = await kit(['check']);
    assert.equal(own.code, 0, own.stdout + own.stderr);
    assert.match(own.stdout, /checked 2 files/);
  });

  it('kit routes, endpoints and inspect read the sources and ssr too', async () => {
    const routes = await kit(['routes']);
    assert.equal(routes.code, 0, routes.stderr);
    assert.deepEqual(
      JSON.parse(routes.stdout)
        .routes.map((r: { route: string }) => r.route)
        .sort(),
      ['/', '/account/{id:int}'],
    );
    const endpoints = await kit(['endpoints']);
    assert.equal(endpoints.code, 0, endpoints.stderr);
    const tree = await kit(['inspect', 'tree']);
    assert.equal(tree.code, 0, tree.stderr);
    assert.ok(!tree.stdout.includes('missing_ssr_addon'), 'inspected with ssr on');
    config(SSR_OFF);
    const refused = await kit(['routes']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /error missing_ssr_addon/);
  });

  it('kit build writes out and app from the config (dist/site, dist/app by default); flags and paths take their place', async () => {
    const r = await kit(['build']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /→ dist\/site\//);
    assert.ok(existsSync(join(project, 'dist', 'site', 'index.html')));
    assert.ok(existsSync(join(project, 'dist', 'app', 'server.js')));
    const flags = await kit(['build', '--out', 'www']);
    assert.equal(flags.code, 0, flags.stdout + flags.stderr);
    assert.ok(existsSync(join(project, 'www', 'index.html')));
    // Paths name other sources: the config's outputs go with its own, so --out is needed and no app is made.
    const paths = await kit(['build', 'site']);
    assert.equal(paths.code, 2);
    assert.match(paths.stderr, /^kit build: --out <dir> is required with paths/);
    rmSync(join(project, 'dist'), { recursive: true });
    assert.equal((await kit(['build', '--out', 'www', 'site'])).code, 0);
    assert.ok(!existsSync(join(project, 'dist')));
    config("export default { ssr: true, out: 'public', app: false };\n");
    const noApp = await kit(['build']);
    assert.equal(noApp.code, 0, noApp.stdout + noApp.stderr);
    assert.ok(existsSync(join(project, 'public', 'index.html')));
    assert.ok(!existsSync(join(project, 'dist')), 'app: false writes no app server');
  });

  it('a setting that is not a literal is an error at its file:line:col, and nothing is built', async () => {
    config("// settings\nexport const ssr = process.env.KIT_SSR === '1';\n");
    const r = await kit(['check']);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /^kit\.config\.ts:2:20: error config_not_literal: ssr in kit\.config\.ts is not a literal \(process\.env\.KIT_SSR === '1'\): kit reads the settings without running the config, so write true or false itself/m,
    );
    assert.match(r.stdout, /2 \| export const ssr = process\.env\.KIT_SSR === '1';\n\s+\| +\^~+/);
    const json = JSON.parse((await kit(['check', '--json'])).stdout) as {
      diagnostics: { code: string; file: string; range: { start: { line: number; column: number } } }[];
    };
    const d = json.diagnostics.find((x) => x.code === 'config_not_literal')!;
    assert.deepEqual([d.file, d.range.start.line, d.range.start.column], ['kit.config.ts', 2, 20]);
    const build = await kit(['build']);
    assert.equal(build.code, 1);
    assert.match(build.stderr, /kit\.config\.ts:2:20: error config_not_literal/);
    assert.ok(!existsSync(join(project, 'dist')));
  });

  it('without a config and without paths, says what to do', async () => {
    rmSync(join(project, 'kit.config.ts'));
    for (const command of ['check', 'routes', 'endpoints', 'build']) {
      const r = await kit([command]);
      assert.equal(r.code, 2, command);
      assert.match(
        r.stderr,
        new RegExp(
          `^kit ${command}: no sources: name the directory of the \\.kit files \\(kit ${command} site\\), or run it ` +
            'in a project whose kit\\.config\\.ts .* is found here or up to the project root\\n$',
        ),
      );
    }
  });

  it('kit dev without a path serves the sources with the config ssr, and kit preview the built app', async () => {
    const dev = await attachDev(project);
    try {
      const page = await fetch(`${dev.url}/account/7`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Account of Ann/);
      assert.match(dev.out(), /watching site \(Ctrl-C to stop\)/);
      // ssr follows the config as it is edited: off, the page is an error.
      config(SSR_OFF);
      await dev.waitFor(/ssr is off \(from kit\.config\.ts\)/);
      await dev.waitFor(/error missing_ssr_addon/);
      assert.match(await (await fetch(`${dev.url}/`)).text(), /missing_ssr_addon/, 'the overlay says why');
    } finally {
      await dev.stop();
    }
    config('export const ssr = true;\n');
    assert.equal((await kit(['build'])).code, 0);
    const preview = await attach(
      spawn(process.execPath, [CLI_MAIN, 'preview', '--port', '0'], {
        cwd: project,
        env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
      }),
    );
    try {
      const res = await fetch(`${preview.url}/account/3`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /Account of Ann/);
    } finally {
      assert.equal(await preview.stop(), 0);
    }
  });
});

/** `kit dev --port 0` with no path in `cwd`, as `npm run dev` runs it. */
async function attachDev(cwd: string): Promise<{
  url: string;
  out(): string;
  waitFor(re: RegExp): Promise<void>;
  stop(): Promise<void>;
}> {
  const proc = spawn(process.execPath, [CLI_MAIN, 'dev', '--port', '0'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const seen: (() => void)[] = [];
  const take = (d: Buffer) => {
    out += d;
    for (const f of [...seen]) f();
  };
  proc.stdout!.on('data', take);
  proc.stderr!.on('data', take);
  const waitFor = (re: RegExp) =>
    new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`kit dev never printed ${re}:\n${out}`)), 20_000);
      const check = () => {
        if (!re.test(out)) return;
        clearTimeout(timer);
        seen.splice(seen.indexOf(check), 1);
        ok();
      };
      seen.push(check);
      check();
    });
  await waitFor(/\(Ctrl-C to stop\)/);
  const url = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out)![1];
  return {
    url,
    out: () => out,
    waitFor,
    stop: () =>
      new Promise<void>((ok) => {
        if (proc.exitCode !== null) return ok();
        proc.once('exit', () => ok());
        proc.kill('SIGINT');
      }),
  };
}
