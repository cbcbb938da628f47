// The unit tier's guard (test/tiers.cjs loads it into `npm run test:unit`): while it is on, starting a
// child process (which is also how a browser is launched and a release packed), listening on a socket
// or connecting one throws and is recorded with the test file that did it. A test that needs any of
// these belongs in the end-to-end tier (`*.e2e.test.ts`); test/architecture/tiers.test.ts fails the
// run when a unit test did one, even if the code under test swallowed the error.
// The modules' own objects (default imports), not their read-only ES namespaces.
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import Mocha from 'mocha';

export type ViolationKind = 'child process' | 'browser' | 'pack' | 'network socket';

export interface Violation {
  kind: ViolationKind;
  /** What was started or opened: the command line, the address. */
  what: string;
  /** The test file that did it (from the stack, else the running test or hook), relative to the root. */
  file: string;
}

export class TierViolation extends Error {
  constructor(readonly violation: Violation) {
    super(
      `${violation.file}: a unit test may not start a ${violation.kind} (${violation.what}); ` +
        'name the file *.e2e.test.ts to put it in the end-to-end tier (docs/contributing.md, "Test tiers")',
    );
    this.name = 'TierViolation';
  }
}

/** Everything the guard refused since it was installed (or since the last `take`). */
const violations: Violation[] = [];
let currentFile = '';
let uninstall: (() => void) | null = null;

/** The test file on the stack (a `*.test.js` under out*), else the file of the running test or hook. */
function offender(stack: string): string {
  const m = /(out[^/\\]*[/\\]test[/\\][^\s:()]*\.test\.js)/.exec(stack);
  return m ? m[1]!.replace(/\\/g, '/') : currentFile || '(outside any test)';
}

function refuse(kind: ViolationKind, what: string): never {
  const v: Violation = { kind, what, file: offender(new Error().stack ?? '') };
  violations.push(v);
  throw new TierViolation(v);
}

/** A child process's kind: launching Chromium and running the pack script are named for what they are. */
function processKind(command: string): ViolationKind {
  if (/chrom(e|ium)/i.test(command)) return 'browser';
  if (/pack\.mjs|\bnpm\b.*\bpack\b|vsce/.test(command)) return 'pack';
  return 'child process';
}

function commandLine(args: unknown[]): string {
  const [file, rest] = args;
  const words = [String(file), ...(Array.isArray(rest) ? rest.map(String) : [])];
  return words.join(' ').slice(0, 200);
}

function address(args: unknown[]): string {
  const [first, second] = args;
  if (typeof first === 'object' && first !== null) {
    const o = first as { port?: unknown; host?: unknown; path?: unknown };
    return o.path !== undefined ? String(o.path) : `${String(o.host ?? '')}:${String(o.port ?? '')}`;
  }
  return typeof second === 'string' ? `${second}:${String(first)}` : String(first);
}

/** Whether the guard is on in this process. */
export function guardInstalled(): boolean {
  return uninstall !== null;
}

/** Turns the guard on; the function it returns turns it off again. */
export function installGuard(): () => void {
  if (uninstall) return uninstall;
  // Patched on the modules' objects (and on the classes every variant goes through), then synced into
  // their ES module views, so `import { spawn } from 'node:child_process'` sees the guard too.
  type Patch = [object, string, (original: (...a: unknown[]) => unknown) => (...a: unknown[]) => unknown];
  const cp = childProcess as unknown as Record<string, unknown>;
  const refuseProcess = () =>
    function (this: unknown, ...args: unknown[]): never {
      return refuse(processKind(commandLine(args)), commandLine(args));
    };
  const patches: Patch[] = [
    ...['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'].map(
      (name): Patch => [cp, name, refuseProcess],
    ),
    [
      childProcess.ChildProcess.prototype,
      'spawn',
      () =>
        function (this: unknown, options: unknown): never {
          const o = (options ?? {}) as { file?: unknown; args?: unknown };
          return refuse(processKind(commandLine([o.file, o.args])), commandLine([o.file, o.args]));
        },
    ],
    [
      net.Server.prototype,
      'listen',
      () =>
        (...args: unknown[]) =>
          refuse('network socket', `listen ${address(args)}`),
    ],
    [
      net.Socket.prototype,
      'connect',
      () =>
        (...args: unknown[]) =>
          refuse('network socket', `connect ${address(Array.isArray(args[0]) ? (args[0] as unknown[]) : args)}`),
    ],
    [
      dgram as unknown as object,
      'createSocket',
      () =>
        (...args: unknown[]) =>
          refuse('network socket', `udp ${String(args[0])}`),
    ],
  ];
  const saved = patches.map(([target, name, make]) => {
    const t = target as Record<string, (...a: unknown[]) => unknown>;
    const original = t[name]!;
    t[name] = make(original);
    return () => {
      t[name] = original;
    };
  });
  syncBuiltinESMExports();
  uninstall = () => {
    for (const restore of saved) restore();
    syncBuiltinESMExports();
    uninstall = null;
  };
  return uninstall;
}

/** The violations recorded so far. */
export function recordedViolations(): readonly Violation[] {
  return violations;
}

/** Removes and returns the violations recorded after the first `from` (a test that provokes some on purpose). */
export function takeViolations(from: number): Violation[] {
  return violations.splice(from);
}

// The file of each test and hook as mocha runs it, for a violation whose stack no longer names it
// (a process a library starts after some awaits, as a browser launch does).
const run = Mocha.Runnable.prototype.run;
Mocha.Runnable.prototype.run = function (this: Mocha.Runnable, fn: Mocha.Done) {
  const file = (this.file ?? '').replace(/\\/g, '/');
  const at = file.search(/out[^/]*\/test\//);
  currentFile = at >= 0 ? file.slice(at) : file;
  return run.call(this, fn);
};

/** Mocha's root hooks (this module is a `require` of the unit run): the guard is on for the whole run. */
export const mochaHooks = {
  beforeAll(): void {
    installGuard();
  },
};
