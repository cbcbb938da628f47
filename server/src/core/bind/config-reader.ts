// Reads a kit.config module's settings (`ssr`, `sources`, `out`, `app`, `allowedHosts`) and the guard IDs it
// registers from its syntax tree, never by running it: the language server must not execute a
// project's code, and every front door must read the same values. TypeScript's parser reads the
// module (here, where kit's use of the compiler lives); settings are taken from named exports
// (`export const ssr = true`, `export { x as ssr }`) and else from the properties of the default
// export's object literal, as the generated app reads `guards` (named first). A setting whose value
// is no literal, or a literal of the wrong type, is a diagnostic on its value, and the setting
// counts as absent.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import type { ConfigSettings, RegisteredGuards } from '../model/app-config.js';
import { baseName } from '../model/names.js';
import { nodeRange, unwrap } from './exports.js';
import { scriptKind } from './program.js';
import { typescript, type TS } from './ts.js';

type SettingName = 'ssr' | 'sources' | 'out' | 'app';

/** What each setting accepts, for messages and for reading a literal of that type. */
const SETTINGS: Record<SettingName, { expects: string; bool: 'true' | 'false' | 'both' | 'none' }> = {
  ssr: { expects: 'true or false', bool: 'both' },
  sources: { expects: 'a directory path in quotes', bool: 'none' },
  out: { expects: 'a directory path in quotes', bool: 'none' },
  app: { expects: 'a directory path in quotes, or false for no app server', bool: 'false' },
};

/** A top-level name: its value expression, or what it is when it has none (a function, an import). */
interface Binding {
  expr?: TS.Expression;
  node: TS.Node;
  what?: string;
}

interface Reader {
  ts: typeof TS;
  sf: TS.SourceFile;
  path: string;
  locals: Map<string, Binding>;
  diagnostics: Diagnostic[];
}

function hasModifier(ts: typeof TS, node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []).some((m) => m.kind === kind) : false;
}

/** The text of a property or export name kit can read (`a`, `'a.b'`, `["a.b"]`), else undefined. */
function nameText(ts: typeof TS, name: TS.PropertyName | TS.ModuleExportName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) {
    const e = unwrap(ts, name.expression);
    if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
  }
  return undefined;
}

/** Top-level declarations by local name. */
function localBindings(ts: typeof TS, sf: TS.SourceFile): Map<string, Binding> {
  const locals = new Map<string, Binding>();
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) locals.set(d.name.text, { expr: d.initializer, node: d.name });
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
      locals.set(st.name.text, { node: st.name, what: ts.isClassDeclaration(st) ? 'a class' : 'a function' });
    } else if (ts.isImportDeclaration(st) && st.importClause && !st.importClause.isTypeOnly) {
      const from = ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : 'another module';
      const what = `imported from '${from}'`;
      const c = st.importClause;
      if (c.name) locals.set(c.name.text, { node: c.name, what });
      const nb = c.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) locals.set(nb.name.text, { node: nb.name, what });
      else if (nb) for (const el of nb.elements) locals.set(el.name.text, { node: el.name, what });
    }
  }
  return locals;
}

/** Named exports by exported name, and the default export's expression. */
function moduleExports(r: Reader): { named: Map<string, Binding>; defaultExpr?: TS.Expression } {
  const { ts, sf, locals } = r;
  const named = new Map<string, Binding>();
  let defaultExpr: TS.Expression | undefined;
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st) && hasModifier(ts, st, ts.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) named.set(d.name.text, { expr: d.initializer, node: d.name });
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
      if (!hasModifier(ts, st, ts.SyntaxKind.ExportKeyword) || hasModifier(ts, st, ts.SyntaxKind.DefaultKeyword))
        continue;
      named.set(st.name.text, locals.get(st.name.text)!);
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly && st.exportClause && ts.isNamedExports(st.exportClause)) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      for (const el of st.exportClause.elements) {
        const exported = nameText(ts, el.name);
        if (el.isTypeOnly || exported === undefined) continue;
        const local = nameText(ts, el.propertyName ?? el.name) ?? exported;
        named.set(
          exported,
          from !== undefined
            ? { node: el, what: `re-exported from '${from}'` }
            : (locals.get(local) ?? { node: el, what: 'not declared in the module' }),
        );
      }
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) defaultExpr = st.expression;
  }
  return { named, defaultExpr };
}

/** An expression with a local `const x = ...` name looked through once (`export default config`). */
function resolved(r: Reader, b: Binding): Binding {
  if (!b.expr) return b;
  const e = unwrap(r.ts, b.expr);
  if (r.ts.isIdentifier(e) && e.text !== 'undefined') {
    const local = r.locals.get(e.text);
    if (local) return { ...local, expr: local.expr ? unwrap(r.ts, local.expr) : undefined, node: b.expr };
  }
  return { ...b, expr: e };
}

/** The properties of the default export's object literal, or undefined when it has none kit can read. */
function defaultProperties(r: Reader, defaultExpr: TS.Expression | undefined): Map<string, Binding> | undefined {
  const { ts } = r;
  if (!defaultExpr) return new Map();
  const b = resolved(r, { expr: defaultExpr, node: defaultExpr });
  if (!b.expr || !ts.isObjectLiteralExpression(b.expr)) {
    r.diagnostics.push(
      diag(
        'config_not_literal',
        r.path,
        nodeRange(r.sf, defaultExpr),
        `the default export of ${baseName(r.path)} is not an object literal (${b.what ?? snippet(r, defaultExpr)}): ` +
          'kit reads the settings without running the config; write export default { ... } or named exports ' +
          '(export const ssr = true)',
      ),
    );
    return undefined;
  }
  const props = new Map<string, Binding>();
  for (const p of b.expr.properties) {
    const name = p.name ? nameText(ts, p.name) : undefined;
    if (name === undefined) continue;
    if (ts.isPropertyAssignment(p)) props.set(name, { expr: p.initializer, node: p.name });
    else if (ts.isShorthandPropertyAssignment(p))
      props.set(name, r.locals.get(name) ?? { node: p.name, what: 'not declared in the module' });
    else props.set(name, { node: p, what: ts.isMethodDeclaration(p) ? 'a method' : 'an accessor' });
  }
  return props;
}

/** A node's source text on one line, shortened for a message. */
function snippet(r: Reader, node: TS.Node): string {
  const text = node.getText(r.sf).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Literal kinds: a value of the wrong type among them is `config_invalid_setting`, anything else not literal. */
function isLiteral(ts: typeof TS, e: TS.Expression): boolean {
  return (
    e.kind === ts.SyntaxKind.TrueKeyword ||
    e.kind === ts.SyntaxKind.FalseKeyword ||
    e.kind === ts.SyntaxKind.NullKeyword ||
    ts.isStringLiteralLike(e) ||
    ts.isNumericLiteral(e) ||
    ts.isBigIntLiteral(e) ||
    (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand)) ||
    (ts.isIdentifier(e) && e.text === 'undefined')
  );
}

/** One setting's value, or undefined (with a diagnostic) when it is not a literal of its type. */
function settingValue(r: Reader, name: SettingName, given: Binding): string | boolean | undefined {
  const { ts } = r;
  const spec = SETTINGS[name];
  const b = resolved(r, given);
  const at = nodeRange(r.sf, given.expr ?? given.node);
  const e = b.expr;
  if (e && (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword)) {
    const value = e.kind === ts.SyntaxKind.TrueKeyword;
    if (spec.bool === 'both' || (spec.bool === 'false' && !value)) return value;
  } else if (e && ts.isStringLiteralLike(e) && spec.bool !== 'both' && e.text.trim() !== '') return e.text;
  if (e && isLiteral(ts, e)) {
    r.diagnostics.push(
      diag(
        'config_invalid_setting',
        r.path,
        at,
        `${name} in ${baseName(r.path)} must be ${spec.expects}, not ${snippet(r, e)}`,
      ),
    );
    return undefined;
  }
  const what = b.what ?? (e ? snippet(r, given.expr ?? e) : 'no value');
  r.diagnostics.push(
    diag(
      'config_not_literal',
      r.path,
      at,
      `${name} in ${baseName(r.path)} is not a literal (${what}): kit reads the settings without running the ` +
        `config, so write ${spec.expects} itself` +
        (name === 'ssr' ? ' (or pass --ssr for one run)' : ''),
    ),
  );
  return undefined;
}

/**
 * `allowedHosts`: an array literal of host names in quotes (what `--allowed-hosts` lists, one an
 * element); undefined (with a diagnostic) for anything else. The names themselves are checked where
 * they are used (`parseAllowedHosts`), which says which one is wrong.
 */
function hostList(r: Reader, given: Binding): string[] | undefined {
  const { ts } = r;
  const b = resolved(r, given);
  const e = b.expr;
  const at = nodeRange(r.sf, given.expr ?? given.node);
  if (e && ts.isArrayLiteralExpression(e)) {
    const names: string[] = [];
    for (const el of e.elements) {
      const v = unwrap(ts, el);
      if (ts.isStringLiteralLike(v)) names.push(v.text);
      else {
        const code = isLiteral(ts, v) ? 'config_invalid_setting' : 'config_not_literal';
        const why = code === 'config_not_literal' ? 'is not a literal' : 'is not a host name in quotes';
        r.diagnostics.push(
          diag(code, r.path, nodeRange(r.sf, el), `allowedHosts in ${baseName(r.path)}: ${snippet(r, el)} ${why}`),
        );
        return undefined;
      }
    }
    return names;
  }
  const literal = e !== undefined && isLiteral(ts, e);
  r.diagnostics.push(
    diag(
      literal ? 'config_invalid_setting' : 'config_not_literal',
      r.path,
      at,
      `allowedHosts in ${baseName(r.path)} must be an array of host names in quotes (['dev.example.test']), ` +
        `not ${b.what ?? (e ? snippet(r, e) : 'no value')}`,
    ),
  );
  return undefined;
}

/** The guard IDs of a `guards` value: an object literal's keys; anything else cannot be read. */
function guardIds(r: Reader, given: Binding | undefined): RegisteredGuards {
  const { ts } = r;
  const ids = new Set<string>();
  const at = new Map<string, { start: number; end: number }>();
  if (!given) return { ids, at, complete: true };
  const b = resolved(r, given);
  if (!b.expr || !ts.isObjectLiteralExpression(b.expr)) return { ids, at, complete: false };
  let complete = true;
  for (const p of b.expr.properties) {
    const name = p.name ? nameText(ts, p.name) : undefined;
    if (name === undefined) {
      complete = false; // a spread, or a computed key
      continue;
    }
    ids.add(name);
    // A computed key (`['a.b']`) is pointed at by its string.
    const key = p.name && ts.isComputedPropertyName(p.name) ? unwrap(ts, p.name.expression) : p.name!;
    if (!at.has(name)) at.set(name, { start: key.getStart(r.sf), end: key.end });
  }
  return { ids, at, complete };
}

/** The settings and guard IDs of a config module (`path`: as diagnostics name it). */
export function readConfigSettings(path: string, text: string): ConfigSettings {
  const ts = typescript();
  const sf = ts.createSourceFile(
    path,
    text,
    { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    scriptKind(ts, path),
  );
  const r: Reader = { ts, sf, path, locals: localBindings(ts, sf), diagnostics: [] };
  const { named, defaultExpr } = moduleExports(r);
  const props = defaultProperties(r, defaultExpr);
  // A default export kit cannot read may register guards it cannot see: no `unknown_guard` guessing then.
  const guards = named.get('guards') ?? props?.get('guards');
  const out: ConfigSettings = {
    guards: guards || props ? guardIds(r, guards) : { ids: new Set(), at: new Map(), complete: false },
    diagnostics: [],
  };
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const given = named.get(name) ?? props?.get(name);
    if (!given) continue;
    const value = settingValue(r, name, given);
    if (value === undefined) continue;
    if (name === 'ssr') out.ssr = value as boolean;
    else if (name === 'app') out.app = value as string | false;
    else out[name] = value as string;
  }
  const hosts = named.get('allowedHosts') ?? props?.get('allowedHosts');
  if (hosts) out.allowedHosts = hostList(r, hosts);
  out.diagnostics = r.diagnostics.sort((a, b) => a.range.start.offset - b.range.start.offset);
  return out;
}
