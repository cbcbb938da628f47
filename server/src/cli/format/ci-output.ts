// `kit check --format github|sarif`: diagnostics for CI systems. `github` prints GitHub Actions
// workflow commands (annotations on the pull request's lines); `sarif` prints a SARIF 2.1.0 log
// (code scanning, and every SARIF viewer). Both carry the same positions as the JSON report.
import type { Diagnostic, Severity } from '#core/diagnostics/diagnostic.js';
import { REGISTRY, type CodeInfo } from '#core/diagnostics/registry.js';
import type { SourceLookup } from '#core/model/report-positions.js';
import { toJsonDiagnostic } from './check-output.js';

const GITHUB_COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** Escapes a workflow command's message (`::cmd props::message`). */
function githubData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escapes a workflow command's property value, where `:` and `,` are separators too. */
function githubProperty(s: string): string {
  return githubData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export function checkGithub(diags: Diagnostic[], source: SourceLookup): string {
  let out = '';
  for (const d of diags) {
    const j = toJsonDiagnostic(d, source);
    const props = [
      `file=${githubProperty(j.file)}`,
      `line=${j.range.start.line}`,
      `col=${j.range.start.column}`,
      `endLine=${j.range.end.line}`,
      `endColumn=${j.range.end.column}`,
      `title=${githubProperty(j.code)}`,
    ].join(',');
    const notes = (j.related ?? []).map((r) => ` (${r.message}: ${r.file}:${r.pos.line}:${r.pos.column})`).join('');
    out += `::${GITHUB_COMMAND[d.severity]} ${props}::${githubData(`${j.message}${notes}`)}\n`;
  }
  return out;
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

function location(file: string, r: { start: { line: number; column: number }; end: { line: number; column: number } }) {
  const region: SarifRegion = {
    startLine: r.start.line,
    startColumn: r.start.column,
    endLine: r.end.line,
    endColumn: r.end.column,
  };
  return { physicalLocation: { artifactLocation: { uri: encodeURI(file) }, region } };
}

/** A SARIF 2.1.0 log of one run: the rules that fired (from the diagnostics registry) and the results. */
export function checkSarif(diags: Diagnostic[], source: SourceLookup, version: string): string {
  const registry = REGISTRY as Record<string, CodeInfo>;
  const codes = [...new Set(diags.map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const rules = codes.map((code) => {
    const info = registry[code];
    return {
      id: code,
      shortDescription: { text: info?.summary ?? code },
      defaultConfiguration: { level: SARIF_LEVEL[info?.severity ?? 'error'] },
    };
  });
  const results = diags.map((d) => {
    const j = toJsonDiagnostic(d, source);
    const result: Record<string, unknown> = {
      ruleId: d.code,
      ruleIndex: ruleIndex.get(d.code),
      level: SARIF_LEVEL[d.severity],
      message: { text: j.suggestion ? `${j.message} (${j.suggestion})` : j.message },
      locations: [location(j.file, j.range)],
    };
    if (j.related?.length)
      result.relatedLocations = j.related.map((r, id) => ({
        id,
        ...location(r.file, r.range),
        message: { text: r.message },
      }));
    return result;
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'kit', semanticVersion: version, informationUri: 'https://github.com/kit-lang/kit', rules },
        },
        columnKind: 'unicodeCodePoints',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
