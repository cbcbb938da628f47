// Inline endpoint declarations: methods per endpoint kind, handler symbol names, fragment targets,
// CORS options.
import type { ApiDecl } from '#grammar/index.js';
import { API_METHODS, isOneOf } from '#shared/language/facts.js';
import { diag } from '../diagnostics/registry.js';
import { isExportedSymbol } from '../model/names.js';
import type { RuleContext } from './context.js';

export function endpointsRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  for (const a of s.actions) {
    if (a.method.text !== 'POST')
      ctx.report(
        diag(
          'unsupported_action_method',
          file.path,
          a.method.range,
          `${id}: action ${a.symbol.text} uses ${a.method.text}; actions currently require POST`,
        ),
      );
    symbol(ctx, a.symbol.text, a.symbol.range, 'action');
  }
  for (const a of s.apis) {
    if (!isOneOf(API_METHODS, a.method.text))
      ctx.report(
        diag(
          'unsupported_api_method',
          file.path,
          a.method.range,
          `${id}: api ${a.symbol.text} uses ${a.method.text}; APIs accept GET, POST, PUT, PATCH or DELETE`,
        ),
      );
    symbol(ctx, a.symbol.text, a.symbol.range, 'api');
    if (a.cors) cors(ctx, a);
  }
  for (const f of s.fragments) {
    if (f.method.text !== 'GET')
      ctx.report(
        diag(
          'unsupported_fragment_method',
          file.path,
          f.method.range,
          `${id}: fragment ${f.name.text} uses ${f.method.text}; fragments currently require GET`,
        ),
      );
    symbol(ctx, f.name.text, f.name.range, 'fragment');
    if (!/^#[A-Za-z][A-Za-z0-9_\-:.]*$/.test(f.target.value)) {
      ctx.report(
        diag(
          'invalid_fragment_target',
          file.path,
          f.target.range,
          `${id}: fragment ${f.name.text} target "${f.target.value}" must be a literal #id`,
        ),
      );
    }
  }
}

function symbol(ctx: RuleContext, name: string, range: import('#grammar/index.js').Range, kind: string): void {
  if (!isExportedSymbol(name)) {
    ctx.report(
      diag(
        'invalid_backend_handler_name',
        ctx.file.path,
        range,
        `${ctx.summary.ownerId}: ${kind} handler "${name}" must be an exported identifier starting with an ` +
          `uppercase letter (it binds to export function ${name[0]?.toUpperCase() ?? ''}${name.slice(1)})`,
      ),
    );
  }
}

function cors(ctx: RuleContext, a: ApiDecl): void {
  const c = a.cors!;
  const bad = (range: import('#grammar/index.js').Range, msg: string) =>
    ctx.report(
      diag('invalid_cors_option', ctx.file.path, range, `${ctx.summary.ownerId}: api ${a.symbol.text} cors ${msg}`),
    );
  if (c.credentials && c.credentials.text !== 'true' && c.credentials.text !== 'false')
    bad(c.credentials.range, `credentials must be true or false`);
  if (c.maxAge && !/^[0-9]+$/.test(c.maxAge.text)) bad(c.maxAge.range, `maxAge must be whole seconds`);
  if (c.origins) {
    for (const o of c.origins.value
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o))
        bad(c.origins.range, `origin "${o}" must be * or scheme://host[:port]`);
    }
    if (c.credentials?.text === 'true' && c.origins.value.split(',').some((x) => x.trim() === '*'))
      bad(c.origins.range, `origins "*" cannot be combined with credentials true`);
  }
  if (c.methods) {
    for (const m of c.methods.value
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      if (!/^[A-Z]+$/.test(m)) bad(c.methods.range, `method "${m}" must be an uppercase HTTP method`);
    }
  }
}
