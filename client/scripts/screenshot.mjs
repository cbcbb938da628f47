#!/usr/bin/env node
// Renders the readme's screenshot from a real language-server run, so the picture cannot show
// anything the server does not do. The compiled server (`kit lsp --stdio`, through the tests' LSP
// client in out/) indexes examples/site; contact.kit is opened with its route changed to one that
// blog/post.kit already declares; the diagnostics it publishes and its hover at the route are
// drawn into an editor-like HTML page, coloured by the extension's own TextMate grammar, and
// headless Chromium takes the picture. Nothing on disk changes: the edit lives in the open document.
// Usage: node client/scripts/screenshot.mjs [--out <file>]   (after `npx tsc -b`;
//        default: client/images/hover-diagnostics.png)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(clientDir, '..');
const site = join(root, 'examples', 'site');
const FILE = 'contact.kit';
const EDIT = { from: 'route "/contact"', to: 'route "/blog/{id}"' };

/**
 * What the server says about the edited contact.kit: its text, the diagnostics published for it
 * and the hover at the route, where both diagnostics' ranges meet (inside `{id}`).
 */
export async function collect() {
  const helper = join(root, 'out', 'test', 'server', 'lsp', 'helpers', 'lsp-client.js');
  if (!existsSync(helper)) throw new Error('out/ has no compiled LSP client: run `npx tsc -b` first');
  const { LspClient, fileUri } = await import(pathToFileURL(helper).href);
  const path = join(site, FILE);
  const original = readFileSync(path, 'utf8');
  if (!original.includes(EDIT.from)) throw new Error(`${FILE} no longer contains ${EDIT.from}`);
  const text = original.replace(EDIT.from, EDIT.to);
  const line = text.split('\n').findIndex((l) => l.startsWith(EDIT.to));
  const position = { line, character: EDIT.to.indexOf('{id}') + 1 };
  const uri = fileUri(path);
  // The example site is checked with --ssr (its docs page renders at request time).
  const c = LspClient.start();
  c.settings = { ssr: true };
  try {
    await c.initialize([site], { initializationOptions: { ssr: true } });
    // Handler binding comes last; after it, the set of diagnostics is final.
    if (!c.statuses.some((s) => s.state === 'bound')) await c.waitForStatuses(1, 30000, 'bound');
    await c.open(uri, text);
    await c.waitForDiagnostics(uri, (d) => d.diagnostics.some((x) => x.code === 'duplicate_route'));
    const hover = await c.request('textDocument/hover', { textDocument: { uri }, position });
    const diagnostics = c.diagnostics.get(uri).diagnostics.map((d) => ({
      ...d,
      relatedInformation: d.relatedInformation?.map((r) => ({
        file: relative(site, fileURLToPath(r.location.uri)),
        range: r.location.range,
        message: r.message,
      })),
    }));
    return { file: FILE, folder: 'site', text, position, diagnostics, hover };
  } finally {
    await c.shutdown().catch(() => c.kill());
  }
}

/** TextMate tokens of each line, from the grammar the extension ships, as vscode-textmate gives them. */
export async function tokenize(text) {
  // vscode-textmate and its Oniguruma build come with the grammar tests' vscode-tmgrammar-test.
  const require = createRequire(join(root, 'package.json'));
  const tm = require('vscode-textmate');
  const onig = require('vscode-oniguruma');
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const grammarPath = join(root, 'syntaxes', 'kit.tmLanguage.json');
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.kit' ? tm.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.kit');
  let state = tm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => ({ start: t.startIndex, end: t.endIndex, scopes: t.scopes }));
  });
}

// Colours of VS Code's Dark+ theme, by scope prefix; the innermost scope with a rule wins.
const THEME = [
  ['comment', '#6a9955'],
  ['string', '#ce9178'],
  ['constant.numeric', '#b5cea8'],
  ['constant.language', '#569cd6'],
  ['keyword.other.directive', '#c586c0'],
  ['keyword', '#569cd6'],
  ['entity.name.tag', '#569cd6'],
  ['entity.other.attribute-name', '#9cdcfe'],
  ['entity.name.function', '#dcdcaa'],
  ['entity.name.type', '#4ec9b0'],
  ['entity.name.section', '#4ec9b0'],
  ['entity.name.namespace', '#4ec9b0'],
  ['variable', '#9cdcfe'],
  ['punctuation.definition.tag', '#808080'],
  ['punctuation.section.interpolation', '#569cd6'],
];

function colour(scopes) {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const hit = THEME.find(([p]) => scopes[i] === p || scopes[i].startsWith(`${p}.`));
    if (hit) return hit[1];
  }
  return '#d4d4d4';
}

const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The Markdown the server's hovers use (bold, code spans, tables, fences), as HTML. */
export function markdownToHtml(md) {
  // Code spans first (their text is literal), then bold, which may enclose them.
  const inline = (s) => {
    const spans = [];
    const marked = s.replace(/`([^`]*)`/g, (_, c) => `\u0000${spans.push(c) - 1}\u0000`);
    return escapeHtml(marked)
      .replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')
      .replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${escapeHtml(spans[Number(i)])}</code>`);
  };
  const cells = (row) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  return md
    .split(/\n{2,}/)
    .map((block) => {
      if (block.startsWith('```')) return `<pre>${escapeHtml(block.replace(/^```\w*\n?|\n?```$/g, ''))}</pre>`;
      const lines = block.split('\n');
      if (lines.every((l) => l.trim().startsWith('|'))) {
        const rows = lines.filter((l) => !/^\s*\|[\s|:-]+\|\s*$/.test(l)).map(cells);
        // Tables with an empty header row read as plain two-column lists.
        if (rows.length && rows[0].every((c) => c === '')) rows.shift();
        const body = rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('');
        return `<table>${body}</table>`;
      }
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('');
}

const SEVERITY = { 1: ['error', '#f14c4c', '⊗'], 2: ['warning', '#cca700', '⚠'], 3: ['info', '#3794ff', 'ⓘ'] };
const severityOf = (d) => SEVERITY[d.severity ?? 1] ?? SEVERITY[1];
const contains = (range, p) =>
  (range.start.line < p.line || (range.start.line === p.line && range.start.character <= p.character)) &&
  (p.line < range.end.line || (p.line === range.end.line && p.character < range.end.character));

/** One line of code as spans: grammar colours, squiggles under diagnostics, the hovered word. */
function lineHtml(text, tokens, lineNo, diagnostics, hoverRange) {
  const marks = [];
  for (const d of diagnostics) marks.push({ range: d.range, cls: `squiggle-${severityOf(d)[0]}` });
  if (hoverRange) marks.push({ range: hoverRange, cls: 'hovered' });
  const onLine = marks
    .filter((m) => m.range.start.line <= lineNo && lineNo <= m.range.end.line)
    .map((m) => ({
      from: m.range.start.line === lineNo ? m.range.start.character : 0,
      to: m.range.end.line === lineNo ? m.range.end.character : text.length,
      cls: m.cls,
    }));
  const cuts = new Set([0, text.length]);
  for (const t of tokens) cuts.add(Math.min(t.start, text.length)).add(Math.min(t.end, text.length));
  for (const m of onLine) cuts.add(m.from).add(m.to);
  const points = [...cuts].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const token = tokens.find((t) => t.start <= a && a < t.end);
    const classes = onLine.filter((m) => m.from <= a && a < m.to).map((m) => m.cls);
    const cls = classes.length ? ` class="${classes.join(' ')}"` : '';
    html += `<span${cls} style="color:${colour(token?.scopes ?? [])}">${escapeHtml(text.slice(a, b))}</span>`;
  }
  return html || ' ';
}

function diagnosticHtml(d, { related = true } = {}) {
  const [, color, icon] = severityOf(d);
  const rel = related
    ? (d.relatedInformation ?? [])
        .map(
          (r) =>
            `<div class="related"><span class="link">${escapeHtml(r.file)}(${r.range.start.line + 1}, ` +
            `${r.range.start.character + 1})</span>: ${escapeHtml(r.message)}</div>`,
        )
        .join('')
    : '';
  return (
    `<div class="diagnostic"><span class="icon" style="color:${color}">${icon}</span><div>` +
    `<span class="message">${escapeHtml(d.message)}</span> <span class="source">${escapeHtml(d.source ?? '')}` +
    `(${escapeHtml(String(d.code ?? ''))})</span>${rel}</div></div>`
  );
}

/** The editor-like page: the file, the hover VS Code would show at `position`, the Problems panel. */
export function render(data, tokens) {
  const lines = data.text.replace(/\n$/, '').split('\n');
  const hoverRange = data.hover?.range;
  const atCursor = data.diagnostics.filter((d) => contains(d.range, data.position));
  const hoverMd = data.hover ? data.hover.contents.value : '';
  const anchor = hoverRange?.start ?? data.position;
  const errors = data.diagnostics.filter((d) => (d.severity ?? 1) === 1).length;
  const warnings = data.diagnostics.filter((d) => d.severity === 2).length;
  const code = lines
    .map(
      (l, i) =>
        `<div class="row${i === data.position.line ? ' current' : ''}"><span class="ln">${i + 1}</span>` +
        `<span class="src">${lineHtml(l, tokens[i] ?? [], i, data.diagnostics, hoverRange)}</span></div>`,
    )
    .join('');
  const problems = data.diagnostics
    .map(
      (d) =>
        `<div class="problem">${diagnosticHtml(d)}<span class="where">[Ln ${d.range.start.line + 1}, ` +
        `Col ${d.range.start.character + 1}]</span></div>`,
    )
    .join('');
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; }
  body { margin: 0; background: #1e1e1e; font: 13px/1.4 "DejaVu Sans", "Liberation Sans", sans-serif; color: #ccc; }
  .window { width: 960px; border: 1px solid #3c3c3c; }
  .tabs { background: #252526; height: 35px; display: flex; }
  .tab { padding: 0 16px; line-height: 35px; background: #1e1e1e; color: #fff; border-top: 1px solid #0078d4; }
  .tab .dirty { color: #aaa; margin-left: 8px; }
  .crumbs { height: 22px; line-height: 22px; padding-left: 16px; color: #a9a9a9; font-size: 12px; }
  .editor { position: relative; height: 456px; overflow: hidden;
    font: 13px/19px "DejaVu Sans Mono", "Liberation Mono", monospace; }
  .row { height: 19px; white-space: pre; }
  .row.current { background: #282828; }
  .ln { display: inline-block; width: 56px; padding-right: 22px; text-align: right; color: #6e7681; }
  .current .ln { color: #ccc; }
  .src { display: inline-block; }
  .hovered { background: rgba(173, 214, 255, 0.15); }
  .squiggle-error, .squiggle-warning, .squiggle-info {
    text-decoration: underline wavy; text-decoration-skip-ink: none; text-underline-offset: 3px; }
  .squiggle-error { text-decoration-color: #f14c4c; }
  .squiggle-warning { text-decoration-color: #cca700; }
  .squiggle-info { text-decoration-color: #3794ff; }
  /* In the editor's font, so that ch is a column of code. */
  .anchor { position: absolute; }
  .hover { width: max-content; max-width: 620px; background: #252526; border: 1px solid #454545;
    border-radius: 3px; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.36);
    font: 13px/1.45 "DejaVu Sans", "Liberation Sans", sans-serif; color: #ccc; }
  .hover section { padding: 6px 10px; }
  .hover section + section { border-top: 1px solid #454545; }
  .diagnostic { display: flex; gap: 6px; white-space: pre-wrap; }
  .diagnostic + .diagnostic { margin-top: 6px; }
  .icon { font-size: 14px; line-height: 18px; }
  .source { color: #999; }
  .related { color: #ccc; margin-top: 2px; }
  .link { color: #3794ff; }
  .hover p { margin: 0 0 6px; }
  .hover b { color: #e7e7e7; }
  .hover b code { font-weight: bold; }
  .hover table { border-collapse: collapse; }
  .hover td { padding: 1px 14px 1px 0; vertical-align: top; }
  .hover td:first-child { color: #9da5b4; }
  code { font: 12px "DejaVu Sans Mono", "Liberation Mono", monospace; color: #d7ba7d; }
  .panel { border-top: 1px solid #3c3c3c; padding: 0 16px 8px; font-size: 12.5px; }
  .panel-tabs { height: 34px; line-height: 34px; font-size: 11px; letter-spacing: 0.04em; color: #999; }
  .panel-tabs b { color: #e7e7e7; border-bottom: 1px solid #e7e7e7; padding-bottom: 5px; font-weight: normal; }
  .badge { background: #616161; color: #fff; border-radius: 9px; padding: 0 6px; margin-left: 4px; }
  .panel .file { color: #ccc; margin-bottom: 4px; }
  .panel .file .count { background: #616161; color: #fff; border-radius: 9px; padding: 0 6px; margin-left: 6px;
    font-size: 11px; }
  .problem { display: flex; gap: 8px; padding: 2px 0 4px 18px; }
  .problem .where { color: #999; white-space: nowrap; }
  .status { height: 22px; line-height: 22px; background: #007acc; color: #fff; font-size: 12px; padding: 0 10px;
    display: flex; gap: 16px; }
  .status .right { margin-left: auto; display: flex; gap: 16px; }
</style></head><body>
<div class="window">
  <div class="tabs"><div class="tab">${escapeHtml(data.file)}<span class="dirty">●</span></div></div>
  <div class="crumbs">${escapeHtml(data.folder)} › ${escapeHtml(data.file)}</div>
  <div class="editor">
    ${code}
    <div class="anchor" style="top:${(anchor.line + 1) * 19 + 2}px;left:calc(56px + ${anchor.character}ch)">
      <div class="hover">
        ${atCursor.length ? `<section>${atCursor.map((d) => diagnosticHtml(d)).join('')}</section>` : ''}
        ${hoverMd ? `<section>${markdownToHtml(hoverMd)}</section>` : ''}
      </div>
    </div>
  </div>
  <div class="panel">
    <div class="panel-tabs"><b>PROBLEMS<span class="badge">${data.diagnostics.length}</span></b>
      &nbsp;&nbsp;&nbsp; OUTPUT &nbsp;&nbsp;&nbsp; TERMINAL</div>
    <div class="file">⌄ ${escapeHtml(data.file)} <span class="source">${escapeHtml(data.folder)}</span>
      <span class="count">${data.diagnostics.length}</span></div>
    ${problems}
  </div>
  <div class="status"><span>⊗ ${errors} &nbsp;⚠ ${warnings}</span>
    <span class="right"><span>Ln ${data.position.line + 1}, Col ${data.position.character + 1}</span>
    <span>Spaces: 2</span><span>UTF-8</span><span>kit</span></span></div>
</div>
</body></html>
`;
}

/** A PNG of `html`'s window, from headless Chromium. */
export async function screenshot(html, out, { executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium' } = {}) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 980, height: 800 }, deviceScaleFactor: 2 });
    await page.setContent(html, { waitUntil: 'load' });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, await page.locator('.window').screenshot({ type: 'png' }));
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out');
  const out = resolve(
    i > 0 && process.argv[i + 1] ? process.argv[i + 1] : join(clientDir, 'images', 'hover-diagnostics.png'),
  );
  const data = await collect();
  await screenshot(render(data, await tokenize(data.text)), out);
  console.log(`wrote ${out}: ${data.diagnostics.map((d) => d.code).join(', ')}; hover at ${data.position.line + 1}`);
}
