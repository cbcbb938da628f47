// `kit preview` serves a built app as production runs it, and stops cleanly on SIGTERM.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attach, builtApp } from '../core/app/built-app.js';
import { CLI_MAIN, runInProcess } from './cli-harness.js';

describe('kit preview', function () {
  this.timeout(60_000);

  it('serves the app directory kit build --app wrote, and exits 0 on SIGTERM', async () => {
    const built = await builtApp();
    const app = await attach(
      spawn(process.execPath, [CLI_MAIN, 'preview', '--port', '0', built.appDir], {
        env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
      }),
    );
    const res = await fetch(`${app.url}/`);
    assert.equal(res.status, 200);
    const health = await fetch(`${app.url}/_kit/health`);
    assert.equal(health.status, 200);
    assert.equal(await app.stop(), 0);
  });

  it('says how to build an app when the directory holds none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-preview-'));
    try {
      const r = await runInProcess(['preview', 'nothing-here'], { cwd: dir });
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /kit preview: nothing-here holds no built app \(no kit-app\.json\); build one with kit build --out dist\/site --app nothing-here <sources>/,
      );
      const port = await runInProcess(['preview', '--port', 'http'], { cwd: dir });
      assert.equal(port.code, 2);
      assert.match(port.stderr, /kit preview: --port must be a number from 0 to 65535, not "http"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
