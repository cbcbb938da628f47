// `kit check` output: the JSON report (schema version 1, `schemas/check.schema.json`) and the human lines.
import type { Diagnostic } from '../../core/diagnostics/diagnostic.js';
import { paint } from '../io.js';
import {
  reportPos,
  reportRange,
  type ReportPos,
  type ReportRange,
  type SourceLookup,
} from '../../core/model/report-positions.js';

export interface JsonDiagnostic {
  file: string;
  code: string;
  pos: ReportPos;
  range: ReportRange;
  severity: string;
  message: string;
  related?: { file: string; pos: ReportPos; range: ReportRange; message: string }[];
  suggestion?: string;
}

export function toJsonDiagnostic(d: Diagnostic, source: SourceLookup): JsonDiagnostic {
  const text = source(d.file);
  const range = reportRange(text, d.range);
  const out: JsonDiagnostic = {
    file: d.file,
    code: d.code,
    pos: range.start,
    range,
    severity: d.severity,
    message: d.message,
  };
  if (d.related?.length) {
    out.related = d.related.map((r) => {
      const rr = reportRange(source(r.file), r.range);
      return { file: r.file, pos: rr.start, range: rr, message: r.message };
    });
  }
  if (d.suggestion) out.suggestion = d.suggestion;
  return out;
}

export function checkJson(diags: Diagnostic[], source: SourceLookup): string {
  return JSON.stringify({ version: 1, diagnostics: diags.map((d) => toJsonDiagnostic(d, source)) }, null, 2) + '\n';
}

const SEVERITY_COLOR: Record<string, string> = { error: '31;1', warning: '33;1', info: '36' };

export function checkHuman(diags: Diagnostic[], source: SourceLookup, fileCount: number, color: boolean): string {
  let out = '';
  for (const d of diags) {
    const p = reportPos(source(d.file), d.range.start);
    out +=
      `${paint(color, '1', `${d.file}:${p.line}:${p.column}`)}: ` +
      `${paint(color, SEVERITY_COLOR[d.severity] ?? '0', d.severity)} ${d.code}: ${d.message}\n`;
    for (const r of d.related ?? []) {
      const rp = reportPos(source(r.file), r.range.start);
      out += `  ${r.file}:${rp.line}:${rp.column}: ${paint(color, '2', 'note')}: ${r.message}\n`;
    }
    if (d.suggestion) out += `  ${paint(color, '2', 'suggestion')}: ${d.suggestion}\n`;
  }
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  const infos = diags.length - errors - warnings;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const files = plural(fileCount, 'file');
  const counts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos) counts.push(plural(infos, 'note'));
  if (diags.length === 0) out += `ok: checked ${files}, no problems\n`;
  else out += `checked ${files}: ${counts.join(', ')}\n`;
  return out;
}
