// Handler modules are the `.ts`/`.mts`/`.js`/`.mjs` files beside `.kit` files. The checker reads
// two things from them without a compiler: the exported names, and the `//kit:act|api METHOD /path`
// endpoint comments (with an optional `//kit:guard ids` line) that sit directly above an export.
import type { Pos, Range } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { baseName } from './names.js';

export interface CommentEndpoint {
  kind: 'act' | 'api';
  method: string;
  path: string;
  functionName: string;
  /** Explicit `//kit:guard` IDs; undefined when the block has no guard line. */
  guards?: string[];
  range: Range;
  functionRange: Range;
}

export interface HandlerModuleSummary {
  path: string;
  exports: { name: string; range: Range }[];
  endpoints: CommentEndpoint[];
  diagnostics: Diagnostic[];
}

const MODULE_EXT = /\.(ts|mts|js|mjs)$/;
const EXCLUDED = /(\.d\.ts|\.d\.mts|\.(test|spec)\.(ts|mts|js|mjs))$/;

/** Handler modules are source modules next to `.kit` files; declarations, tests and specs are not. */
export function isHandlerModulePath(path: string): boolean {
  const base = baseName(path);
  return MODULE_EXT.test(base) && !EXCLUDED.test(base);
}

const EXPORT_FN = /^\s*export\s+(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/;
const EXPORT_CONST = /^\s*export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/;

function lineRange(lineNo: number, lineStart: number, from: number, to: number): Range {
  const start: Pos = { offset: lineStart + from, line: lineNo, column: from };
  const end: Pos = { offset: lineStart + to, line: lineNo, column: to };
  return { start, end };
}

export function scanHandlerModule(path: string, text: string): HandlerModuleSummary {
  const out: HandlerModuleSummary = { path, exports: [], endpoints: [], diagnostics: [] };
  const lines = text.split('\n');
  let offset = 0;
  // The comment block being collected (directly above the next code line).
  let block: { kind: 'endpoint' | 'guard'; fields: string[]; range: Range; raw: string }[] = [];
  let inBlockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const lineStart = offset;
    offset += lines[i].length + 1;
    const trimmed = raw.trim();
    if (inBlockComment) {
      if (trimmed.includes('*/')) inBlockComment = false;
      continue;
    }
    if (trimmed.startsWith('/*')) {
      if (!trimmed.includes('*/')) inBlockComment = true;
      continue;
    }
    if (trimmed.startsWith('//')) {
      const col = raw.indexOf('//');
      const r = lineRange(i, lineStart, col, raw.length);
      if (trimmed.startsWith('//kit:')) {
        const body = trimmed.slice('//kit:'.length);
        const fields = body.split(/\s+/).filter(Boolean);
        const directive = fields[0] ?? '';
        if (directive === 'guard') {
          block.push({
            kind: 'guard',
            fields: fields
              .slice(1)
              .join(' ')
              .split(',')
              .map((g) => g.trim())
              .filter(Boolean),
            range: r,
            raw: trimmed,
          });
        } else {
          block.push({ kind: 'endpoint', fields, range: r, raw: trimmed });
        }
      }
      continue;
    }
    if (trimmed === '') {
      // A blank line detaches a comment block from the code below it.
      flushDetached(block, out);
      block = [];
      continue;
    }
    const fn = EXPORT_FN.exec(raw) ?? EXPORT_CONST.exec(raw);
    if (fn) {
      const name = fn[1];
      const at = raw.indexOf(name, raw.indexOf('export'));
      const nameRange = lineRange(i, lineStart, at, at + name.length);
      out.exports.push({ name, range: nameRange });
      attachBlock(block, name, nameRange, out);
    } else {
      flushDetached(block, out);
    }
    block = [];
  }
  flushDetached(block, out);
  return out;
}

function flushDetached(block: { kind: string; range: Range }[], out: HandlerModuleSummary): void {
  for (const c of block) {
    out.diagnostics.push(
      diag(
        'invalid_go_endpoint_handler',
        out.path,
        c.range,
        `//kit: comment must sit directly above an exported function`,
      ),
    );
  }
}

function attachBlock(
  block: { kind: 'endpoint' | 'guard'; fields: string[]; range: Range; raw: string }[],
  fnName: string,
  fnRange: Range,
  out: HandlerModuleSummary,
): void {
  const endpoints = block.filter((c) => c.kind === 'endpoint');
  const guardLines = block.filter((c) => c.kind === 'guard');
  if (endpoints.length === 0) {
    if (guardLines.length)
      out.diagnostics.push(
        diag(
          'malformed_go_endpoint_comment',
          out.path,
          guardLines[0].range,
          `//kit:guard needs a //kit:act or //kit:api line in the same comment block`,
        ),
      );
    return;
  }
  if (endpoints.length > 1) {
    out.diagnostics.push(
      diag(
        'duplicate_go_endpoint_comment',
        out.path,
        fnRange,
        `function ${fnName} carries ${endpoints.length} //kit: endpoint comments; keep one`,
      ),
    );
  }
  const c = endpoints[0];
  const [kind, method, path, ...rest] = c.fields;
  if (kind !== 'act' && kind !== 'api') {
    out.diagnostics.push(
      diag(
        'malformed_go_endpoint_comment',
        out.path,
        c.range,
        `unsupported //kit:${kind ?? ''} comment; supported endpoint kinds are act and api`,
      ),
    );
    return;
  }
  if (c.fields.length !== 3 || !method || !path) {
    out.diagnostics.push(
      diag(
        'malformed_go_endpoint_comment',
        out.path,
        c.range,
        `malformed endpoint comment "${c.raw}"; expected //kit:act METHOD /path or //kit:api METHOD /path`,
      ),
    );
    return;
  }
  void rest;
  if (!/^[A-Za-z]+$/.test(method)) {
    out.diagnostics.push(
      diag(
        'malformed_go_endpoint_comment',
        out.path,
        c.range,
        `malformed endpoint comment "${c.raw}"; method must contain only ASCII letters`,
      ),
    );
    return;
  }
  const guards = guardLines.length ? guardLines.flatMap((g) => g.fields) : undefined;
  out.endpoints.push({
    kind,
    method: method.toUpperCase(),
    path,
    functionName: fnName,
    guards,
    range: c.range,
    functionRange: fnRange,
  });
}
