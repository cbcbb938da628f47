// `--format table` of `kit routes` and `kit endpoints`: an aligned human table sorted by path.
import type { EndpointRecord, RouteRow } from './types.js';

const HEADERS = ['METHOD', 'PATH', 'KIND', 'PAGE', 'GUARDS', 'RENDER', 'CACHE', 'BINDING'];

type Row = RouteRow | EndpointRecord;

function cells(r: Row): string[] {
  return [
    r.method,
    r.route,
    r.kind,
    r.pageId,
    r.guards?.join(',') || '-',
    'render' in r && r.render ? r.render : '-',
    r.cache ?? '-',
    r.bindingStatus ?? '-',
  ];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function formatTable(rows: readonly Row[]): string {
  const body = rows.map(cells).sort((a, b) => cmp(a[1], b[1]) || cmp(a[0], b[0]) || cmp(a[2], b[2]) || cmp(a[3], b[3]));
  const all = [HEADERS, ...body];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => [...r[i]].length)));
  return (
    all
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
