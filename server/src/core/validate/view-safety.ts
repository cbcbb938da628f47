// Markup safety: what a view may not hold because the browser would run it or load it from a
// place the page does not control: `<script>`, inline event handlers, `srcdoc`, and URL attributes
// with javascript:, data:, vbscript: or protocol-relative values, or with dynamic values that do
// not follow a literal root-relative prefix.
import type { Attribute, Element } from '#grammar/index.js';
import { diag } from '../diagnostics/registry.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { decodeEntities, isUnsafeUrl, URL_ATTRIBUTES } from '../model/url-safety.js';
import type { RuleContext } from './context.js';

/** `<script>`: browser code is loaded with `js "./file.js"`, never written in the view. */
export function scriptElement(ctx: RuleContext, where: string, el: Element, report: (d: Diagnostic) => void): void {
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  if (el.name === 'script')
    report(
      diag(
        'script_element_not_allowed',
        file.path,
        el.nameRange,
        `${id}: <script> is not allowed in a ${where}; load browser code with js "./file.js"`,
      ),
    );
}

/**
 * Reports what is unsafe in attribute `a` (`lower`: its name in lower case); answers whether the
 * attribute is refused outright, so that no other check reads it.
 */
export function unsafeAttribute(
  ctx: RuleContext,
  a: Attribute,
  lower: string,
  report: (d: Diagnostic) => void,
): boolean {
  const { file, summary: s } = ctx;
  const id = s.ownerId;
  if (lower.length > 2 && lower.startsWith('on') && !lower.includes(':')) {
    report(
      diag(
        'inline_event_handler_not_allowed',
        file.path,
        a.nameRange,
        `${id}: inline event handler ${a.name} is not allowed; attach behaviour from a js module`,
      ),
    );
    return true;
  }
  if (lower === 'srcdoc') {
    report(
      diag(
        'inline_event_handler_not_allowed',
        file.path,
        a.nameRange,
        `${id}: srcdoc is not allowed (it embeds unescaped HTML)`,
      ),
    );
    return true;
  }
  const value = a.value;
  if (URL_ATTRIBUTES.has(lower) && value) {
    const first = value.type === 'string' ? value.parts[0] : undefined;
    const prefix = first && first.type === 'text' ? decodeEntities(first.value) : '';
    if (value.type === 'string' && isUnsafeUrl(prefix)) {
      report(
        diag(
          'unsafe_url',
          file.path,
          value.range,
          `${id}: ${a.name} must not use a javascript:, data:, vbscript: or protocol-relative URL`,
        ),
      );
    } else if (value.type === 'expr' || (first && first.type === 'interp')) {
      report(
        diag(
          'unsafe_url',
          file.path,
          value.range,
          `${id}: ${a.name} takes a dynamic value only after a literal root-relative prefix, e.g. ` +
            `${a.name}="/items/{id}"`,
        ),
      );
    } else if (
      value.parts.length > 1 &&
      !/^\/(?![/\\])/.test(prefix) &&
      !/^(https?:|mailto:|tel:|#|\?|\.)/i.test(prefix.trim())
    ) {
      report(
        diag(
          'unsafe_url',
          file.path,
          value.range,
          `${id}: ${a.name} with interpolation must start with a literal root-relative prefix such as "/path/"`,
        ),
      );
    }
  }
  return false;
}
