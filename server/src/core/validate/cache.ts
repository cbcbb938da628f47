// `cache` and `revalidate`: a literal Cache-Control value plus an optional revalidation window that
// becomes `stale-while-revalidate=<seconds>` in the effective policy.
import { diag } from '../diagnostics/registry.js';
import type { RuleContext } from './context.js';
import { parseRevalidate } from '../model/cache-policy.js';

export function cacheRule(ctx: RuleContext): void {
  const { file, summary: s } = ctx;
  if (s.cache && s.cache.value.value.trim() === '') {
    ctx.report(
      diag(
        'invalid_cache_policy',
        file.path,
        s.cache.value.range,
        `${s.ownerId}: cache needs a non-empty Cache-Control value`,
      ),
    );
  }
  if (s.cache && /[\r\n]/.test(s.cache.value.value)) {
    ctx.report(
      diag('invalid_cache_policy', file.path, s.cache.value.range, `${s.ownerId}: cache value must be a single line`),
    );
  }
  if (!s.revalidate) return;
  const seconds = parseRevalidate(s.revalidate.value.text);
  if (seconds === undefined) {
    ctx.report(
      diag(
        'invalid_revalidate',
        file.path,
        s.revalidate.value.range,
        `${s.ownerId}: invalid revalidate value "${s.revalidate.value.text}"; use positive whole seconds (300) or ` +
          'a Go duration of whole seconds such as 60s, 5m, 1h30m or 2000ms',
      ),
    );
  }
  if (!s.cache) {
    ctx.report(
      diag(
        'revalidate_requires_cache',
        file.path,
        s.revalidate.range,
        `${s.ownerId}: revalidate needs a cache policy; add cache "public, max-age=60"`,
      ),
    );
  } else if (/stale-while-revalidate/i.test(s.cache.value.value)) {
    ctx.report(
      diag(
        'duplicate_revalidate_policy',
        file.path,
        s.revalidate.range,
        `${s.ownerId}: cache already contains stale-while-revalidate; remove it or remove revalidate`,
        {
          related: [{ file: file.path, range: s.cache.range, message: 'cache policy declared here' }],
        },
      ),
    );
  }
}
