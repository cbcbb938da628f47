// Component declarations of one file: name and props.
import { isOneOf, PROP_TYPES } from '#shared/language/facts.js';
import { diag } from '../diagnostics/registry.js';
import type { RuleContext } from './context.js';

export function componentsRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (file.kind !== 'component') return;
  if (s.component && !/^[A-Z][A-Za-z0-9_]*$/.test(s.component.name.text)) {
    ctx.report(
      diag(
        'invalid_component_name',
        file.path,
        s.component.name.range,
        `component name "${s.component.name.text}" must start with an uppercase letter`,
      ),
    );
  }
  if (!s.component) {
    // A *.cmp.kit file without `component Name` is named after its file; say so only when that name is unusable.
    if (!/^[A-Z]/.test(s.ownerId)) {
      const at = file.declarations[0]?.range;
      if (at)
        ctx.report(
          diag(
            'invalid_component_name',
            file.path,
            at,
            `component file needs component <Name> (its file name "${s.ownerId}" is not a capitalised component name)`,
          ),
        );
    }
  }
  const seen = new Set<string>();
  for (const p of s.props?.props ?? []) {
    if (!isOneOf(PROP_TYPES, p.type.text))
      ctx.report(
        diag(
          'invalid_prop_type',
          file.path,
          p.type.range,
          `prop ${p.name.text} has unsupported type "${p.type.text}"; use string, int, float or bool`,
        ),
      );
    if (seen.has(p.name.text))
      ctx.report(diag('duplicate_declaration', file.path, p.name.range, `prop ${p.name.text} is declared twice`));
    seen.add(p.name.text);
    const d = p.default;
    if (!d || !isOneOf(PROP_TYPES, p.type.text)) continue;
    const ok =
      p.type.text === 'string'
        ? typeof d.value === 'string'
        : p.type.text === 'bool'
          ? typeof d.value === 'boolean'
          : p.type.text === 'int'
            ? typeof d.value === 'number' && Number.isInteger(d.value)
            : typeof d.value === 'number';
    if (!ok)
      ctx.report(
        diag(
          'invalid_prop_default',
          file.path,
          d.range,
          `prop ${p.name.text} default must be a ${p.type.text} literal`,
        ),
      );
  }
}
