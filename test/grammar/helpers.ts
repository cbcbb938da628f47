// Shared helpers for the grammar tests: fixture loading and range checks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Declaration, DeclarationKind, Element, KitFile, MarkupNode, Range } from '#grammar/index.js';
import { parseKit } from '#grammar/index.js';
import { fixture } from '../helpers/repo.js';

export function loadFixture(name: string): { text: string; file: KitFile } {
  const path = fixture('grammar', name);
  const text = readFileSync(path, 'utf8');
  return { text, file: parseKit(text, path) };
}

/** The source text a range covers. */
export function slice(text: string, r: Range): string {
  return text.slice(r.start.offset, r.end.offset);
}

/** `[startLine, startColumn, endLine, endColumn]` of a range. */
export function lc(r: Range): [number, number, number, number] {
  return [r.start.line, r.start.column, r.end.line, r.end.column];
}

export function decl<K extends DeclarationKind>(file: KitFile, kind: K, index = 0): Extract<Declaration, { kind: K }> {
  const found = file.declarations.filter((d) => d.kind === kind);
  assert.ok(found.length > index, `expected a ${kind} declaration #${index} in ${file.path}`);
  return found[index] as Extract<Declaration, { kind: K }>;
}

/** Elements only (text, comments and interpolations dropped), for structure assertions. */
export function elements(nodes: MarkupNode[]): Element[] {
  return nodes.filter((n): n is Element => n.type === 'element');
}

/** A compact outline of a markup tree: `main(h1,p)`. */
export function outline(nodes: MarkupNode[]): string {
  return elements(nodes)
    .map((e) => (e.children.some((c) => c.type === 'element') ? `${e.name}(${outline(e.children)})` : e.name))
    .join(',');
}

/** Walks every object in an AST value and yields each Range found (any `{ start: Pos, end: Pos }`). */
export function* allRanges(value: unknown): Generator<Range> {
  if (Array.isArray(value)) {
    for (const v of value) yield* allRanges(v);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  const s = o.start as Record<string, unknown> | undefined;
  if (s !== undefined && typeof s === 'object' && s !== null && typeof s.offset === 'number') {
    yield o as unknown as Range;
    return;
  }
  for (const k in o) if (k !== 'lineStarts') yield* allRanges(o[k]);
}

/** Asserts that every range of a file lies inside the text and that line/column agree with offsets. */
export function assertRangesConsistent(text: string, file: KitFile): void {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  assert.deepEqual(file.lineStarts, starts, 'lineStarts');
  assert.equal(file.length, text.length);
  for (const r of allRanges([file.declarations, file.comments, file.diagnostics])) {
    for (const p of [r.start, r.end]) {
      assert.ok(p.offset >= 0 && p.offset <= text.length, `offset ${p.offset} outside 0..${text.length}`);
      assert.ok(p.line >= 0 && p.line < starts.length, `line ${p.line}`);
      assert.equal(starts[p.line] + p.column, p.offset, `line/column ${p.line}:${p.column} vs offset ${p.offset}`);
      const next = p.line + 1 < starts.length ? starts[p.line + 1] : text.length + 1;
      assert.ok(p.offset < next || p.offset === text.length, `offset ${p.offset} past its line ${p.line}`);
    }
    assert.ok(r.start.offset <= r.end.offset, `range start ${r.start.offset} after end ${r.end.offset}`);
  }
}
