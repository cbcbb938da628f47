#!/usr/bin/env node
// Writes the release artifacts, the three files a user is given to install kit without a registry:
//   kit-lang-kit-<version>.tgz     the `@kit-lang/kit` package
//   kit-lang-create-<version>.tgz  the `@kit-lang/create` package (create/: `npm create @kit-lang`)
//   kit-vscode-<version>.vsix      the VS Code extension, its language server bundled
// kit is packed from a staged copy of the files `npm pack` would take, with a package.json that
// keeps only what an installed package needs (no development scripts, no devDependencies), so the
// checkout's package.json is never modified, even when packing fails. The three carry one version.
// Usage: node scripts/pack.mjs [--out <dir>]   (default: release/; `npm run pack` builds first)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Lifecycle scripts an installed package runs; every other script is the repository's own. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/**
 * The package's own `#...` imports as an installed package resolves them: each to its compiled target
 * (`default`; the `kit-source` condition names the sources, which only kit's bundler reads), and only
 * those whose files ship (`#test/*` does not).
 */
function shippedImports(imports, files) {
  const shipped = files.filter((f) => !f.startsWith('!')).map((f) => f.replace(/\*.*$/, ''));
  const kept = Object.entries(imports).flatMap(([key, target]) => {
    const to = typeof target === 'string' ? target : target.default;
    const dir = to.replace(/^\.\//, '').replace(/\*.*$/, '');
    return shipped.some((s) => dir.startsWith(s)) ? [[key, to]] : [];
  });
  return Object.fromEntries(kept);
}

/** The package.json the kit package ships: the repository's, without what only the repository uses. */
export function installedManifest(pkg) {
  const { scripts = {}, devDependencies: _dev, overrides: _overrides, ...kept } = pkg;
  if (kept.imports) kept.imports = shippedImports(kept.imports, kept.files ?? []);
  const install = Object.fromEntries(Object.entries(scripts).filter(([name]) => INSTALL_SCRIPTS.includes(name)));
  return Object.keys(install).length ? { ...kept, scripts: install } : kept;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function npm(args, cwd) {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${r.stderr}`);
  return r.stdout;
}

/** `npm pack` of `dir` into `out`; answers the tarball's path. */
function npmPack(dir, out) {
  const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', out], dir));
  return join(out, packed.filename);
}

/** Packs the kit package from a staged copy of its files; answers the tarball's path. */
function packKit(out, stageRoot) {
  const [listing] = JSON.parse(npm(['pack', '--dry-run', '--ignore-scripts', '--json'], root));
  const stage = join(stageRoot, 'kit');
  for (const { path } of listing.files) {
    if (path === 'package.json') continue;
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    copyFileSync(join(root, path), join(stage, path));
  }
  const manifest = installedManifest(readJson(join(root, 'package.json')));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return npmPack(stage, out);
}

/** Writes the three artifacts into `out` (created; earlier artifacts of any version there are replaced). */
export function packRelease(out = join(root, 'release')) {
  const { version } = readJson(join(root, 'package.json'));
  const create = readJson(join(root, 'create', 'package.json'));
  const client = readJson(join(root, 'client', 'package.json'));
  const mismatched = [
    create.version !== version && `create/package.json has version ${create.version}`,
    create.dependencies?.['@kit-lang/kit'] !== `^${version}` &&
      `create/package.json depends on @kit-lang/kit ${create.dependencies?.['@kit-lang/kit']}, not ^${version}`,
    client.version !== version && `client/package.json has version ${client.version}`,
  ].filter(Boolean);
  if (mismatched.length) throw new Error(`the release carries kit's version ${version}, but ${mismatched.join('; ')}`);

  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out))
    if (/^(kit-lang-kit-|kit-lang-create-|kit-vscode-).*\.(tgz|vsix)$/.test(name)) rmSync(join(out, name));
  const stageRoot = mkdtempSync(join(tmpdir(), 'kit-pack-stage-'));
  try {
    const kit = packKit(out, stageRoot);
    const createTgz = npmPack(join(root, 'create'), out);
    const vsix = join(out, `${client.name}-${version}.vsix`);
    const r = spawnSync(process.execPath, [join(root, 'client', 'scripts', 'package.mjs'), '--out', vsix], {
      cwd: root,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`client/scripts/package.mjs failed:\n${r.stdout}${r.stderr}`);
    return { version, kit, create: createTgz, vsix };
  } finally {
    rmSync(stageRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const i = process.argv.indexOf('--out');
  try {
    const made = packRelease(i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : undefined);
    for (const file of [made.kit, made.create, made.vsix]) console.log(file);
  } catch (e) {
    console.error(`pack: ${e.message}`);
    process.exit(1);
  }
}
