// "kit: Go to URL…": what the server's `kit/resolveUrl` answers, as quick-pick items. Pure (no VS
// Code API) so that tests can run it: the command in `extension.ts` asks, picks and opens.

import type { ResolvedUrl, ResolveUrlAnswer } from '../../shared/protocol/protocol.js';

export type { ResolvedUrl, ResolveUrlAnswer };

export interface UrlPickItem {
  label: string;
  description: string;
  detail?: string;
  answer: ResolvedUrl;
}

function paramsText(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** The answers that lead somewhere, one item each: `GET /blog/{slug}`, `page blog.post · slug=hello-kit`. */
export function urlPickItems(result: ResolveUrlAnswer): UrlPickItem[] {
  return result.answers
    .filter((a) => a.location !== undefined && a.outcome === 'route')
    .map((a) => {
      const params = paramsText(a.params);
      const notes = [
        a.redirect !== undefined ? `after 308 to ${a.redirect}` : '',
        a.status !== 200 ? `answers ${a.status}` : '',
        a.note ?? '',
        a.folder ? `in ${a.folder}` : '',
      ].filter(Boolean);
      return {
        label: `${a.method} ${a.route ?? result.url}`,
        description: `${a.owner ?? ''}${params ? ` · ${params}` : ''}`,
        ...(notes.length ? { detail: notes.join('; ') } : {}),
        answer: a,
      };
    });
}

/** Why nothing answers at the URL, for a message: the first answer's status and reason. */
export function noAnswerMessage(result: ResolveUrlAnswer): string {
  const a = result.answers[0];
  if (!a) return `kit: no workspace folder answers ${result.url}`;
  if (a.outcome === 'kit') return `kit: ${result.url} is kit's own endpoint (${a.note ?? ''})`;
  return `kit: ${a.method} ${result.url} answers ${a.status}${a.note ? `: ${a.note}` : ''}`;
}
