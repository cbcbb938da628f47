// Editor features on the 5,000-file workspace, through the real protocol over stdio: document
// highlight, linked editing, selection range, signature help for component props, pull
// diagnostics (a document unchanged and after an edit that changes its diagnostics, the workspace
// unchanged and after an edit) and call hierarchy (a page's outgoing calls, a handler's and a
// guard's incoming ones). Each p50/p95 is printed beside the same run's baseline: the small-edit
// latency of `lsp.bench.ts` (a one-character edit in a small file, didChange → publishDiagnostics),
// measured on the same server first, before the client pulls anything.
//
// KIT_BENCH_SERVER_ARGS adds node options to the server; KIT_BENCH_COMPARE names another build's
// `out/server/src/cli/main.js`, whose small-edit latency is measured the same way for before/after.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallHierarchyItem, DocumentDiagnosticReport, Position } from 'vscode-languageserver-protocol';
import { FULL_CAPABILITIES, fileUri, LspClient } from '#test/server/lsp/helpers/lsp-client.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { percentile } from '../fixtures/measure.js';

const RUNS = Number(process.env.KIT_BENCH_RUNS ?? 200);
const WARMUP = 30;
const serverArgs = (process.env.KIT_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);

const CAPABILITIES = {
  ...FULL_CAPABILITIES,
  workspace: { ...FULL_CAPABILITIES.workspace, diagnostics: { refreshSupport: false } },
  textDocument: { ...FULL_CAPABILITIES.textDocument, diagnostic: {} },
};

interface Figures {
  p50: number;
  p95: number;
  /** The server's CPU time per call (ms), NaN where /proc cannot tell. */
  cpu: number;
}

/** The server whose CPU time `timed` reads. */
let server: LspClient | undefined;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc where there is one: on a
 * shared machine the latencies include waiting for a core, the server's CPU time does not.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Times `fn` RUNS times after WARMUP runs (ms per call, timed in this client). */
async function timed(fn: (i: number) => Promise<unknown>, runs = RUNS): Promise<Figures> {
  const xs: number[] = [];
  let cpu = Number.NaN;
  for (let i = 0; i < WARMUP + runs; i++) {
    if (i === WARMUP) cpu = cpuMs(server?.child.pid);
    const t = performance.now();
    await fn(i);
    if (i >= WARMUP) xs.push(performance.now() - t);
  }
  return { p50: percentile(xs, 0.5), p95: percentile(xs, 0.95), cpu: (cpuMs(server?.child.pid) - cpu) / runs };
}

function positionOf(text: string, before: string, shift: number): Position {
  const at = text.indexOf(before) + shift;
  if (at < shift) throw new Error(`${before} not found`);
  const head = text.slice(0, at);
  return { line: head.split('\n').length - 1, character: at - (head.lastIndexOf('\n') + 1) };
}

async function start(root: string, script?: string): Promise<LspClient> {
  const client = LspClient.start({ nodeArgs: ['--expose-gc', ...serverArgs], script });
  await client.initialize([root], { capabilities: CAPABILITIES, sendInitialized: false });
  const bound = client.waitForStatuses(1, 120000, 'bound');
  await client.conn.sendNotification('initialized', {});
  await bound;
  return client;
}

/**
 * didChange → publishDiagnostics for an edit inserted and deleted in turn (`text`: one character
 * by default); versions go on from `from`. Answers the figures and the last version sent.
 */
async function pushedEdits(
  client: LspClient,
  uri: string,
  at: Position,
  from: number,
  text = 'x',
): Promise<{ figures: Figures; version: number }> {
  let version = from;
  const figures = await timed(async (i) => {
    version++;
    const insert = i % 2 === 0;
    const end = insert ? at : { line: at.line, character: at.character + text.length };
    const done = client.waitForDiagnostics(uri, (d) => d.version === version, { fresh: true, timeoutMs: 20000 });
    await client.change(uri, version, [{ range: { start: at, end }, text: insert ? text : '' }]);
    await done;
  });
  return { figures, version };
}

const work = mkdtempSync(join(tmpdir(), 'kit-lsp-features-bench-'));
const clients: LspClient[] = [];
try {
  const site = join(work, 'site');
  writeSite(site, generateSite(5000, { handlers: true }));
  const file = 'd17/p171.kit';
  const text = readFileSync(join(site, file), 'utf8');
  const uri = fileUri(join(site, file));
  const editAt = positionOf(text, 'Page 171</h1>', 2);
  const rows: [string, Figures][] = [];
  let compare: Figures | undefined;

  if (process.env.KIT_BENCH_COMPARE) {
    const other = await start(site, process.env.KIT_BENCH_COMPARE);
    clients.push(other);
    server = other;
    await other.open(uri, text, 1);
    await other.waitForDiagnostics(uri, (d) => d.version === 1);
    compare = (await pushedEdits(other, uri, editAt, 1)).figures;
    await other.shutdown();
  }

  const client = await start(site);
  clients.push(client);
  server = client;
  await client.open(uri, text, 1);
  await client.waitForDiagnostics(uri, (d) => d.version === 1);
  // The baseline, before the client pulls anything (a pulled document is no longer pushed).
  const small = await pushedEdits(client, uri, editAt, 1);
  const baseline = small.figures;
  // The edit the pulls below time, pushed: a name nothing declares (`unknown_name`), in and out.
  const nameAt = positionOf(text, 'Page 171</h1>', 0);
  const pushedName = await pushedEdits(client, uri, nameAt, small.version, '{nope}');
  rows.push(['push, the edit the document pull below makes: didChange -> publishDiagnostics', pushedName.figures]);
  // The edits went back and forth: the text is the opened one again.
  let version = pushedName.version;
  const doc = { textDocument: { uri } };
  const request = <R>(method: string, params: unknown) => client.request<R>(method, params);

  rows.push([
    'document highlight (an action symbol and its g:post form)',
    await timed(() =>
      request('textDocument/documentHighlight', { ...doc, position: positionOf(text, 'Save171 POST', 2) }),
    ),
  ]);
  // A page with a dynamic route, read from disk (not open): its markup is parsed again on demand.
  const dynamic = 'd17/p176.kit';
  const dynamicText = readFileSync(join(site, dynamic), 'utf8');
  rows.push([
    'document highlight (a route param: pattern, paths {}, reads; a file not open)',
    await timed(() =>
      request('textDocument/documentHighlight', {
        textDocument: { uri: fileUri(join(site, dynamic)) },
        position: positionOf(dynamicText, '{slug}"', 2),
      }),
    ),
  ]);
  rows.push([
    'linked editing range (a tag pair)',
    await timed(() => request('textDocument/linkedEditingRange', { ...doc, position: positionOf(text, '<main', 2) })),
  ]);
  rows.push([
    'selection range (a word in a nested element, to the file)',
    await timed(() =>
      request('textDocument/selectionRange', { ...doc, positions: [positionOf(text, 'Body text', 2)] }),
    ),
  ]);
  rows.push([
    'signature help (a component call’s props)',
    await timed(() =>
      request('textDocument/signatureHelp', { ...doc, position: positionOf(text, 'compact={true}', 0) }),
    ),
  ]);

  // Call hierarchy: the page's outgoing calls; its action handler's and its guard's incoming ones.
  const [page] = await request<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', {
    ...doc,
    position: positionOf(text, 'page p171', 6),
  });
  rows.push([
    'call hierarchy: prepare (the page)',
    await timed(() =>
      request('textDocument/prepareCallHierarchy', { ...doc, position: positionOf(text, 'page p171', 6) }),
    ),
  ]);
  rows.push([
    'call hierarchy: outgoing calls of a page',
    await timed(() => request('callHierarchy/outgoingCalls', { item: page })),
  ]);
  const handlers = fileUri(join(site, 'd17/handlers.ts'));
  const handlersText = readFileSync(join(site, 'd17/handlers.ts'), 'utf8');
  const [handler] = await request<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', {
    textDocument: { uri: handlers },
    position: positionOf(handlersText, 'function Save171', 10),
  });
  rows.push([
    'call hierarchy: incoming calls of a handler',
    await timed(() => request('callHierarchy/incomingCalls', { item: handler })),
  ]);
  const guardText = 'd16/p168.kit';
  const guardPage = readFileSync(join(site, guardText), 'utf8');
  const [guard] = await request<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', {
    textDocument: { uri: fileUri(join(site, guardText)) },
    position: positionOf(guardPage, 'auth.required', 2),
  });
  rows.push([
    'call hierarchy: incoming calls of a guard (715 pages declare it)',
    await timed(() => request('callHierarchy/incomingCalls', { item: guard }), 50),
  ]);

  // Pull diagnostics: the open document, unchanged; then after an edit that changes its diagnostics.
  let last = await request<DocumentDiagnosticReport>('textDocument/diagnostic', doc);
  const id = (r: DocumentDiagnosticReport) => (r as { resultId: string }).resultId;
  rows.push([
    'pull diagnostics, document unchanged (textDocument/diagnostic)',
    await timed(async () => {
      const r = await request<DocumentDiagnosticReport>('textDocument/diagnostic', {
        ...doc,
        previousResultId: id(last),
      });
      if (r.kind !== 'unchanged') throw new Error('expected an unchanged report');
    }),
  ]);
  // Each edit adds or removes a name nothing declares (`unknown_name`): the report is new every time.
  rows.push([
    'pull diagnostics, document changed: didChange → its new report',
    await timed(async (i) => {
      version++;
      const insert = i % 2 === 0;
      const end = insert ? nameAt : { line: nameAt.line, character: nameAt.character + 6 };
      await client.change(uri, version, [{ range: { start: nameAt, end }, text: insert ? '{nope}' : '' }]);
      const r = await request<DocumentDiagnosticReport>('textDocument/diagnostic', {
        ...doc,
        previousResultId: id(last),
      });
      if (r.kind !== 'full') throw new Error('expected a full report');
      last = r;
    }),
  ]);
  // The workspace: every file once, then unchanged with every ID; then after an edit of one file.
  const first = await request<{ items: { uri: string; resultId: string }[] }>('workspace/diagnostic', {
    previousResultIds: [],
  });
  let previousResultIds = first.items.map((i) => ({ uri: i.uri, value: i.resultId }));
  rows.push([
    `pull diagnostics, workspace unchanged (${previousResultIds.length} files with diagnostics)`,
    await timed(() => request('workspace/diagnostic', { previousResultIds }), 50),
  ]);
  rows.push([
    'pull diagnostics, workspace after an edit of one file',
    await timed(async (i) => {
      version++;
      const insert = i % 2 === 0;
      const end = insert ? nameAt : { line: nameAt.line, character: nameAt.character + 6 };
      await client.change(uri, version, [{ range: { start: nameAt, end }, text: insert ? '{nope}' : '' }]);
      const r = await request<{ items: { uri: string; resultId: string; kind: string }[] }>('workspace/diagnostic', {
        previousResultIds,
      });
      const changed = r.items.filter((x) => x.kind === 'full');
      if (changed.length !== 1) throw new Error(`expected one new report, got ${changed.length}`);
      previousResultIds = previousResultIds.map((p) =>
        p.uri === changed[0].uri ? { uri: p.uri, value: changed[0].resultId } : p,
      );
      if (!previousResultIds.some((p) => p.uri === changed[0].uri))
        previousResultIds.push({ uri: changed[0].uri, value: changed[0].resultId });
    }, 50),
  ]);
  await client.shutdown();

  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `baseline: small edit, didChange -> publishDiagnostics, 5,000-file workspace: p50 ${f(baseline.p50)}, p95 ${f(baseline.p95)} | server CPU ${f(baseline.cpu)}`,
  );
  if (compare)
    console.log(
      `    compared server (KIT_BENCH_COMPARE): p50 ${f(compare.p50)}, p95 ${f(compare.p95)} | this/compared p95 ${(baseline.p95 / compare.p95).toFixed(2)} | server CPU ${f(compare.cpu)}`,
    );
  for (const [label, r] of rows)
    console.log(
      `${label}: p50 ${f(r.p50)}, p95 ${f(r.p95)} | p95 / baseline p95 ${(r.p95 / baseline.p95).toFixed(2)} | server CPU ${f(r.cpu)}`,
    );
} finally {
  for (const c of clients) if (c.child.exitCode === null) c.kill();
  rmSync(work, { recursive: true, force: true });
}
