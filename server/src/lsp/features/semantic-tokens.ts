// Semantic tokens: declaration keywords, route params (and their types), HTTP methods, guard IDs,
// component tags, handler symbols, page IDs and layout references, straight from the AST.
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import type { MarkupNode, Range, StringLit } from '#grammar/index.js';
import { parseRoutePattern } from '#shared/route/index.js';
import { stringSpanRange } from '#core/model/ranges.js';
import type { KitEntry } from '#core/model/entries.js';
import type { FeatureContext } from './context.js';

export const TOKEN_TYPES = [
  'keyword',
  'parameter',
  'type',
  'enumMember',
  'decorator',
  'class',
  'function',
  'namespace',
] as const;
export const TOKEN_MODIFIERS = ['declaration'] as const;
export const SEMANTIC_LEGEND: SemanticTokensLegend = {
  tokenTypes: [...TOKEN_TYPES],
  tokenModifiers: [...TOKEN_MODIFIERS],
};

type TokenType = (typeof TOKEN_TYPES)[number];

interface Token {
  line: number;
  char: number;
  length: number;
  type: number;
  mods: number;
}

export function collectTokens(entry: KitEntry): Token[] {
  const out: Token[] = [];
  const push = (r: Range, type: TokenType, declaration = false) => {
    // Tokens are single-line; a multi-line range is never a token here.
    if (r.start.line !== r.end.line || r.end.offset <= r.start.offset) return;
    out.push({
      line: r.start.line,
      char: r.start.column,
      length: r.end.offset - r.start.offset,
      type: TOKEN_TYPES.indexOf(type),
      mods: declaration ? 1 : 0,
    });
  };
  const routeParams = (lit: StringLit | undefined) => {
    if (!lit) return;
    for (const seg of parseRoutePattern(lit.value).segments) {
      if (seg.kind === 'static') continue;
      push(stringSpanRange(entry.ast, lit, seg.nameSpan), 'parameter');
      if (seg.kind === 'param' && seg.typeSpan) push(stringSpanRange(entry.ast, lit, seg.typeSpan), 'type');
    }
  };
  const markup = (nodes: MarkupNode[]) => {
    for (const n of nodes) {
      if (n.type !== 'element') continue;
      if (n.isComponent) {
        push(n.nameRange, 'class');
        if (n.closeNameRange) push(n.closeNameRange, 'class');
      }
      for (const a of n.attrs) {
        if (a.name === 'g:post' && a.value?.type === 'expr' && a.value.expr.type === 'path')
          push(a.value.expr.range, 'function');
      }
      markup(n.children);
    }
  };
  for (const d of entry.ast.declarations) {
    push(d.keyword, 'keyword');
    switch (d.kind) {
      case 'page':
        push(d.id.range, 'namespace', true);
        break;
      case 'route':
        routeParams(d.path);
        break;
      case 'guard':
        for (const g of d.guards) push(g.range, 'decorator');
        break;
      case 'layout':
        for (const l of d.layouts) push(l.range, 'namespace');
        break;
      case 'component':
        push(d.name.range, 'class', true);
        break;
      case 'act':
      case 'api':
        push(d.symbol.range, 'function', true);
        push(d.method.range, 'enumMember');
        routeParams(d.path);
        break;
      case 'fragment':
        push(d.name.range, 'function', true);
        push(d.method.range, 'enumMember');
        routeParams(d.path);
        markup(d.body);
        break;
      case 'view':
        markup(d.body);
        break;
      default:
        break;
    }
  }
  out.sort((a, b) => a.line - b.line || a.char - b.char);
  return out;
}

/** Relative encoding of the LSP (deltaLine, deltaStart, length, type, modifiers); overlaps dropped. */
function encodeTokens(tokens: Token[]): number[] {
  const data: number[] = [];
  let line = 0;
  let char = 0;
  let lastEnd = -1;
  let lastLine = -1;
  for (const t of tokens) {
    if (t.line === lastLine && t.char < lastEnd) continue;
    data.push(t.line - line, t.line === line ? t.char - char : t.char, t.length, t.type, t.mods);
    line = t.line;
    char = t.char;
    lastLine = t.line;
    lastEnd = t.char + t.length;
  }
  return data;
}

export function semanticTokens(ctx: FeatureContext, path: string): SemanticTokens {
  const entry = ctx.ws.kit(path);
  return { data: entry ? encodeTokens(collectTokens(entry)) : [] };
}
