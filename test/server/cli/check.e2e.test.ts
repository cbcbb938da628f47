// `kit check`: exit status, the human and JSON formats, colour, I/O errors and source discovery.
import { strict as assert } from 'node:assert';
import { chmodSync, readdirSync } from 'node:fs';
import { useColor, type CliIO } from '#cli/io.js';
import { repoRoot } from '../../helpers/repo.js';
import { page, runInProcess, runProcess, runUnprivileged, TempTree } from './cli-harness.js';

interface JsonPos {
  line: number;
  column: number;
}
interface JsonDiag {
  file: string;
  code: string;
  pos: JsonPos;
  range: { start: JsonPos; end: JsonPos };
  severity: string;
  message: string;
  related?: { file: string; pos: JsonPos; range: { start: JsonPos; end: JsonPos }; message: string }[];
  suggestion?: string;
}

const ESC = '\u001b[';

const BLOG_A =
  'route "/blog/{slug}"\nguard public\n\npaths {\n  => { slug: "a" }\n}\n\nview {\n  <main>{slug}</main>\n}\n';
const BLOG_B = 'route "/blog/{id}"\nguard public\n\npaths {\n  => { id: "1" }\n}\n\nview {\n  <main>{id}</main>\n}\n';
const UNGUARDED = 'route "/draft"\n\nview {\n  <main>Draft</main>\n}\n';

function parseReport(stdout: string): JsonDiag[] {
  const doc = JSON.parse(stdout) as { version: number; diagnostics: JsonDiag[] };
  assert.equal(doc.version, 1);
  return doc.diagnostics;
}

describe('kit check', () => {
  let tree: TempTree;
  beforeEach(() => {
    tree = new TempTree({ 'a.kit': BLOG_A, 'b.kit': BLOG_B, 'c.kit': UNGUARDED });
  });
  afterEach(() => tree.dispose());

  describe('exit status', () => {
    it('is 0 for clean sources and prints ok', async () => {
      const r = await runInProcess(['check', 'a.kit'], { cwd: tree.root });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, 'ok: checked 1 file, no problems\n');
      assert.equal(r.stderr, '');
    });
    it('is 0 when there are warnings only', async () => {
      const r = await runInProcess(['check', 'c.kit'], { cwd: tree.root });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^c\.kit:1:1: warning missing_page_guard: /);
      assert.match(r.stdout, /\nchecked 1 file: 0 errors, 1 warning\n$/);
    });
    it('is 1 with errors, from a real process as well (whose piped output has no colour)', async () => {
      const r = await runProcess(['check', '.'], tree.root);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, '');
      assert.match(r.stdout, /\nchecked 3 files: 1 error, 1 warning\n$/);
      assert.ok(!r.stdout.includes(ESC));
    });
    it('is 2 for usage errors: no inputs, an unknown flag, an unknown command', async () => {
      const none = await runInProcess(['check'], { cwd: tree.root });
      assert.equal(none.code, 2);
      assert.equal(
        none.stderr,
        'kit check: no sources: name the directory of the .kit files (kit check site), or run it in a project ' +
          'whose kit.config.ts (or .mts, .js, .mjs; kit init writes one) is found here or up to the project root\n',
      );
      const flag = await runInProcess(['check', '--bogus', 'a.kit'], { cwd: tree.root });
      assert.equal(flag.code, 2);
      assert.equal(flag.stdout, '');
      assert.equal(flag.stderr, 'kit check: unknown flag --bogus (see kit check --help)\n');
      const typo = await runInProcess(['check', '--jsn', 'x.kit'], { cwd: repoRoot });
      assert.equal(typo.code, 2);
      assert.equal(typo.stderr, 'kit check: unknown flag --jsn; did you mean --json? (see kit check --help)\n');
      const value = await runInProcess(['check', '--json=yes', 'a.kit'], { cwd: tree.root });
      assert.equal(value.code, 2);
      assert.match(value.stderr, /^kit check: flag --json takes no value\n$/);
      const command = await runInProcess(['chek', 'a.kit'], { cwd: tree.root });
      assert.equal(command.code, 2);
      assert.match(
        command.stderr,
        /^kit: unknown command "chek"; did you mean "check"\? \(commands: check, [^)]*\)\n$/,
      );
    });
  });

  describe('human output', () => {
    it('prints file:line:col: severity code: message, a code frame, notes and help, then the summary', async () => {
      const human = await runInProcess(['check', '.'], { cwd: tree.root });
      const json = parseReport((await runInProcess(['check', '--json', '.'], { cwd: tree.root })).stdout);
      assert.equal(human.code, 1);
      // The same diagnostics as the JSON report, in the same order, in the documented line format.
      const expected: string[] = [];
      for (const d of json) {
        expected.push(`${d.file}:${d.pos.line}:${d.pos.column}: ${d.severity} ${d.code}: ${d.message}`);
        for (const r of d.related ?? []) expected.push(`  ${r.file}:${r.pos.line}:${r.pos.column}: note: ${r.message}`);
        if (d.suggestion) expected.push(`  = help: ${d.suggestion}`);
      }
      expected.push('checked 3 files: 1 error, 1 warning');
      // Code frames (gutter lines) and the blank line closing each diagnostic are the golden tests' part.
      const lines = human.stdout.split('\n').filter((l) => l !== '' && !/^ *\d* \|/.test(l));
      assert.deepEqual(lines, expected);
      // And the content is what these sources must give.
      assert.deepEqual(
        json.map((d) => `${d.file}:${d.pos.line}:${d.pos.column} ${d.severity} ${d.code}`),
        ['b.kit:1:1 error duplicate_route', 'c.kit:1:1 warning missing_page_guard'],
      );
      assert.match(
        human.stdout,
        /^b\.kit:1:1: error duplicate_route: .*\n(?: *\d* \|.*\n)+ {2}a\.kit:1:1: note: route "\/blog\/\{slug\}" first declared here\n/,
      );
    });
  });

  describe('--json', () => {
    it('prints the version 1 report with 2-space indentation and a fixed key order', async () => {
      const r = await runInProcess(['check', '--json', '.'], { cwd: tree.root });
      assert.equal(r.code, 1);
      const doc = JSON.parse(r.stdout) as { version: number; diagnostics: JsonDiag[] };
      assert.equal(r.stdout, JSON.stringify(doc, null, 2) + '\n');
      assert.deepEqual(Object.keys(doc), ['version', 'diagnostics']);
      const [dup, guard] = doc.diagnostics;
      assert.deepEqual(Object.keys(dup), [
        'file',
        'code',
        'pos',
        'range',
        'severity',
        'message',
        'related',
        'suggestion',
      ]);
      assert.deepEqual(Object.keys(guard), ['file', 'code', 'pos', 'range', 'severity', 'message', 'suggestion']);
      assert.deepEqual(
        { file: dup.file, code: dup.code, pos: dup.pos, range: dup.range, severity: dup.severity },
        {
          file: 'b.kit',
          code: 'duplicate_route',
          pos: { line: 1, column: 1 },
          range: { start: { line: 1, column: 1 }, end: { line: 1, column: 19 } },
          severity: 'error',
        },
      );
      assert.deepEqual(dup.related, [
        {
          file: 'a.kit',
          pos: { line: 1, column: 1 },
          range: { start: { line: 1, column: 1 }, end: { line: 1, column: 21 } },
          message: 'route "/blog/{slug}" first declared here',
        },
      ]);
      assert.deepEqual(Object.keys(dup.related![0]), ['file', 'pos', 'range', 'message']);
      assert.equal(guard.severity, 'warning');
    });

    it('prints an empty list for clean sources', async () => {
      const r = await runInProcess(['check', '--json', 'a.kit'], { cwd: tree.root });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '{\n  "version": 1,\n  "diagnostics": []\n}\n');
    });

    it('counts columns in code points on a line with non-ASCII text', async () => {
      const line1 = 'route "/𝓚é/{x?}"';
      const line5 = '  <p>𝓚 <a href="javascript:void(0)">x</a></p>';
      tree.write('u.kit', `${line1}\nguard public\n\nview {\n${line5}\n}\n`);
      const diags = parseReport((await runInProcess(['check', '--json', 'u.kit'], { cwd: tree.root })).stdout);
      const cp = (s: string) => [...s].length;
      const route = diags.find((d) => d.code === 'malformed_route');
      const at = line1.indexOf('{x?}');
      assert.deepEqual(route?.range, {
        start: { line: 1, column: cp(line1.slice(0, at)) + 1 },
        end: { line: 1, column: cp(line1.slice(0, at)) + 5 },
      });
      assert.equal(route?.range.start.column, 12);
      assert.notEqual(route?.range.start.column, at + 1, 'a UTF-16 column would differ here');
      const url = diags.find((d) => d.code === 'unsafe_url');
      const v = line5.indexOf('"javascript');
      assert.deepEqual(url?.range.start, { line: 5, column: cp(line5.slice(0, v)) + 1 });
      assert.equal(url?.range.end.column, cp(line5.slice(0, v)) + 1 + '"javascript:void(0)"'.length);
      // The human format uses the same columns.
      const human = await runInProcess(['check', 'u.kit'], { cwd: tree.root });
      assert.match(human.stdout, /^u\.kit:1:12: error malformed_route: /m);
      assert.match(human.stdout, /^u\.kit:5:16: error unsafe_url: /m);
    });
  });

  describe('colour', () => {
    it('colours human output on a TTY', async () => {
      const r = await runInProcess(['check', '.'], { cwd: tree.root, tty: true, env: {} });
      assert.ok(r.stdout.includes(`${ESC}31;1merror${ESC}0m`), r.stdout);
      assert.ok(r.stdout.includes(`${ESC}33;1mwarning${ESC}0m`), r.stdout);
      // Colour never changes the text itself.
      const plain = await runInProcess(['check', '.'], { cwd: tree.root });
      assert.equal(r.stdout.replace(/\u001b\[[0-9;]*m/g, ''), plain.stdout);
    });
    it('never colours with NO_COLOR (any value, even empty), off a TTY, or in JSON', async () => {
      for (const env of [{ NO_COLOR: '' }, { NO_COLOR: '1' }]) {
        const r = await runInProcess(['check', '.'], { cwd: tree.root, tty: true, env });
        assert.ok(!r.stdout.includes(ESC), `NO_COLOR=${JSON.stringify(env.NO_COLOR)}`);
      }
      assert.ok(!(await runInProcess(['check', '.'], { cwd: tree.root, tty: false })).stdout.includes(ESC));
      assert.ok(!(await runInProcess(['check', '--json', '.'], { cwd: tree.root, tty: true })).stdout.includes(ESC));
    });
    it('useColor: TTY and no NO_COLOR and not TERM=dumb', () => {
      const io = (isTTY: boolean | undefined, env: Record<string, string | undefined>): CliIO => ({
        stdout: { write: () => true, isTTY },
        stderr: { write: () => true },
        env,
        cwd: '.',
      });
      const table: [boolean | undefined, Record<string, string | undefined>, boolean][] = [
        [true, {}, true],
        [true, { NO_COLOR: '' }, false],
        [true, { NO_COLOR: '0' }, false],
        [true, { TERM: 'dumb' }, false],
        [true, { TERM: 'xterm-256color' }, true],
        [false, {}, false],
        [undefined, {}, false],
      ];
      for (const [tty, env, want] of table)
        assert.equal(useColor(io(tty, env)), want, `isTTY=${tty} env=${JSON.stringify(env)}`);
      assert.equal(useColor(io(true, {}), 'stderr'), false, 'stderr is not a TTY here');
    });
  });

  describe('I/O errors', () => {
    const noStack = (s: string) => !/^\s+at /m.test(s);

    it('a missing path: one clear line, exit 2, no stack trace', async () => {
      const r = await runProcess(['check', 'a.kit', 'nope.kit'], tree.root);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'kit check: no such file or directory: nope.kit\n');
      assert.ok(noStack(r.stderr));
    });
    it('a file that is not a .kit file: one clear line, exit 2', async () => {
      tree.write('notes.txt', 'hello');
      const r = await runInProcess(['check', 'notes.txt'], { cwd: tree.root });
      assert.equal(r.code, 2);
      assert.equal(r.stderr, 'kit check: not a .kit file: notes.txt\n');
    });
    /** Writes `rel` unreadable and checks `inputs` as an unprivileged user: one clear line, exit 2. */
    async function checkLocked(rel: string, inputs: string[]): Promise<void> {
      // Root reads any file whatever its mode, so as root the command runs as an unprivileged user.
      chmodSync(tree.root, 0o755);
      tree.write(rel, page(`/${rel.replace(/\.kit$/, '')}`));
      chmodSync(tree.path(rel), 0o000);
      const r = await runUnprivileged(['check', ...inputs], tree.root);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `kit check: cannot read ${rel}: EACCES\n`);
      assert.ok(noStack(r.stderr));
    }
    it('an unreadable file and an unreadable directory: one clear line each, exit 2', async () => {
      await checkLocked('locked.kit', ['locked.kit']);
      tree.write('closed/x.kit', page('/closed'));
      chmodSync(tree.path('closed'), 0o000);
      const dir = await runUnprivileged(['check', 'a.kit', 'closed'], tree.root);
      chmodSync(tree.path('closed'), 0o755);
      assert.equal(dir.code, 2, dir.stderr);
      assert.equal(dir.stderr.split('\n').length, 2, 'exactly one line');
      assert.match(dir.stderr, /^kit check: cannot read directory closed: EACCES\n$/);
    });
    it('an unreadable file among hundreds (read ahead on a worker thread): the same line, exit 2', async () => {
      for (let i = 0; i < 300; i++) tree.write(`many/p${i}.kit`, page(`/many/${i}`));
      await checkLocked('many/p150x.kit', ['many']);
    });
    it('a directory named like a source is searched, not read', async () => {
      tree.write('dir.kit/inner.kit', page('/inner'));
      const r = await runInProcess(['check', '--json', 'dir.kit'], { cwd: tree.root });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(parseReport(r.stdout), []);
    });
  });

  describe('discovery', () => {
    it('searches directories recursively, skipping node_modules and dot folders', async () => {
      const t = new TempTree({
        'top.kit': UNGUARDED.replace('/draft', '/top'),
        'sub/deeper/low.kit': UNGUARDED.replace('/draft', '/low'),
        'node_modules/pkg/dep.kit': UNGUARDED.replace('/draft', '/dep'),
        '.hidden/secret.kit': UNGUARDED.replace('/draft', '/secret'),
        'sub/.cache/cached.kit': UNGUARDED.replace('/draft', '/cached'),
        'sub/node_modules/nested.kit': UNGUARDED.replace('/draft', '/nested'),
        'sub/readme.md': '# not a source',
      });
      try {
        const r = await runInProcess(['check', '--json', '.'], { cwd: t.root });
        assert.deepEqual(
          parseReport(r.stdout).map((d) => `${d.file} ${d.code}`),
          ['sub/deeper/low.kit missing_page_guard', 'top.kit missing_page_guard'],
        );
        const human = await runInProcess(['check', '.'], { cwd: t.root });
        assert.match(human.stdout, /\nchecked 2 files: 0 errors, 2 warnings\n$/);
        // A skipped folder named explicitly is checked: the rule is about searching, not refusing.
        const explicit = await runInProcess(['check', '--json', 'node_modules/pkg'], { cwd: t.root });
        assert.deepEqual(
          parseReport(explicit.stdout).map((d) => d.file),
          ['node_modules/pkg/dep.kit'],
        );
      } finally {
        t.dispose();
      }
    });
    it('checks a file named twice (directly and through its directory) once', async () => {
      const r = await runInProcess(['check', 'c.kit', '.', './c.kit'], { cwd: tree.root });
      assert.match(r.stdout, /\nchecked 3 files: 1 error, 1 warning\n$/);
      assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('c.kit:')).length, 1);
    });
    it('reports paths relative to the working directory, absolute outside it', async () => {
      const inside = await runInProcess(['check', '--json', tree.path('c.kit')], { cwd: tree.root });
      assert.deepEqual(
        parseReport(inside.stdout).map((d) => d.file),
        ['c.kit'],
      );
      tree.write('elsewhere/empty.txt', '');
      const outside = await runInProcess(['check', '--json', '../c.kit'], { cwd: tree.path('elsewhere') });
      assert.deepEqual(
        parseReport(outside.stdout).map((d) => d.file),
        [tree.path('c.kit').split('\\').join('/')],
      );
    });
  });

  describe('the example site', () => {
    // As discovery counts them: dot folders (generated types) aside.
    const kitFiles = (readdirSync(`${repoRoot}/examples/site`, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.kit') && !f.split(/[\\/]/).some((part) => part.startsWith('.')),
    ).length;
    it('checks clean with --ssr (the README quick start)', async () => {
      const r = await runInProcess(['check', '--ssr', 'examples/site'], { cwd: repoRoot });
      assert.equal(r.code, 0, r.stdout);
      assert.equal(r.stdout, `ok: checked ${kitFiles} files, no problems\n`);
    });
    it('needs --ssr for its request-time docs page', async () => {
      const r = await runInProcess(['check', '--json', 'examples/site'], { cwd: repoRoot });
      assert.equal(r.code, 1);
      assert.deepEqual(
        parseReport(r.stdout).map((d) => `${d.file} ${d.code}`),
        ['examples/site/docs/docs.kit missing_ssr_addon'],
      );
    });
  });
});
