// The `.kit` formatter, shared by `kit fmt` and the language server's formatting request.
// Declarations start at column 0 with single spaces between their tokens; block bodies are indented
// two spaces per level (markup by element nesting, CSS by braces); runs of blank lines collapse to
// one; the file ends with exactly one line break. It is idempotent and never changes meaning: a file
// with syntax errors is left untouched, and every result is re-parsed and compared, modulo positions
// and collapsible whitespace, with the input before it is returned.
import { type Declaration, type KitFile, type SyntaxDiagnostic, parseKit } from '#grammar/index.js';
import { cssPlan, markupPlan, type BlockPlan, type LineTable } from './block-layout.js';
import { normalizeLine } from './line-tokens.js';
import { meaningOf } from './meaning.js';

export type FormatResult =
  | { kind: 'formatted'; text: string; changed: boolean }
  /** The file has syntax errors; it is left as it is. */
  | { kind: 'syntax_errors'; diagnostics: SyntaxDiagnostic[] }
  /** The formatter's own safety check failed (a bug): the file is left as it is. */
  | { kind: 'unsafe'; message: string };

const INDENT = '  ';

interface OutLine {
  text: string;
  /** Blank lines that may merge with their neighbours (not inside content whitespace). */
  collapsible: boolean;
  /** The header or closing line of a block: blank lines right inside a block go. */
  edge?: 'open' | 'close';
}

function detectEol(text: string): string {
  const i = text.search(/\r\n|\r|\n/);
  if (i < 0) return '\n';
  return text[i] === '\r' ? (text[i + 1] === '\n' ? '\r\n' : '\r') : '\n';
}

class Lines {
  readonly table: LineTable;
  constructor(
    readonly text: string,
    readonly lineStarts: readonly number[],
  ) {
    this.table = { text, lineStarts };
  }

  get count(): number {
    return this.lineStarts.length;
  }

  /** End of line `i`'s content, before its line break. */
  end(i: number): number {
    const next = i + 1 < this.lineStarts.length ? this.lineStarts[i + 1] : this.text.length;
    let e = next;
    if (e > this.lineStarts[i] && this.text[e - 1] === '\n') e--;
    if (e > this.lineStarts[i] && this.text[e - 1] === '\r') e--;
    return e;
  }

  content(i: number): string {
    return this.text.slice(this.lineStarts[i], this.end(i));
  }
}

function isBlank(s: string): boolean {
  return s.trim() === '';
}

function headerLine(d: Declaration): number {
  return d.keyword.start.line;
}

/** The line of a block's closing `}`: where its body ends (markup and CSS), else where it ends. */
function closingLine(d: Declaration): number {
  if (d.kind === 'view' || d.kind === 'fragment') return d.bodyRange.end.line;
  if (d.kind === 'style') return d.cssRange.end.line;
  return d.range.end.line;
}

function blockPlan(lines: Lines, d: Declaration, first: number, last: number): BlockPlan | undefined {
  const lineEnd = (l: number) => lines.end(l);
  if (d.kind === 'view' || d.kind === 'fragment') return markupPlan(lines.table, d.body, first, last, 1, lineEnd);
  if (d.kind === 'style')
    return cssPlan(
      lines.table,
      lines.lineStarts[first] ?? lines.text.length,
      lines.lineStarts[last + 1] ?? lines.text.length,
      first,
      last,
      1,
      lineEnd,
    );
  return undefined;
}

function layout(file: KitFile, lines: Lines): OutLine[] {
  const out: OutLine[] = new Array(lines.count);
  // Default: top level. Blank lines collapse; anything else starts at column 0.
  for (let i = 0; i < lines.count; i++) {
    const c = lines.content(i);
    out[i] = isBlank(c) ? { text: '', collapsible: true } : { text: c.trim(), collapsible: false };
  }
  for (const d of file.declarations) {
    const head = headerLine(d);
    const last = closingLine(d);
    out[head] = { text: normalizeLine(lines.content(head)), collapsible: false };
    if (last <= head) continue;
    out[head].edge = 'open';
    const plan = blockPlan(lines, d, head + 1, last - 1);
    for (let i = head + 1; i < last; i++) {
      const c = lines.content(i);
      if (plan) {
        const depth = plan.depth.get(i);
        const body = plan.keepTrailing.has(i) ? c.trimStart() : c.trim();
        if (depth === undefined) out[i] = { text: plan.keepTrailing.has(i) ? c : c.trimEnd(), collapsible: false };
        else
          out[i] =
            body === '' ? { text: '', collapsible: true } : { text: INDENT.repeat(depth) + body, collapsible: false };
      } else {
        // Record blocks (`paths`, `server`, `props`): one level, tokens spaced like declarations.
        const t = c.trim();
        out[i] =
          t === ''
            ? { text: '', collapsible: true }
            : { text: INDENT + (t.startsWith('//') ? t : normalizeLine(t)), collapsible: false };
      }
    }
    const closing = lines.content(last).trim();
    out[last] = { text: closing === '}' ? '}' : INDENT + normalizeLine(closing), collapsible: false, edge: 'close' };
  }
  return out;
}

function assemble(lines: OutLine[], eol: string): string {
  const kept: string[] = [];
  let blank = false;
  let prev: OutLine | undefined;
  for (const l of lines) {
    if (l.collapsible) {
      if (kept.length > 0) blank = true;
      continue;
    }
    if (blank && prev?.edge !== 'open' && l.edge !== 'close') kept.push('');
    blank = false;
    kept.push(l.text);
    prev = l;
  }
  return kept.length ? kept.join(eol) + eol : '';
}

export function formatKit(text: string, path: string, parsed?: KitFile): FormatResult {
  const file = parsed ?? parseKit(text, path);
  const errors = file.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) return { kind: 'syntax_errors', diagnostics: errors };
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const lines = new Lines(text, file.lineStarts);
  let result = bom + assemble(layout(file, lines), detectEol(text));
  if (bom && result === bom) result = '';
  if (result === text) return { kind: 'formatted', text, changed: false };
  const again = parseKit(result, path);
  if (again.diagnostics.some((d) => d.severity === 'error') || meaningOf(again) !== meaningOf(file)) {
    return {
      kind: 'unsafe',
      message: `${path}: formatting would change the meaning of the file; it was left unchanged (please report this)`,
    };
  }
  return { kind: 'formatted', text: result, changed: true };
}
