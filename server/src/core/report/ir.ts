// `kit inspect ir`: the core's typed model as JSON, for compiler debugging and snapshots — every
// `.kit` file's syntax tree, summary, registrations, bindings and diagnostics, and every handler
// module's scan. Explicitly not a report schema: its shape follows the code and may change.
import type { KitFile } from '#grammar/index.js';
import type { Registration } from '../model/registrations.js';
import type { FileSummary } from '../model/summary.js';
import type { Workspace } from '../workspace/workspace.js';

function registration(r: Registration): Record<string, unknown> {
  const { route, ...rest } = r;
  return {
    ...rest,
    route: { pattern: route.pattern, shapeKey: route.shapeKey, params: route.params, valid: route.valid },
  };
}

function summary(s: FileSummary): Record<string, unknown> {
  return {
    kind: s.kind,
    dir: s.dir,
    packageName: s.packageName,
    ownerId: s.ownerId,
    render: s.render,
    route: s.route
      ? {
          pattern: s.route.parsed.pattern,
          shapeKey: s.route.parsed.shapeKey,
          params: s.route.parsed.params,
          valid: s.route.parsed.valid,
          issues: s.route.parsed.issues,
        }
      : undefined,
    guards: s.guards,
    layouts: s.layouts,
    cache: s.cache?.value.value,
    revalidate: s.revalidate?.value.text,
    server: s.server ? s.server.fields.map((f) => f.text) : undefined,
    actions: s.actions.map((a) => ({ symbol: a.symbol.text, method: a.method.text, path: a.path?.value })),
    apis: s.apis.map((a) => ({ symbol: a.symbol.text, method: a.method.text, path: a.path?.value })),
    fragments: s.fragments.map((f) => ({
      name: f.name.text,
      method: f.method.text,
      path: f.path.value,
      target: f.target.value,
    })),
    uses: Object.fromEntries([...s.uses.entries()].map(([k, u]) => [k, u.pkg.value])),
    componentCalls: s.componentCalls.map((c) => ({ name: c.name, range: c.range })),
    contractRefs: s.contractRefs.map((c) => ({
      kind: c.kind,
      name: c.name,
      actionPath: c.actionPath?.value,
      range: c.range,
    })),
    props: s.props?.props.map((p) => ({ name: p.name.text, type: p.type.text })),
  };
}

function ast(file: KitFile): Omit<KitFile, 'lineStarts'> {
  const { lineStarts, ...rest } = file;
  void lineStarts;
  return rest;
}

export function inspectIr(ws: Workspace): Record<string, unknown> {
  return {
    kind: 'kit-ir',
    note: 'compiler debugging dump; not the route-report schema; ranges are 0-based with UTF-16 columns',
    kitFiles: ws.allKit().map((e) => ({
      path: e.path,
      summary: summary(e.summary),
      registrations: e.registrations.map(registration),
      bindings: ws.bindingFor(e.path)?.handlers ?? [],
      diagnostics: ws.diagnosticsFor(e.path),
      ast: ast(e.ast),
    })),
    modules: ws.allModules().map((m) => ({
      path: m.path,
      exports: m.summary.exports,
      endpoints: m.summary.endpoints,
      registrations: m.registrations.map(registration),
      bindings: ws.bindingFor(m.path)?.handlers ?? [],
      diagnostics: ws.diagnosticsFor(m.path),
    })),
  };
}
