// The URL-aware features of the language server on the 5,000-file benchmark workspace (every page
// also linking to `/d0/p0`), through the real protocol over stdio: document links and inlay hints of
// a 1,000-line page with 600 links, Go to URL (a workspace-symbol query that is a request path, and
// `kit/resolveUrl`), and renaming the route every file links to. The same-run baseline is the
// small-edit latency of `lsp.bench.ts` (a), measured the same way on the same server first.
//
// Requests are timed twice: back to back (answers of the unchanged workspace are memoised per
// revision) and each right after an edit of the page (the edit's own re-check is waited for
// first, so the figure is the request's alone, without its memo).
//
// KIT_BENCH_COMPARE names another build's `out/server/src/cli/main.js`: its small-edit latency is
// measured in the same run, in turns with this server's (before/after figures for the edit path).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InlayHint, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fileUri, LspClient } from '#test/server/lsp/helpers/lsp-client.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { cpuMs, editLatency, fmt, pct } from './latency.js';

const PAGES = 5000;

/** A page of about 1,000 lines: sections linking to static, built dynamic and rest pages, reading a typed param. */
function bigPage(lines: number): string {
  const head = [
    'package links',
    '',
    'page big',
    'route "/big/{id:int}"',
    'guard public',
    'cache "public, max-age=60"',
    'revalidate 5m',
    '',
    'paths {',
    '  => { id: "1" }',
    '}',
    '',
    'act Save POST',
    'api Data GET',
    '',
    'view {',
    '  <main>',
  ];
  const body: string[] = [];
  for (let i = 0; head.length + body.length + 3 < lines; i++) {
    const at = (kind: number) => ((i * 7) % (PAGES / 10)) * 10 + kind;
    const page = (n: number) => `/d${Math.floor(n / 10)}/p${n}`;
    body.push(
      `    <section id="s${i}">`,
      `      <h2>Section ${i} of {param("id")}</h2>`,
      `      <a href="${page(at(1))}">Static</a> <a href="${page(at(7))}/first-${at(7)}">Built</a>`,
      `      <a href="${page(at(9))}/a/${i}">Rest</a>`,
      '    </section>',
    );
  }
  return [...head, ...body, '  </main>', '}', ''].join('\n');
}

type Timed = number[] & { cpu?: number };

/**
 * Times `n` requests after `warmup`, each after `before` (untimed) when given. `times.cpu`: the
 * server's CPU time per request (ms, from /proc where there is one): on a shared machine the
 * latencies include waiting for a core, the CPU time does not.
 */
async function timeRequests(
  pid: number | undefined,
  n: number,
  warmup: number,
  send: (i: number) => Promise<unknown>,
  before?: (i: number) => Promise<void>,
): Promise<Timed> {
  const times: Timed = [];
  let cpu = 0;
  for (let i = 0; i < warmup + n; i++) {
    await before?.(i);
    const c = cpuMs(pid);
    const t = performance.now();
    await send(i);
    if (i < warmup) continue;
    times.push(performance.now() - t);
    cpu += cpuMs(pid) - c;
  }
  times.cpu = cpu / n;
  return times;
}

function line(label: string, times: Timed, target?: number, base?: number): string {
  const p95 = pct(times, 0.95);
  const ratio = base !== undefined ? ` | ${(p95 / base).toFixed(2)}x the small-edit p95` : '';
  const goal = target !== undefined ? ` (target p95 <= ${target} ms)` : '';
  const cpu = times.cpu !== undefined ? ` | server CPU per request ${fmt(times.cpu)}` : '';
  return `${label}: p50 ${fmt(pct(times, 0.5))}, p95 ${fmt(p95)}, max ${fmt(Math.max(...times))}${goal}${ratio}${cpu}`;
}

async function start(root: string, script?: string): Promise<LspClient> {
  const client = LspClient.start({ nodeArgs: ['--expose-gc'], script });
  await client.initialize([root], { sendInitialized: false });
  const bound = client.waitForStatuses(1, 120000, 'bound');
  await client.conn.sendNotification('initialized', {});
  await bound;
  return client;
}

const work = mkdtempSync(join(tmpdir(), 'kit-url-bench-'));
const clients: LspClient[] = [];
try {
  const site = join(work, 'site');
  const files = generateSite(PAGES, { handlers: true, hubLinks: true });
  writeSite(site, files);
  const bigText = bigPage(1000);
  writeFileSync(join(site, 'links.kit'), bigText);
  console.log(
    `workspace: ${files.filter((f) => f.path.endsWith('.kit')).length + 1} .kit files; links.kit: ` +
      `${bigText.split('\n').length} lines, ${(bigText.match(/href=/g) ?? []).length} links`,
  );

  const small = 'd17/p171.kit';
  const smallText = readFileSync(join(site, small), 'utf8');
  const smallLine = smallText.split('\n').findIndex((l) => l.includes('<h1>'));
  const smallChar = smallText.split('\n')[smallLine].indexOf('Page') + 2;
  const compare = process.env.KIT_BENCH_COMPARE;
  const client = await start(site);
  clients.push(client);
  const other = compare ? await start(site, compare) : undefined;
  if (other) clients.push(other);
  // ---- the baseline: a one-character edit of a small file, didChange -> publishDiagnostics --------
  // With a compared server, both take turns, 40 edits at a time: on a shared machine a burst of
  // load then weighs on both alike.
  const smallUri = fileUri(join(site, small));
  for (const c of [client, other]) {
    if (!c) continue;
    const opened = c.waitForDiagnostics(smallUri, (d) => d.version === 1, { fresh: true });
    await c.open(smallUri, smallText, 1);
    await opened;
  }
  const edits: number[] = [];
  const compared: number[] = [];
  const versions = new Map<LspClient, number>();
  const turn = async (c: LspClient, into: number[], warmup: number) => {
    const times = await editLatency(c, smallUri, smallLine, smallChar, 40, warmup, versions.get(c) ?? 1);
    versions.set(c, times.version ?? 1);
    into.push(...times);
  };
  for (let round = 0; round < 5; round++) {
    await turn(client, edits, round === 0 ? 30 : 0);
    if (other) await turn(other, compared, round === 0 ? 30 : 0);
  }
  await other?.shutdown();
  const base = pct(edits, 0.95);
  console.log(line('small edit (lsp.bench.ts (a)), didChange -> publishDiagnostics', edits, 5));
  if (other)
    console.log(
      line('    compared server (KIT_BENCH_COMPARE), the same edits in turn', compared, 5) +
        ` | this/compared p95 ${(base / pct(compared, 0.95)).toFixed(2)}`,
    );

  // ---- document links and inlay hints of the 1,000-line page ------------------------------------
  const bigUri = fileUri(join(site, 'links.kit'));
  const bigOpened = client.waitForDiagnostics(bigUri, (d) => d.version === 1, { fresh: true });
  await client.open(bigUri, bigText, 1);
  await bigOpened;
  const doc = { textDocument: { uri: bigUri } };
  const bigLines = bigText.split('\n');
  const whole = { start: { line: 0, character: 0 }, end: { line: bigLines.length, character: 0 } };
  const links = () => client.request<unknown[]>('textDocument/documentLink', doc);
  const hints = (range = whole) => client.request<InlayHint[]>('textDocument/inlayHint', { ...doc, range });
  console.log(`document links: ${(await links()).length}; inlay hints: ${(await hints()).length}`);
  // An edit inside the view (a character in a heading, inserted then removed), its re-check waited for.
  const mid = bigLines.findIndex((l, i) => i >= bigLines.length / 2 && l.includes('<h2>'));
  let version = 1;
  const editBig = async (i: number) => {
    version++;
    const at = bigLines[mid].indexOf('Section') + 2;
    const range =
      i % 2 === 0
        ? { start: { line: mid, character: at }, end: { line: mid, character: at } }
        : { start: { line: mid, character: at }, end: { line: mid, character: at + 1 } };
    const done = client.waitForDiagnostics(bigUri, (d) => d.version === version, { fresh: true, timeoutMs: 20000 });
    await client.change(bigUri, version, [{ range, text: i % 2 === 0 ? 'x' : '' }]);
    await done;
  };
  console.log(
    line(
      'document links, 1,000-line page, back to back',
      await timeRequests(client.child.pid, 200, 20, links),
      10,
      base,
    ),
  );
  console.log(
    line(
      'document links, 1,000-line page, after an edit',
      await timeRequests(client.child.pid, 100, 10, links, editBig),
      10,
      base,
    ),
  );
  console.log(
    line(
      'inlay hints, whole 1,000-line page, back to back',
      await timeRequests(client.child.pid, 200, 20, () => hints()),
      10,
      base,
    ),
  );
  console.log(
    line(
      'inlay hints, whole 1,000-line page, after an edit',
      await timeRequests(client.child.pid, 100, 10, () => hints(), editBig),
      10,
      base,
    ),
  );
  const screen = { start: { line: mid - 30, character: 0 }, end: { line: mid + 30, character: 0 } };
  console.log(
    line(
      'inlay hints, 60 lines of the page',
      await timeRequests(client.child.pid, 200, 20, () => hints(screen)),
      10,
      base,
    ),
  );

  // ---- Go to URL ---------------------------------------------------------------------------------
  const urls: string[] = [];
  for (let i = 0; i < 60; i++) {
    const n = ((i * 83) % (PAGES / 10)) * 10;
    const dir = `/d${Math.floor(n / 10)}`;
    urls.push(`${dir}/p${n + 2}`, `${dir}/p${n + 6}/second-${n + 6}`, `${dir}/p${n + 9}/x/y`, `/api${dir}/p${n + 4}`);
  }
  const symbols = await client.request<{ name: string; containerName: string }[]>('workspace/symbol', {
    query: urls[1],
  });
  console.log(`Go to URL ${urls[1]}: ${symbols[0]?.name} | ${symbols[0]?.containerName}`);
  const goToUrl: [string, (url: string) => Promise<unknown>][] = [
    ['Go to URL, workspace/symbol with a request path', (url) => client.request('workspace/symbol', { query: url })],
    ['Go to URL, kit/resolveUrl', (url) => client.request('kit/resolveUrl', { url })],
  ];
  for (const [label, ask] of goToUrl)
    console.log(line(label, await timeRequests(client.child.pid, 240, 20, (i) => ask(urls[i % urls.length])), 5, base));

  // ---- renaming the route every file links to ----------------------------------------------------
  const hub = join(site, 'd0', 'p0.kit');
  const hubText = readFileSync(hub, 'utf8');
  const hubUri = fileUri(hub);
  await client.open(hubUri, hubText, 1);
  const routeLine = hubText.split('\n').findIndex((l) => l.startsWith('route '));
  const rename = (newName: string) =>
    client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: hubUri },
      position: { line: routeLine, character: 'route "/'.length + 1 },
      newName,
    });
  const edit = await rename('/start');
  const changed = Object.keys(edit.changes ?? {}).length;
  const linkEdits = Object.values(edit.changes ?? {}).reduce((n, es) => n + es.length, 0) - 1;
  console.log(`route rename /d0/p0 -> /start: ${linkEdits} links rewritten in ${changed} files`);
  const renames = await timeRequests(client.child.pid, 10, 2, (i) => rename(i % 2 === 0 ? '/start' : 'home'));
  console.log(line('route rename across 5,000 files (textDocument/rename)', renames, 200, base));
  await client.shutdown();
} finally {
  for (const c of clients) if (c.child.exitCode === null) c.kill();
  rmSync(work, { recursive: true, force: true });
}
