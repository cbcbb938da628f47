// docs/deploy.md is run, not only read: its Dockerfiles are the files in docs/deploy/, and each one
// builds the example site into something that serves it. With a usable Docker the images are built
// and run; without one, each Dockerfile's instructions are carried out as a script in a temporary
// directory (docs/deploy.md, "How this page is tested", says what stands in for what).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { repoRoot } from '../helpers/repo.js';
import { waitFor } from '../helpers/wait.js';
import { attach, SECRET, tempDir } from '../server/core/app/built-app.js';

const DEPLOY_DIR = join(repoRoot, 'docs', 'deploy');
const DOC = join(repoRoot, 'docs', 'deploy.md');
const EXAMPLE = join(repoRoot, 'examples', 'site');
const KIT_BIN = join(repoRoot, 'bin', 'kit.js');
/** Pages of the example site: the home page, a static page, one rendered per request, the health check. */
const PAGES: [string, RegExp][] = [
  ['/', /Welcome to Acme/],
  ['/blog/hello-kit', /hello-kit/],
  ['/docs/getting-started', /Rest params/],
  ['/_kit/health', /"status":"ok"/],
];

// ---- The Dockerfile, as data ----

interface Instruction {
  op: string;
  args: string;
}

interface Stage {
  image: string;
  name: string | undefined;
  steps: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const m = /^(\S+)\s+(.*)$/.exec(t);
    assert.ok(m, `cannot read the Dockerfile line ${JSON.stringify(t)}`);
    const op = m[1].toUpperCase();
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(m[2]);
      assert.ok(f, `cannot read FROM ${m[2]}`);
      stages.push({ image: f[1], name: f[2], steps: [] });
    } else {
      assert.ok(stages.length > 0, `${op} before FROM`);
      stages[stages.length - 1].steps.push({ op, args: m[2] });
    }
  }
  return stages;
}

function finalCommand(stages: Stage[]): { cmd: string[]; user: string; expose: string[] } {
  const last = stages[stages.length - 1];
  const cmdStep = last.steps.filter((s) => s.op === 'CMD').pop();
  assert.ok(cmdStep, 'the last stage has a CMD');
  const cmd = JSON.parse(cmdStep.args) as string[];
  const user = last.steps.filter((s) => s.op === 'USER').pop()?.args ?? 'root';
  const expose = last.steps.filter((s) => s.op === 'EXPOSE').map((s) => s.args);
  return { cmd, user, expose };
}

/** What the docs say about the running image, checked before anything runs. */
function checkRunShape(stages: Stage[]): void {
  const { cmd, user, expose } = finalCommand(stages);
  assert.notEqual(user, 'root', 'the image runs as an unprivileged user');
  const addr = cmd[cmd.indexOf('--addr') + 1];
  assert.ok(cmd.includes('--addr') && addr !== undefined, 'CMD names its --addr');
  assert.match(addr, /^0\.0\.0\.0:\d+$/, 'the app listens on every interface of the container');
  assert.deepEqual(expose, [addr.split(':')[1]], 'EXPOSE names the port CMD listens on');
  const secretInImage = stages.some((s) => s.steps.some((x) => /KIT_CSRF_SECRET/.test(x.args)));
  assert.ok(!secretInImage, 'KIT_CSRF_SECRET comes from the environment, never from the image');
}

// ---- A project like the one docs/deploy.md assumes: the example site under src/ ----

function kitPackageName(): string {
  return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string }).name;
}

function makeProject(dir: string, kitDependency: string): string {
  const project = join(dir, 'project');
  mkdirSync(project);
  cpSync(EXAMPLE, join(project, 'src'), { recursive: true });
  cpSync(join(DEPLOY_DIR, '.dockerignore'), join(project, '.dockerignore'));
  const pkg = {
    name: 'site',
    private: true,
    type: 'module',
    devDependencies: { [kitPackageName()]: kitDependency },
  };
  writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  return project;
}

// ---- Without Docker: the instructions as a script ----

function dockerignore(context: string): Set<string> {
  const file = join(context, '.dockerignore');
  if (!existsSync(file)) return new Set();
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  for (const n of names) assert.ok(!/[*?/!]/.test(n), `.dockerignore: only plain top-level names here (${n})`);
  return new Set(names);
}

/** The directory inside a stage's file system root for an absolute container path. */
function inRoot(root: string, path: string): string {
  return join(root, ...posix.resolve('/', path).split('/').filter(Boolean));
}

interface ScriptRun {
  /** The final stage's file system root and working directory (container path). */
  root: string;
  workdir: string;
  notes: string[];
}

function runAsScript(stages: Stage[], context: string, work: string): ScriptRun {
  const roots = new Map<string, string>();
  const ignored = dockerignore(context);
  const notes: string[] = [];
  let root = '';
  let workdir = '/';
  stages.forEach((stage, i) => {
    root = join(work, `stage-${i}`);
    mkdirSync(root);
    roots.set(String(i), root);
    if (stage.name) roots.set(stage.name, root);
    workdir = '/';
    for (const step of stage.steps) {
      switch (step.op) {
        case 'WORKDIR':
          workdir = posix.resolve(workdir, step.args);
          mkdirSync(inRoot(root, workdir), { recursive: true });
          break;
        case 'COPY': {
          const words = step.args.split(/\s+/);
          const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
          assert.ok(!words[0].startsWith('--'), `COPY option not emulated: ${words[0]}`);
          const dest = words.pop()!;
          const destPath = inRoot(root, posix.resolve(workdir, dest));
          for (const src of words) {
            const fromRoot = from === undefined ? undefined : roots.get(from);
            if (from !== undefined) assert.ok(fromRoot, `COPY --from=${from}: no such stage`);
            const srcPath = fromRoot ? inRoot(fromRoot, src) : join(context, src);
            assert.ok(existsSync(srcPath), `COPY ${src}: not found`);
            if (statSync(srcPath).isDirectory()) {
              cpSync(srcPath, destPath, {
                recursive: true,
                filter: (p) => fromRoot !== undefined || !ignored.has(relative(context, p).split(sep)[0]),
              });
            } else {
              const into = dest.endsWith('/') || words.length > 1;
              const target = into ? join(destPath, basename(srcPath)) : destPath;
              mkdirSync(dirname(target), { recursive: true });
              cpSync(srcPath, target);
            }
          }
          break;
        }
        case 'RUN': {
          const words = step.args.split(/\s+/);
          assert.ok(!/["'$;&|]/.test(step.args), `RUN with shell syntax not emulated: ${step.args}`);
          if (step.args === 'npm ci') {
            notes.push('npm ci: left out (the checkout stands in for the installed kit)');
          } else if (words[0] === 'npx' && words[1] === 'kit') {
            const r = spawnSync(process.execPath, [KIT_BIN, ...words.slice(2)], {
              cwd: inRoot(root, workdir),
              encoding: 'utf8',
              env: { ...process.env, NO_COLOR: '1' },
            });
            assert.equal(r.status, 0, `${step.args} failed:\n${r.stderr}\n${r.stdout}`);
          } else assert.fail(`RUN not emulated: ${step.args}`);
          break;
        }
        case 'USER':
        case 'EXPOSE':
        case 'CMD':
          break; // Read from the final stage by finalCommand.
        default:
          assert.fail(`instruction not emulated: ${step.op}`);
      }
    }
  });
  return { root, workdir, notes };
}

/** Whether a user other than the file's owner may run `file` (every directory above it searchable). */
function othersCanRun(file: string): boolean {
  for (let p = file; ; p = dirname(p)) {
    if ((statSync(p).mode & 0o001) === 0) return false;
    if (dirname(p) === p) return true;
  }
}

function setWritable(dir: string, writable: boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) setWritable(p, writable);
    const mode = statSync(p).mode & 0o7777;
    chmodSync(p, writable ? mode | 0o200 : mode & ~0o222);
  }
  const mode = statSync(dir).mode & 0o7777;
  chmodSync(dir, writable ? mode | 0o200 : mode & ~0o222);
}

async function getPages(base: string): Promise<void> {
  for (const [path, body] of PAGES) {
    const res = await fetch(base + path);
    const text = await res.text();
    assert.equal(res.status, 200, `GET ${path}: ${text}`);
    assert.match(text, body, `GET ${path}`);
  }
}

async function scriptPath(dockerfile: string): Promise<void> {
  const stages = parseDockerfile(readFileSync(join(DEPLOY_DIR, dockerfile), 'utf8'));
  checkRunShape(stages);
  const work = tempDir('kit-deploy-');
  const project = makeProject(work, `file:${repoRoot}`);
  // `npm ci` is left out, but `COPY package.json package-lock.json` must still find its files.
  writeFileSync(join(project, 'package-lock.json'), '{}\n');
  const run = runAsScript(stages, project, work);
  const { cmd, user } = finalCommand(stages);
  const cwd = inRoot(run.root, run.workdir);
  const program = cmd[0] === 'node' ? process.execPath : join(cwd, cmd[0]);
  const args = cmd.slice(1);
  args[args.indexOf('--addr') + 1] = '127.0.0.1:0';
  // USER: an unprivileged user when the test can switch to one, else the files made read-only.
  const root = process.getuid?.() === 0;
  if (root) chmodSync(work, 0o755);
  const switchUser = root && othersCanRun(program);
  if (!switchUser) setWritable(run.root, false);
  const how = switchUser ? `as uid 65534 for USER ${user}` : `with the files read-only for USER ${user}`;
  console.log(`      deploy: ${dockerfile} run as a script (docker info failed); ${run.notes.join('; ')}; ${how}`);
  try {
    const proc = spawn(program, args, {
      cwd,
      env: { PATH: '', KIT_CSRF_SECRET: SECRET },
      ...(switchUser ? { uid: 65534, gid: 65534 } : {}),
    });
    const app = await attach(proc);
    try {
      await getPages(app.url);
      assert.doesNotMatch(app.stderr(), /KIT_CSRF_SECRET is not set/);
    } finally {
      assert.equal(await app.stop(), 0, app.stderr());
    }
  } finally {
    if (!switchUser) setWritable(run.root, true);
  }
}

// ---- With Docker: the images themselves ----

function sh(cmd: string, args: string[], cwd?: string, timeout = 15 * 60_000): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** kit as the registry would install it: a tarball of the package's files (compiled output included). */
function packKit(work: string, into: string): void {
  const pkgDir = join(work, 'pack', 'package');
  mkdirSync(pkgDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  cpSync(join(repoRoot, 'bin'), join(pkgDir, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'shared', 'client'), join(pkgDir, 'shared', 'client'), { recursive: true });
  const out = join(repoRoot, 'out');
  cpSync(out, join(pkgDir, 'out'), {
    recursive: true,
    filter: (p) => !/^(test|bench|\.tsbuildinfo)$/.test(relative(out, p).split(sep)[0]),
  });
  mkdirSync(dirname(into), { recursive: true });
  sh('tar', ['-czf', into, '-C', join(work, 'pack'), 'package']);
}

async function dockerPath(dockerfile: string): Promise<void> {
  const text = readFileSync(join(DEPLOY_DIR, dockerfile), 'utf8');
  checkRunShape(parseDockerfile(text));
  const work = tempDir('kit-deploy-docker-');
  const project = makeProject(work, 'file:vendor/kit.tgz');
  packKit(work, join(project, 'vendor', 'kit.tgz'));
  sh('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], project);
  // kit is not installed from a registry here: its tarball goes in before `npm ci`.
  const local = text.replace(/^RUN npm ci$/gm, 'COPY vendor ./vendor\nRUN npm ci');
  assert.equal(local.split('COPY vendor').length, 2, 'one npm ci to put the tarball before');
  writeFileSync(join(work, 'Dockerfile'), local);
  console.log(`      deploy: ${dockerfile} built and run with docker (kit installed from a tarball of the checkout)`);
  const tag = `kit-deploy-test-${process.pid}-${basename(work)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  sh('docker', ['build', '-q', '-f', join(work, 'Dockerfile'), '-t', tag, project]);
  let id = '';
  try {
    id = sh('docker', ['run', '-d', '-e', `KIT_CSRF_SECRET=${SECRET}`, '-p', '127.0.0.1::8080', tag]).trim();
    const port = /:(\d+)\s*$/m.exec(sh('docker', ['port', id, '8080/tcp']))?.[1];
    assert.ok(port, 'docker port names the published port');
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${base}/_kit/health`).then(
          (r) => r.ok,
          () => false,
        ),
      { what: 'the container to answer', timeout: 30_000, every: 250 },
    ).catch((e: Error) => assert.fail(`${e.message}:\n${sh('docker', ['logs', id])}`));
    await getPages(base);
    sh('docker', ['stop', '-t', '30', id]);
    assert.equal(sh('docker', ['inspect', '-f', '{{.State.ExitCode}}', id]).trim(), '0');
  } finally {
    if (id) spawnSync('docker', ['rm', '-f', id]);
    spawnSync('docker', ['rmi', '-f', tag]);
  }
}

// ---- The tests ----

/** The fenced block that follows a line linking `deploy/<file>` in docs/deploy.md. */
function docBlock(doc: string, file: string): string {
  const at = doc.indexOf(`(deploy/${file})`);
  assert.ok(at >= 0, `docs/deploy.md links deploy/${file}`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(m, `a code block follows the link to deploy/${file}`);
  return m[1];
}

describe('docs/deploy.md', function () {
  let docker = false;

  before(() => {
    docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
  });

  it('shows docs/deploy/Dockerfile, Dockerfile.bin, .dockerignore and nginx.conf as they are', () => {
    const doc = readFileSync(DOC, 'utf8');
    for (const file of ['Dockerfile', 'Dockerfile.bin', '.dockerignore', 'nginx.conf'])
      assert.equal(docBlock(doc, file), readFileSync(join(DEPLOY_DIR, file), 'utf8'), file);
  });

  it('the app image (Dockerfile) serves the example site', async function () {
    this.timeout(docker ? 20 * 60_000 : 60_000);
    await (docker ? dockerPath('Dockerfile') : scriptPath('Dockerfile'));
  });

  it('the single-executable image (Dockerfile.bin) serves the example site', async function () {
    this.timeout(docker ? 20 * 60_000 : 60_000);
    await (docker ? dockerPath('Dockerfile.bin') : scriptPath('Dockerfile.bin'));
  });
});
