// `kit.config.ts` where users look for it: at the project root (the nearest directory with a
// package.json) as well as beside the `.kit` files.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './cli-harness.js';

const PAGE =
  'package site\n\npage members\nroute "/members"\nguard auth.required\nrender ssr\n\nview {\n  <main>Hi</main>\n}\n';
const CONFIG = "export const guards = {\n  'auth.required': () => true,\n};\n";

describe('kit check: the app config at the project root', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-root-config-'));
    writeFileSync(join(dir, 'package.json'), '{ "name": "p", "private": true }\n');
    mkdirSync(join(dir, 'site'));
    writeFileSync(join(dir, 'site', 'members.kit'), PAGE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says where it looked when no config registers the guard', async () => {
    const r = await runInProcess(['check', '--ssr', 'site'], { cwd: dir });
    assert.match(r.stdout, /unknown_guard/);
    assert.match(r.stdout, /beside the \.kit files or at the project root/);
  });

  it('reads kit.config.ts at the project root', async () => {
    writeFileSync(join(dir, 'kit.config.ts'), CONFIG);
    const r = await runInProcess(['check', '--ssr', 'site'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /unknown_guard/);
    // From another working directory too: the root is found from the sources, not from cwd.
    const elsewhere = await runInProcess(['check', '--ssr', join(dir, 'site')], { cwd: tmpdir() });
    assert.doesNotMatch(elsewhere.stdout, /unknown_guard/);
  });

  it('reads kit.config.ts beside the .kit files, and refuses two configs for one app', async () => {
    writeFileSync(join(dir, 'site', 'kit.config.ts'), CONFIG);
    const r = await runInProcess(['check', '--ssr', 'site'], { cwd: dir });
    assert.doesNotMatch(r.stdout, /unknown_guard/);
    writeFileSync(join(dir, 'kit.config.ts'), CONFIG);
    const build = await runInProcess(['build', '--ssr', '--out', 'out/site', '--app', 'out/app', 'site'], { cwd: dir });
    assert.equal(build.code, 1, build.stdout + build.stderr);
    assert.match(build.stderr, /several app config modules \(kit\.config\.ts, site\/kit\.config\.ts\)/);
  });

  it('suggests the registered guard closest to a misspelt one', async () => {
    writeFileSync(join(dir, 'kit.config.ts'), CONFIG);
    writeFileSync(join(dir, 'site', 'members.kit'), PAGE.replace('auth.required', 'auth.requird'));
    const r = await runInProcess(['check', '--ssr', 'site'], { cwd: dir });
    assert.match(r.stdout, /kit\.config\.ts does not register it; did you mean "auth\.required"\?/);
  });
});
