// The named exports of a handler module, read from its syntax tree: which names are functions kit
// can bind (function declarations, overload sets, `const` arrow functions and function
// expressions, local `export { X }` lists of those) and which are exported some other way
// (re-exports, default exports, classes, other values), so a lookup can say why it did not bind.
// A `const` keeps the type it is declared with (annotation, `satisfies`, JSDoc `@type`), which
// types its parameters and may name a kit handler type (kit-types.ts).
import type { Range } from '#grammar/index.js';
import { typescript, type TS } from './ts.js';

export type ExportForm =
  | 'function'
  | 'arrow'
  | 'function-expression'
  /** Exported, but not as a function kit can bind (class, `let`, a call result, ...). */
  | 'not-function'
  /** `export { X } from './m.js'` or `export * from`. */
  | 'reexport'
  /** `export default function X() {}` / `export default X`. */
  | 'default';

export interface ModuleExport {
  name: string;
  form: ExportForm;
  /** Declarations that define the callable: one for a function, the overload signatures for an overload set. */
  signatures: TS.SignatureDeclaration[];
  /** The implementation of an overload set (not visible to callers). */
  implementation?: TS.SignatureDeclaration;
  /** Variable declaration of a `const` function, when it carries a type (which types its parameters). */
  variable?: TS.VariableDeclaration;
  /** That type: `const X: T = ...`, `... satisfies T`, or a JSDoc `@type {T}` in JavaScript. */
  annotation?: TS.TypeNode;
  nameNode: TS.Node;
  /** Module specifier of a re-export. */
  from?: string;
  /** What the export is, for messages (`a class`, `a let binding`, ...). */
  detail?: string;
}

export interface ModuleExports {
  /** Named exports by exported name. */
  named: Map<string, ModuleExport>;
  /** Default exports by the local name of what they export. */
  defaults: Map<string, ModuleExport>;
  /** Specifiers of `export * from` statements. */
  starFrom: string[];
}

function isJs(sf: TS.SourceFile): boolean {
  return /\.m?js$/.test(sf.fileName);
}

function hasModifier(ts: typeof TS, node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []).some((m) => m.kind === kind) : false;
}

/** The type a `const` declares for its value: annotated, `satisfies`, or JSDoc `@type` (JavaScript). */
function declaredType(ts: typeof TS, d: TS.VariableDeclaration, js: boolean): TS.TypeNode | undefined {
  if (d.type) return d.type;
  for (let e = d.initializer; e; ) {
    if (ts.isSatisfiesExpression(e)) return e.type;
    if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
    else break;
  }
  // JavaScript modules are parsed with their JSDoc (and parent pointers); TypeScript ones without.
  return js ? ts.getJSDocType(d) : undefined;
}

/** The expression under parentheses, `as`, `satisfies`, `!` and `<T>` assertions. */
export function unwrap(ts: typeof TS, e: TS.Expression): TS.Expression {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  return e;
}

/** What a local declaration is, for binding. */
function localCallable(ts: typeof TS, sf: TS.SourceFile, name: string): Omit<ModuleExport, 'name'> | undefined {
  const fns: TS.FunctionDeclaration[] = [];
  let found: Omit<ModuleExport, 'name'> | undefined;
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === name) fns.push(st);
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name) found = variableExport(ts, st, d, isJs(sf));
      }
    } else if (ts.isClassDeclaration(st) && st.name?.text === name) {
      found = { form: 'not-function', signatures: [], nameNode: st.name, detail: 'a class' };
    }
  }
  if (fns.length) return functionExport(fns);
  return found;
}

function functionExport(fns: TS.FunctionDeclaration[]): Omit<ModuleExport, 'name'> {
  const bodiless = fns.filter((f) => !f.body);
  const impl = fns.find((f) => f.body);
  // With overloads, callers see the bodiless signatures only; a lone declaration is its own signature.
  const overloaded = fns.length > 1 && bodiless.length > 0;
  return {
    form: 'function',
    signatures: overloaded ? bodiless : [impl ?? fns[0]],
    implementation: overloaded ? impl : undefined,
    nameNode: fns[0].name ?? fns[0],
  };
}

function variableExport(
  ts: typeof TS,
  st: TS.VariableStatement,
  d: TS.VariableDeclaration,
  js: boolean,
): Omit<ModuleExport, 'name'> {
  const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
  const init = d.initializer ? unwrap(ts, d.initializer) : undefined;
  if (!isConst) {
    return {
      form: 'not-function',
      signatures: [],
      nameNode: d.name,
      detail:
        `a ${st.declarationList.flags & ts.NodeFlags.Let ? 'let' : 'var'} binding (declare it with const ` +
        `or function so the binding cannot change)`,
    };
  }
  if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
    const form = ts.isArrowFunction(init) ? 'arrow' : 'function-expression';
    const annotation = declaredType(ts, d, js);
    return annotation
      ? { form, signatures: [init], nameNode: d.name, variable: d, annotation }
      : { form, signatures: [init], nameNode: d.name };
  }
  return {
    form: 'not-function',
    signatures: [],
    nameNode: d.name,
    detail: init ? 'a const whose value is not an arrow function or function expression' : 'a const without a value',
  };
}

export function moduleExports(sf: TS.SourceFile): ModuleExports {
  const ts = typescript();
  const out: ModuleExports = { named: new Map(), defaults: new Map(), starFrom: [] };
  const js = isJs(sf);
  const fnGroups = new Map<string, TS.FunctionDeclaration[]>();
  const add = (e: ModuleExport) => {
    if (!out.named.has(e.name)) out.named.set(e.name, e);
  };
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st)) {
      if (!hasModifier(ts, st, ts.SyntaxKind.ExportKeyword) || !st.name) continue;
      if (hasModifier(ts, st, ts.SyntaxKind.DefaultKeyword)) {
        out.defaults.set(st.name.text, { name: st.name.text, ...functionExport([st]), form: 'default' });
        continue;
      }
      const list = fnGroups.get(st.name.text) ?? [];
      list.push(st);
      fnGroups.set(st.name.text, list);
    } else if (ts.isVariableStatement(st) && hasModifier(ts, st, ts.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) add({ name: d.name.text, ...variableExport(ts, st, d, js) });
      }
    } else if (ts.isClassDeclaration(st) && st.name && hasModifier(ts, st, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(ts, st, ts.SyntaxKind.DefaultKeyword)) continue;
      add({ name: st.name.text, form: 'not-function', signatures: [], nameNode: st.name, detail: 'a class' });
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        if (from) out.starFrom.push(from);
        continue;
      }
      if (!ts.isNamedExports(st.exportClause)) continue; // `export * as ns from`: a namespace, never a handler
      for (const el of st.exportClause.elements) {
        if (el.isTypeOnly) continue;
        const exported = el.name.text;
        const local = (el.propertyName ?? el.name).text;
        if (from !== undefined) {
          add({ name: exported, form: 'reexport', signatures: [], nameNode: el.name, from });
        } else {
          const c = localCallable(ts, sf, local);
          if (c) add({ name: exported, ...c, nameNode: el.name });
        }
      }
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      const e = unwrap(ts, st.expression);
      if (ts.isIdentifier(e)) {
        const c = localCallable(ts, sf, e.text);
        out.defaults.set(e.text, { name: e.text, form: 'default', signatures: c?.signatures ?? [], nameNode: st });
      }
    }
  }
  for (const [name, fns] of fnGroups) add({ name, ...functionExport(fns) });
  return out;
}

/** AST range (0-based, UTF-16) of a node of `sf`. */
export function nodeRange(sf: TS.SourceFile, node: TS.Node): Range {
  const start = node.getStart(sf);
  const end = node.getEnd();
  const a = sf.getLineAndCharacterOfPosition(start);
  const b = sf.getLineAndCharacterOfPosition(end);
  return {
    start: { offset: start, line: a.line, column: a.character },
    end: { offset: end, line: b.line, column: b.character },
  };
}
