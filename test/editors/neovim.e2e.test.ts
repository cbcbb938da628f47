// The Neovim 0.7 set-up of docs/editors.md, run as written: the Lua block after the
// `<!-- neovim-0.7 -->` marker becomes a headless Neovim's init.lua, so the page and this test
// cannot drift apart. The project gets a node_modules/.bin/kit that starts this repository's
// compiled CLI, which is what the snippet looks for first, as npm would install it. The snippet
// sends no settings: a project's come from its kit.config (the starter's sets ssr).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, outDir, repoRoot } from '../helpers/repo.js';
import { runInProcess } from '../server/cli/cli-harness.js';

/** The fenced block that follows `<!-- name -->` in a Markdown text. */
function markedBlock(markdown: string, name: string): { lang: string; code: string } {
  const marker = `<!-- ${name} -->`;
  const at = markdown.indexOf(marker);
  assert.ok(at >= 0, `${marker} not found`);
  assert.equal(markdown.indexOf(marker, at + 1), -1, `${marker} appears twice`);
  const m = /^\s*```(\w*)\n([\s\S]*?)\n```/.exec(markdown.slice(at + marker.length));
  assert.ok(m, `no fenced block right after ${marker}`);
  return { lang: m[1], code: m[2] };
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

// Polls until the server's diagnostics reach the buffer, then writes what Neovim holds and quits.
const PROBE = `
local ok = vim.wait(8000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(diagnostics, {
    lnum = d.lnum, col = d.col, code = d.code, source = d.source, severity = d.severity, message = d.message,
  })
end
local clients = {}
for _, c in pairs(vim.lsp.buf_get_clients(0)) do
  table.insert(clients, { name = c.name, cmd = c.config.cmd, root_dir = c.config.root_dir })
end
local result = { ok = ok, filetype = vim.bo.filetype, diagnostics = diagnostics, clients = clients }
vim.fn.writefile({ vim.fn.json_encode(result) }, vim.env.KIT_PROBE_OUT)
vim.cmd('qa!')
`;

// Waits until the server has bound the project (`kit/status`) and published for the buffer, then
// writes what Neovim holds: every diagnostic of every buffer, and how many each publish carried.
const PROBE_CLEAN = `
local published, bound = {}, false
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  published[vim.uri_to_fname(result.uri)] = #result.diagnostics
  return publish(err, result, ctx, config)
end
vim.lsp.handlers['kit/status'] = function(_, result)
  if result and result.state == 'bound' then bound = true end
end
local name = vim.api.nvim_buf_get_name(0)
local ok = vim.wait(15000, function() return bound and published[name] ~= nil end, 20)
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get()) do
  table.insert(diagnostics, { code = d.code, message = d.message, lnum = d.lnum })
end
local result = { ok = ok, bound = bound, published = published[name], diagnostics = diagnostics }
vim.fn.writefile({ vim.fn.json_encode(result) }, vim.env.KIT_PROBE_OUT)
vim.cmd('qa!')
`;

interface Probe {
  ok: boolean;
  filetype: string;
  diagnostics: { lnum: number; col: number; code: string; source: string; severity: number; message: string }[];
  clients: { name: string; cmd: string[]; root_dir: string }[];
}

/** The project's node_modules/.bin/kit: this repository's compiled CLI, as npm would install it. */
function installKit(project: string): string {
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  const kit = join(project, 'node_modules', '.bin', 'kit');
  const cli = join(outDir, 'server', 'src', 'cli', 'main.js');
  writeFileSync(kit, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(cli)} "$@"\n`);
  chmodSync(kit, 0o755);
  return kit;
}

/**
 * A headless Neovim with the 0.7 snippet of docs/editors.md as its init.lua, editing `file`, that
 * runs `probe` and quits; answers what the probe wrote, and how long it all took.
 */
function runNeovim(work: string, file: string, probe: string): { result: unknown; ms: number; version: string } {
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  assert.ok(
    !version.error && version.status === 0,
    'Neovim is required for the editor test: nvim is missing (Debian: apt-get install neovim; .ci/run installs it)',
  );
  const { lang, code } = markedBlock(readFileSync(join(repoRoot, 'docs', 'editors.md'), 'utf8'), 'neovim-0.7');
  assert.equal(lang, 'lua');
  const init = join(work, 'init.lua');
  const probeFile = join(work, 'probe.lua');
  const out = join(work, 'probe.json');
  writeFileSync(init, `${code}\n`);
  writeFileSync(probeFile, probe);
  // Neovim's own state and logs stay in the temporary folder.
  const xdg = join(work, 'xdg');
  const started = performance.now();
  const r = spawnSync('nvim', ['--headless', '-i', 'NONE', '-u', init, '-c', `luafile ${probeFile}`, file], {
    cwd: work,
    encoding: 'utf8',
    timeout: 25000,
    env: {
      ...process.env,
      KIT_PROBE_OUT: out,
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      XDG_STATE_HOME: join(xdg, 'state'),
      XDG_CACHE_HOME: join(xdg, 'cache'),
    },
  });
  const ms = Math.round(performance.now() - started);
  assert.equal(r.status, 0, `nvim exited with ${r.status} (${r.signal ?? 'no signal'}): ${r.stdout}${r.stderr}`);
  return { result: JSON.parse(readFileSync(out, 'utf8')), ms, version: version.stdout.split('\n')[0] };
}

describe('Neovim set-up of docs/editors.md', function () {
  this.timeout(40000);
  let work: string;
  beforeEach(() => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'kit-nvim-')));
  });
  // The server Neovim started may still be exiting.
  afterEach(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

  it('the 0.7 snippet attaches kit lsp --stdio to a .kit buffer and shows its cross-file diagnostic', function () {
    // Two pages declaring the same route shape: duplicate_route on b.kit needs the whole project indexed.
    const project = join(work, 'site');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "site", "private": true }\n');
    for (const f of ['a.kit', 'b.kit']) copyFileSync(fixture('lsp', 'conflicts', f), join(project, f));
    const kit = installKit(project);
    const { result, ms, version } = runNeovim(work, join(project, 'b.kit'), PROBE);
    const p = result as Probe;
    this.test!.title += ` (${version}, ${ms} ms)`;

    assert.equal(p.filetype, 'kit');
    assert.deepEqual(p.clients, [{ name: 'kit', cmd: [kit, 'lsp', '--stdio'], root_dir: project }]);
    assert.ok(p.ok, `no diagnostics arrived: ${JSON.stringify(p)}`);
    assert.deepEqual(
      p.diagnostics.map((d) => [d.code, d.source, d.severity, d.lnum, d.col]),
      [['duplicate_route', 'kit', 1, 3, 0]],
    );
    assert.match(p.diagnostics[0].message, /duplicate page route "\/blog\/\{id\}".*a\.kit and b\.kit/);
  });

  it('the 0.7 snippet, which sends no settings, opens the kit init starter without a diagnostic', async function () {
    // Neovim 0.7 neither answers workspace/configuration nor sends didChangeConfiguration: the
    // starter's ssr must come from its kit.config alone.
    const r = await runInProcess(['init', 'starter'], { cwd: work });
    assert.equal(r.code, 0, r.stderr);
    const project = join(work, 'starter');
    installKit(project);
    mkdirSync(join(project, 'node_modules', '@kit-lang'), { recursive: true });
    symlinkSync(repoRoot, join(project, 'node_modules', '@kit-lang', 'kit'), 'dir');
    const { result, ms, version } = runNeovim(work, join(project, 'site', 'account.kit'), PROBE_CLEAN);
    const p = result as { ok: boolean; bound: boolean; published?: number; diagnostics: unknown[] };
    this.test!.title += ` (${version}, ${ms} ms)`;
    assert.ok(p.ok, `the server never bound the project and published the buffer: ${JSON.stringify(p)}`);
    assert.equal(p.published, 0, 'the buffer was published without diagnostics');
    assert.deepEqual(p.diagnostics, []);
  });
});
