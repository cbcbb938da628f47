// The Neovim 0.7 set-up of docs/editors.md, run as written: the Lua block after the
// `<!-- neovim-0.7 -->` marker (and, for URLs, the `<!-- neovim-urls -->` one) becomes a headless
// Neovim's init.lua, so the page and this test cannot drift apart. The project gets a
// node_modules/.bin/kit that starts this repository's compiled CLI, which is what the snippet
// looks for first, as npm would install it. The snippet sends no settings: a project's come from
// its kit.config (the starter's sets ssr).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
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

// Follows a link with vim.lsp.buf.definition(), goes to a URL with the docs' :KitUrl and renames a
// route with vim.lsp.buf.rename(), as a user would, then writes what Neovim holds.
const URL_PROBE = `
local function kit()
  for _, c in pairs(vim.lsp.get_active_clients()) do
    if c.name == 'kit' then return c end
  end
end
local function name() return vim.api.nvim_buf_get_name(0) end
local function cursor() return vim.api.nvim_win_get_cursor(0) end
local out = {}
-- The folder is indexed once the server counts its ten .kit files.
out.indexed = vim.wait(10000, function()
  local c = kit()
  local r = c and c.request_sync('kit/stats', {}, 2000, 0)
  return r ~= nil and r.result ~= nil and r.result.files == 10
end, 50)
out.links = {}
local r = kit().request_sync('textDocument/documentLink', { textDocument = { uri = vim.uri_from_bufnr(0) } }, 5000, 0)
for _, l in ipairs(r.result) do
  table.insert(out.links, { line = l.range.start.line, target = l.target })
end
vim.fn.search('/blog/hello-kit')
vim.lsp.buf.definition()
vim.wait(5000, function() return name():match('blog/post%.kit$') ~= nil end, 20)
out.definition = { file = name(), line = cursor()[1], text = vim.fn.getline('.') }
vim.cmd('KitUrl /users/42')
vim.wait(5000, function() return name():match('users/user%.kit$') ~= nil end, 20)
out.url = { file = name(), line = cursor()[1], text = vim.fn.getline('.') }
vim.cmd('edit ' .. vim.env.KIT_PROJECT .. '/blog/post.kit')
-- On the static segment blog of route "/blog/{slug}" (line 4).
vim.fn.cursor(4, 10)
vim.lsp.buf.rename('posts')
vim.wait(5000, function() return vim.fn.getline(4) == 'route "/posts/{slug}"' end, 20)
out.route = vim.fn.getline(4)
local home = vim.fn.bufnr(vim.env.KIT_PROJECT .. '/home.kit')
out.home = vim.api.nvim_buf_get_lines(home, 0, -1, false)
vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.KIT_PROBE_OUT)
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

interface UrlProbe {
  indexed: boolean;
  links: { line: number; target: string }[];
  definition: { file: string; line: number; text: string };
  url: { file: string; line: number; text: string };
  route: string;
  home: string[];
}

interface Probe {
  ok: boolean;
  filetype: string;
  diagnostics: { lnum: number; col: number; code: string; source: string; severity: number; message: string }[];
  clients: { name: string; cmd: string[]; root_dir: string }[];
}

/** The docs' Lua blocks after these markers, as one init.lua. */
function initLua(...markers: string[]): string {
  const docs = readFileSync(join(repoRoot, 'docs', 'editors.md'), 'utf8');
  return markers
    .map((m) => {
      const { lang, code } = markedBlock(docs, m);
      assert.equal(lang, 'lua', m);
      return code;
    })
    .join('\n\n');
}

/** The project's node_modules/.bin/kit: this repository's compiled CLI, as npm would install it. */
function installKit(dir: string): string {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const kit = join(dir, 'node_modules', '.bin', 'kit');
  const cli = join(outDir, 'server', 'src', 'cli', 'main.js');
  writeFileSync(kit, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(cli)} "$@"\n`);
  chmodSync(kit, 0o755);
  return kit;
}

/** A project folder with package.json and a node_modules/.bin/kit that starts the compiled CLI. */
function project(root: string, fill: (dir: string) => void): { dir: string; kit: string } {
  const dir = join(root, 'site');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "site", "private": true }\n');
  fill(dir);
  return { dir, kit: installKit(dir) };
}

/** Runs a headless Neovim with `init` on `file`, then the probe; answers what the probe wrote and the time taken. */
function runNeovim(work: string, init: string, probe: string, file: string, env: Record<string, string> = {}) {
  const initFile = join(work, 'init.lua');
  const probeFile = join(work, 'probe.lua');
  const out = join(work, 'probe.json');
  rmSync(out, { force: true });
  writeFileSync(initFile, `${init}\n`);
  writeFileSync(probeFile, probe);
  // Neovim's own state and logs stay in the temporary folder.
  const xdg = join(work, 'xdg');
  const started = performance.now();
  const r = spawnSync('nvim', ['--headless', '-i', 'NONE', '-u', initFile, '-c', `luafile ${probeFile}`, file], {
    cwd: work,
    encoding: 'utf8',
    timeout: 25000,
    env: {
      ...process.env,
      ...env,
      KIT_PROBE_OUT: out,
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      XDG_STATE_HOME: join(xdg, 'state'),
      XDG_CACHE_HOME: join(xdg, 'cache'),
    },
  });
  const ms = Math.round(performance.now() - started);
  assert.equal(r.status, 0, `nvim exited with ${r.status} (${r.signal ?? 'no signal'}): ${r.stdout}${r.stderr}`);
  return { probe: JSON.parse(readFileSync(out, 'utf8')) as unknown, ms };
}

function nvimVersion(): string {
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  assert.ok(
    !version.error && version.status === 0,
    'Neovim is required for the editor test: nvim is missing (Debian: apt-get install neovim; .ci/run installs it)',
  );
  return version.stdout.split('\n')[0];
}

describe('Neovim set-up of docs/editors.md', function () {
  this.timeout(40000);
  let work: string;
  before(() => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'kit-nvim-')));
  });
  // The servers Neovim started may still be exiting.
  after(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

  it('the 0.7 snippet attaches kit lsp --stdio to a .kit buffer and shows its cross-file diagnostic', function () {
    const version = nvimVersion();
    // Two pages declaring the same route shape: duplicate_route on b.kit needs the whole project indexed.
    const { dir, kit } = project(join(work, 'conflicts'), (d) => {
      for (const f of ['a.kit', 'b.kit']) copyFileSync(fixture('lsp', 'conflicts', f), join(d, f));
    });
    const { probe, ms } = runNeovim(work, initLua('neovim-0.7'), PROBE, join(dir, 'b.kit'));
    const p = probe as Probe;
    this.test!.title += ` (${version}, ${ms} ms)`;

    assert.equal(p.filetype, 'kit');
    assert.deepEqual(p.clients, [{ name: 'kit', cmd: [kit, 'lsp', '--stdio'], root_dir: dir }]);
    assert.ok(p.ok, `no diagnostics arrived: ${JSON.stringify(p)}`);
    assert.deepEqual(
      p.diagnostics.map((d) => [d.code, d.source, d.severity, d.lnum, d.col]),
      [['duplicate_route', 'kit', 1, 3, 0]],
    );
    assert.match(p.diagnostics[0].message, /duplicate page route "\/blog\/\{id\}".*a\.kit and b\.kit/);
  });

  it('the 0.7 snippet, which sends no settings, opens the kit init starter without a diagnostic', async function () {
    const version = nvimVersion();
    // Neovim 0.7 neither answers workspace/configuration nor sends didChangeConfiguration: the
    // starter's ssr must come from its kit.config alone.
    const r = await runInProcess(['init', 'starter'], { cwd: work });
    assert.equal(r.code, 0, r.stderr);
    const dir = join(work, 'starter');
    installKit(dir);
    mkdirSync(join(dir, 'node_modules', '@kit-lang'), { recursive: true });
    symlinkSync(repoRoot, join(dir, 'node_modules', '@kit-lang', 'kit'), 'dir');
    const { probe, ms } = runNeovim(work, initLua('neovim-0.7'), PROBE_CLEAN, join(dir, 'site', 'account.kit'));
    const p = probe as { ok: boolean; bound: boolean; published?: number; diagnostics: unknown[] };
    this.test!.title += ` (${version}, ${ms} ms)`;
    assert.ok(p.ok, `the server never bound the project and published the buffer: ${JSON.stringify(p)}`);
    assert.equal(p.published, 0, 'the buffer was published without diagnostics');
    assert.deepEqual(p.diagnostics, []);
  });

  it('follows a link, goes to a URL with :KitUrl and renames a route with its links', function () {
    const version = nvimVersion();
    const { dir } = project(join(work, 'urls'), (d) => cpSync(fixture('lsp', 'urls'), d, { recursive: true }));
    const { probe, ms } = runNeovim(work, initLua('neovim-0.7', 'neovim-urls'), URL_PROBE, join(dir, 'home.kit'), {
      KIT_PROJECT: dir,
    });
    const p = probe as UrlProbe;
    this.test!.title += ` (${version}, ${ms} ms)`;
    assert.ok(p.indexed, JSON.stringify(p));
    const rel = (uri: string) => uri.slice(`file://${dir}/`.length);
    assert.deepEqual(
      p.links.map((l) => `${l.line + 1} ${rel(l.target)}`),
      [
        '10 img/logo.png',
        '14 img/logo.png',
        '16 blog/post.kit#L13,3',
        '17 blog/post.kit#L14,3',
        '18 blog/post.kit#L4,1',
        '21 docs/docs.kit#L3,1',
        '22 users/user.kit#L4,1',
        '23 blog/post.kit#L18,1',
        '24 blog/index.kit#L7,1',
      ],
    );
    assert.deepEqual(p.definition, {
      file: join(dir, 'blog', 'post.kit'),
      line: 13,
      text: '  => { slug: "hello-kit" }',
    });
    assert.deepEqual(p.url, { file: join(dir, 'users', 'user.kit'), line: 4, text: 'route "/users/{id:int}"' });
    assert.equal(p.route, 'route "/posts/{slug}"');
    const home = p.home.join('\n');
    assert.match(home, /<a href="\/posts\/hello-kit">Hello, kit<\/a>/);
    assert.match(home, /<a href="\/posts\/routing-rules#top">Routing rules<\/a>/);
    assert.match(home, /<a href="\/users\/42">A user<\/a>/);
  });
});
