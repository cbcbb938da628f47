// `--format table` of `kit routes` and `kit endpoints`: an aligned human table sorted by path.
import type { EndpointRecord, RouteRow } from './types.js';
import { compareText } from './order.js';

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

export function formatTable(rows: readonly Row[]): string {
  const body = rows
    .map(cells)
    .sort(
      (a, b) =>
        compareText(a[1], b[1]) || compareText(a[0], b[0]) || compareText(a[2], b[2]) || compareText(a[3], b[3]),
    );
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
