// The header language of conformance files (test/fixtures/conformance/README.md): leading `//`
// comment lines that state what `kit check --json` must report for the file. Parsing is strict: an
// unknown or malformed directive is a corpus error, so a typo never turns into a silently empty check.

export interface RangeExpectation {
  code: string;
  start: [number, number];
  end: [number, number];
  text: string;
}
export interface RelatedExpectation {
  code: string;
  file: string;
  line: number;
  column?: number;
  message?: string;
  text: string;
}
export interface MessageExpectation {
  code: string;
  substring: string;
  text: string;
}

export interface FileExpectations {
  /** True when the file carries an `// expect:` line. */
  declared: boolean;
  /** Expected codes with how often each was listed. */
  codes: Map<string, number>;
  /** `// expect-exact`: every listed count is exact (a code listed once must occur exactly once). */
  exact: boolean;
  ranges: RangeExpectation[];
  related: RelatedExpectation[];
  messages: MessageExpectation[];
  severities: Map<string, string>;
  /** `// expect-without-ssr:` (ssr folders only): the codes the same file gives without --ssr. */
  withoutSsr?: Map<string, number>;
  /** Rows of reference-notes 2.5 the file covers. */
  rows: number[];
  errors: string[];
}

const CODE = /^[a-z][a-z0-9_]*$/;
const POS = /^(\d+):(\d+)$/;
const SEVERITIES = new Set(['error', 'warning', 'info']);

function codeList(text: string, errors: string[], where: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const raw of text.split(',')) {
    const code = raw.trim();
    if (code === '') continue;
    if (!CODE.test(code)) {
      errors.push(`${where}: "${code}" is not a diagnostic code`);
      continue;
    }
    out.set(code, (out.get(code) ?? 0) + 1);
  }
  if (out.size === 0) errors.push(`${where}: lists no codes`);
  return out;
}

function pos(text: string): [number, number] | undefined {
  const m = POS.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Reads the leading comment block of a `.kit` file or handler module. */
export function parseExpectations(text: string): FileExpectations {
  const exp: FileExpectations = {
    declared: false,
    codes: new Map(),
    exact: false,
    ranges: [],
    related: [],
    messages: [],
    severities: new Map(),
    rows: [],
    errors: [],
  };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (!line.startsWith('//')) break;
    const body = line.slice(2).trim();
    const where = `line ${i + 1}`;
    const m = /^(expect(?:-[a-z-]+)?|rows)\s*(?::\s*(.*))?$/.exec(body);
    if (!m) {
      if (/^expect/i.test(body)) exp.errors.push(`${where}: unknown directive "${body}"`);
      continue; // an ordinary comment
    }
    const [, name, arg = ''] = m;
    switch (name) {
      case 'expect':
        if (exp.declared) exp.errors.push(`${where}: a second // expect: line; list every code on one line`);
        exp.declared = true;
        exp.codes = codeList(arg, exp.errors, where);
        break;
      case 'expect-exact':
        exp.exact = true;
        break;
      case 'expect-without-ssr':
        exp.withoutSsr = codeList(arg, exp.errors, where);
        break;
      case 'expect-range': {
        const r = /^(\S+)\s+(\d+:\d+)-(\d+:\d+)$/.exec(arg.trim());
        const start = r && pos(r[2]);
        const end = r && pos(r[3]);
        if (!r || !start || !end) exp.errors.push(`${where}: expected "// expect-range: <code> L:C-L:C"`);
        else exp.ranges.push({ code: r[1], start, end, text: arg.trim() });
        break;
      }
      case 'expect-related': {
        const r = /^(\S+)\s+->\s+(\S+?):(\d+)(?::(\d+))?(?:\s+~\s+(.+))?$/.exec(arg.trim());
        if (!r) exp.errors.push(`${where}: expected "// expect-related: <code> -> <file>:<line>[:<col>] [~ message]"`);
        else
          exp.related.push({
            code: r[1],
            file: r[2],
            line: Number(r[3]),
            column: r[4] === undefined ? undefined : Number(r[4]),
            message: r[5],
            text: arg.trim(),
          });
        break;
      }
      case 'expect-message': {
        const r = /^(\S+)\s+~\s+(.+)$/.exec(arg.trim());
        if (!r) exp.errors.push(`${where}: expected "// expect-message: <code> ~ <text>"`);
        else exp.messages.push({ code: r[1], substring: r[2], text: arg.trim() });
        break;
      }
      case 'expect-severity': {
        const r = /^(\S+)\s+(\S+)$/.exec(arg.trim());
        if (!r || !SEVERITIES.has(r[2]))
          exp.errors.push(`${where}: expected "// expect-severity: <code> error|warning|info"`);
        else exp.severities.set(r[1], r[2]);
        break;
      }
      case 'rows':
        for (const n of arg.split(',')) {
          const v = Number(n.trim());
          if (!Number.isInteger(v) || v < 1) exp.errors.push(`${where}: "${n.trim()}" is not a row number`);
          else exp.rows.push(v);
        }
        break;
      default:
        exp.errors.push(`${where}: unknown directive "${name}"`);
    }
  }
  // Every detail expectation must be about a code the file expects.
  const details = [...exp.ranges, ...exp.related, ...exp.messages]
    .map((d) => d.code)
    .concat([...exp.severities.keys()]);
  for (const code of details) {
    if (!exp.codes.has(code)) exp.errors.push(`a detail line names ${code}, which the // expect: line does not list`);
  }
  return exp;
}
