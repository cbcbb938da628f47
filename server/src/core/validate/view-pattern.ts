// `pattern` on a form control: browsers compile it as `^(?:…)$` with the `v` flag and ignore it when
// that fails, so an invalid pattern silently checks nothing; the app checks it with the linear
// matcher (`shared/app/pattern.ts`), which refuses what it cannot match in time linear in the value
// (backreferences, repetitions past its state budget): such a pattern would stop the app starting.
import type { Attribute, Element } from '#grammar/index.js';
import { compilePattern, type PatternCheck } from '#shared/app/pattern.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { decodeEntities } from '../model/url-safety.js';
import type { RuleContext } from './context.js';

const CONTROLS = new Set(['input', 'textarea']);
/** Compiled sources: a site repeats its few patterns across many views. */
const checked = new Map<string, PatternCheck>();

function check(source: string): PatternCheck {
  let c = checked.get(source);
  if (c === undefined) {
    c = compilePattern(source);
    if (checked.size < 1000) checked.set(source, c);
  }
  return c;
}

/** Reports a literal `pattern` attribute of an input or textarea that is invalid or not linear. */
export function patternAttribute(ctx: RuleContext, el: Element, a: Attribute, report: (d: Diagnostic) => void): void {
  const v = a.value;
  if (!CONTROLS.has(el.name) || v?.type !== 'string' || !v.parts.every((p) => p.type === 'text')) return;
  const source = decodeEntities(v.parts.map((p) => (p.type === 'text' ? p.value : '')).join(''));
  if (source === '') return;
  const c = check(source);
  if (c.ok) return;
  const { file, summary: s } = ctx;
  const shown = JSON.stringify(source.length > 60 ? source.slice(0, 60) + '…' : source);
  report(
    c.problem === 'invalid'
      ? diag(
          'invalid_pattern',
          file.path,
          v.range,
          `${s.ownerId}: pattern ${shown} is not a valid pattern (${c.message}); browsers compile it with the v flag ` +
            `and, when that fails, check nothing`,
        )
      : diag(
          'unsafe_pattern',
          file.path,
          v.range,
          `${s.ownerId}: pattern ${shown} cannot be matched in time linear in the value (${c.message}); ` +
            `the app refuses to start with it`,
        ),
  );
}
