// `kit check` output: the JSON report (schema version 1, `schemas/check.schema.json`) and the human lines.
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { paint } from '../io.js';
import { codeFrame } from './code-frame.js';
import { fixedBytes, JsonBytes } from './json-bytes.js';
import {
  reportPos,
  reportRange,
  type ReportPos,
  type ReportRange,
  type SourceLookup,
} from '#core/model/report-positions.js';

export interface JsonDiagnostic {
  file: string;
  code: string;
  pos: ReportPos;
  range: ReportRange;
  severity: string;
  message: string;
  related?: { file: string; pos: ReportPos; range: ReportRange; message: string }[];
  suggestion?: string;
}

export function toJsonDiagnostic(d: Diagnostic, source: SourceLookup): JsonDiagnostic {
  const text = source(d.file);
  const range = reportRange(text, d.range);
  const out: JsonDiagnostic = {
    file: d.file,
    code: d.code,
    pos: range.start,
    range,
    severity: d.severity,
    message: d.message,
  };
  if (d.related?.length) {
    out.related = d.related.map((r) => {
      const rr = reportRange(source(r.file), r.range);
      return { file: r.file, pos: rr.start, range: rr, message: r.message };
    });
  }
  if (d.suggestion) out.suggestion = d.suggestion;
  return out;
}

/** The JSON report, whole: `checkJsonParts` joined. */
export function checkJson(diags: Diagnostic[], source: SourceLookup): string {
  return Buffer.concat([...checkJsonParts(diags, source)]).toString('utf8');
}

/** About this many bytes per part of `checkJsonParts`. */
const PART_BYTES = 1 << 20;

const EMPTY_REPORT = fixedBytes('{\n  "version": 1,\n  "diagnostics": []\n}\n');
const REPORT_HEAD = fixedBytes('{\n  "version": 1,\n  "diagnostics": [');
const REPORT_TAIL = fixedBytes('\n  ]\n}\n');
const FIRST = fixedBytes('\n');
const NEXT = fixedBytes(',\n');

/**
 * The JSON report as UTF-8, in parts of about a megabyte, each written as it is made: the bytes of
 * `JSON.stringify({ version: 1, diagnostics }, null, 2)` and a newline (the tests hold them equal).
 * Written as bytes (`json-bytes.ts`): 15 MB of 26,578 diagnostics took `kit check` 150-250 ms to
 * stringify and convert in one piece, and still 131-236 ms as megabyte strings.
 */
export function* checkJsonParts(diags: readonly Diagnostic[], source: SourceLookup): Generator<Buffer> {
  const out = new JsonBytes(PART_BYTES + (1 << 16));
  if (diags.length === 0) {
    out.fixed(EMPTY_REPORT);
    yield out.take();
    return;
  }
  out.fixed(REPORT_HEAD);
  for (let i = 0; i < diags.length; i++) {
    out.fixed(i === 0 ? FIRST : NEXT);
    diagnosticJson(out, toJsonDiagnostic(diags[i], source));
    if (out.length >= PART_BYTES) yield out.take();
  }
  out.fixed(REPORT_TAIL);
  yield out.take();
}

/** The keys the report's objects have (a diagnostic, a related location, a position, a range). */
const KEYS = [
  'file',
  'code',
  'pos',
  'range',
  'severity',
  'message',
  'related',
  'suggestion',
  'line',
  'column',
  'start',
  'end',
] as const;
type Key = (typeof KEYS)[number];

/**
 * The fixed text of an object whose braces are at one indentation, as `JSON.stringify(…, null, 2)`
 * lays it out: what comes before its first key (the opening brace), before each other key, and its
 * closing brace.
 */
interface Frame {
  first: Record<Key, Uint8Array>;
  next: Record<Key, Uint8Array>;
  close: Uint8Array;
}

/** The `Frame` at `indent` spaces. */
function makeFrame(indent: number): Frame {
  const inner = ' '.repeat(indent + 2);
  const first = {} as Record<Key, Uint8Array>;
  const next = {} as Record<Key, Uint8Array>;
  for (const k of KEYS) {
    first[k] = fixedBytes(`{\n${inner}"${k}": `);
    next[k] = fixedBytes(`,\n${inner}"${k}": `);
  }
  return { first, next, close: fixedBytes(`\n${' '.repeat(indent)}}`) };
}

/** The report's objects are at five depths, 4 to 12 spaces: every frame made once, by depth. */
const FRAMES = [4, 6, 8, 10, 12].map(makeFrame);

function frameAt(indent: number): Frame {
  return FRAMES[(indent - 4) >> 1];
}

/** `{ "line": .., "column": .. }` whose braces are at `indent` spaces. */
function posJson(out: JsonBytes, p: ReportPos, indent: number): void {
  const f = frameAt(indent);
  out.fixed(f.first.line);
  out.number(p.line);
  out.fixed(f.next.column);
  out.number(p.column);
  out.fixed(f.close);
}

function rangeJson(out: JsonBytes, r: ReportRange, indent: number): void {
  const f = frameAt(indent);
  out.fixed(f.first.start);
  posJson(out, r.start, indent + 2);
  out.fixed(f.next.end);
  posJson(out, r.end, indent + 2);
  out.fixed(f.close);
}

/** The `pos` and `range` keys of an object of frame `f` (its braces at `indent - 2` spaces). */
function placeJson(out: JsonBytes, f: Frame, at: { pos: ReportPos; range: ReportRange }, indent: number): void {
  out.fixed(f.next.pos);
  posJson(out, at.pos, indent);
  out.fixed(f.next.range);
  rangeJson(out, at.range, indent);
}

/** A diagnostic, in the report's array (4 spaces), and a related location, in its own (8). */
const DIAGNOSTIC = frameAt(4);
const RELATED = frameAt(8);
const DIAGNOSTIC_INDENT = fixedBytes('    ');
const RELATED_INDENT = fixedBytes('        ');
const OPEN_LIST = fixedBytes('[');
const RELATED_CLOSE = fixedBytes('\n      ]');

/**
 * One diagnostic of the report (`toJsonDiagnostic` decides its fields), its keys in the order the
 * object has them.
 */
function diagnosticJson(out: JsonBytes, j: JsonDiagnostic): void {
  const f = DIAGNOSTIC;
  out.fixed(DIAGNOSTIC_INDENT);
  out.fixed(f.first.file);
  out.repeated(j.file);
  out.fixed(f.next.code);
  out.repeated(j.code);
  placeJson(out, f, j, 6);
  out.fixed(f.next.severity);
  out.repeated(j.severity);
  out.fixed(f.next.message);
  out.string(j.message);
  if (j.related !== undefined) {
    out.fixed(f.next.related);
    out.fixed(OPEN_LIST);
    for (let i = 0; i < j.related.length; i++) {
      const r = j.related[i];
      out.fixed(i === 0 ? FIRST : NEXT);
      out.fixed(RELATED_INDENT);
      out.fixed(RELATED.first.file);
      out.repeated(r.file);
      placeJson(out, RELATED, r, 10);
      out.fixed(RELATED.next.message);
      out.string(r.message);
      out.fixed(RELATED.close);
    }
    out.fixed(RELATED_CLOSE);
  }
  if (j.suggestion !== undefined) {
    out.fixed(f.next.suggestion);
    out.string(j.suggestion);
  }
  out.fixed(f.close);
}

const SEVERITY_COLOR: Record<string, string> = { error: '31;1', warning: '33;1', info: '36' };

export interface HumanOptions {
  /**
   * Show at most this many warnings and notes of each code in full, then one line saying how many
   * more there are (`kit build`: its output is about the build; `kit check` lists everything).
   */
  perCode?: number;
  /** `perCode` bounds errors too (`kit dev`'s terminal: a screenful, whatever the severity). */
  errorsToo?: boolean;
  /** Show at most this many diagnostics in full in all; the rest are counted per code. */
  atMost?: number;
  /** The command that lists everything, named in the line that stands for the rest. */
  listAll?: string;
  /** Without the summary line (the caller says what the diagnostics are of). */
  noSummary?: boolean;
}

/**
 * Diagnostics of one code shown in full per file: a file with thousands of the same error (ten
 * thousand unclosed tags) gets this many, then one line counting the rest, so the human report
 * grows with the files and codes, not with the errors. The JSON, github and sarif outputs list all.
 */
export const SHOWN_PER_FILE_CODE = 10;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The human report: per diagnostic its `file:line:col: severity code: message` line (the format
 * editors' problem matchers read), a code frame of its range, its related locations as
 * `note:` lines and its fix hint as `= help:`, then a blank line; after a file's diagnostics a
 * line for each code it has more than `SHOWN_PER_FILE_CODE` of; at the end the summary line. A
 * pure function of the diagnostics and the sources (the dev server's error overlay shows it
 * uncoloured).
 */
export function checkHuman(
  diags: Diagnostic[],
  source: SourceLookup,
  fileCount: number,
  color: boolean,
  opts: HumanOptions = {},
): string {
  let out = '';
  const shown = new Map<string, number>();
  const hidden = new Map<string, { severity: string; n: number }>();
  // Per code of the current file (diagnostics come file by file): how many, and the severity.
  let file: string | undefined;
  let inFile = new Map<string, { severity: string; n: number }>();
  const endFile = () => {
    for (const [code, c] of inFile) {
      if (c.n <= SHOWN_PER_FILE_CODE) continue;
      const rest = c.n - SHOWN_PER_FILE_CODE;
      const kind = c.severity === 'info' ? 'note' : c.severity;
      out +=
        `… and ${count(rest)} more ${code} ${kind}${rest === 1 ? '' : 's'} in ${file}; ` +
        `kit check --format json lists them all\n\n`;
    }
    inFile = new Map();
  };
  let inFull = 0;
  for (const d of diags) {
    if (opts.perCode !== undefined && (opts.errorsToo || d.severity !== 'error')) {
      const n = (shown.get(d.code) ?? 0) + 1;
      shown.set(d.code, n);
      if (n > opts.perCode || inFull >= (opts.atMost ?? Infinity)) {
        hidden.set(d.code, { severity: d.severity, n: (hidden.get(d.code)?.n ?? 0) + 1 });
        continue;
      }
      inFull++;
    }
    if (d.file !== file) {
      endFile();
      file = d.file;
    }
    const c = inFile.get(d.code) ?? { severity: d.severity, n: 0 };
    inFile.set(d.code, c);
    if (++c.n > SHOWN_PER_FILE_CODE) continue;
    const text = source(d.file);
    const p = reportPos(text, d.range.start);
    const mark = SEVERITY_COLOR[d.severity] ?? '0';
    out +=
      `${paint(color, '1', `${d.file}:${p.line}:${p.column}`)}: ` +
      `${paint(color, mark, d.severity)} ${d.code}: ${d.message}\n`;
    out += codeFrame(text, d.range, { color, mark });
    for (const r of d.related ?? []) {
      const rp = reportPos(source(r.file), r.range.start);
      out += `  ${r.file}:${rp.line}:${rp.column}: ${paint(color, '2', 'note')}: ${r.message}\n`;
    }
    if (d.suggestion) out += `  ${paint(color, '1', '= help')}: ${d.suggestion}\n`;
    out += '\n';
  }
  endFile();
  for (const [code, h] of hidden) {
    const kind = h.severity === 'info' ? 'note' : h.severity;
    out +=
      `… and ${count(h.n)} more ${code} ${kind}${h.n === 1 ? '' : 's'}` +
      `${opts.listAll ? `; ${opts.listAll} lists them all` : ''}\n`;
  }
  if (opts.noSummary) return out;
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  const infos = diags.length - errors - warnings;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const files = plural(fileCount, 'file');
  const counts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos) counts.push(plural(infos, 'note'));
  if (diags.length === 0) out += `ok: checked ${files}, no problems\n`;
  else out += `checked ${files}: ${counts.join(', ')}\n`;
  return out;
}
