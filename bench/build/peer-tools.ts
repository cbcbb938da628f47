// The four builders the build comparison runs, and their set-up: kit (this repository's
// `bin/kit.js`), Hugo (Debian's `hugo`, installed with apt-get when missing and allowed), Eleventy
// and Astro (installed once from the npm registry into `.bench-work/<tool>` from `bench/<tool>/`).
// A tool that cannot be set up is skipped with the reason; nothing here runs in CI.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GNU_TIME } from '../fixtures/usage.js';
import { type Tool, writePeerSite } from './peer-sites.js';

/** How to run one build of a generated site, and where its pages land. */
export interface BuildCommand {
  cmd: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The site's directory. */
  site: string;
  /** The output directory (removed before each build). */
  out: string;
  /**
   * What the tool keeps between builds to skip work (removed before each timed build, so every
   * build compared is a clean one: kit's `.kit` cache, Hugo's `resources`, Eleventy's `.cache`,
   * Astro's `.astro` and `node_modules/.astro`).
   */
  caches: string[];
}

export interface PeerTool {
  tool: Tool;
  /** Writes the site of `pages` pages; answers how to build it. */
  site(pages: number, name?: string): BuildCommand;
}

function onPath(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * A Debian package's command, installed with apt-get when it is missing and this process may
 * install (root, apt-get present); the reason when it cannot be had.
 */
export function debianCommand(cmd: string, pkg: string): { path?: string; reason?: string } {
  const found = onPath(cmd);
  if (found) return { path: found };
  if (process.getuid?.() !== 0 || !onPath('apt-get'))
    return { reason: `${cmd} is not installed and apt-get cannot install it here (not root, or no apt-get)` };
  console.log(`${cmd}: installing Debian's ${pkg} with apt-get ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-q', pkg], { encoding: 'utf8', env, timeout: 600_000 });
  let r = install();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-q'], { encoding: 'utf8', env, timeout: 600_000 });
    r = install();
  }
  const path = onPath(cmd);
  if (path) return { path };
  return { reason: `apt-get install ${pkg} failed: ${(r.stderr || '').trim().split('\n').pop()}` };
}

/** GNU time (CPU and peak RSS of a process tree), installed like a tool; false when it cannot be. */
export function ensureGnuTime(): boolean {
  if (existsSync(GNU_TIME)) return true;
  const r = debianCommand('time', 'time');
  if (r.reason) console.log(`GNU time: ${r.reason}; wall times only`);
  return existsSync(GNU_TIME);
}

/** An npm package installed once into `.bench-work/<name>` from `bench/<name>/package.json`. */
function npmInstall(root: string, name: string, entry: string): { dir: string; bin?: string; reason?: string } {
  const dir = join(root, '.bench-work', name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(root, 'bench', name, 'package.json'), join(dir, 'package.json'));
  const bin = join(dir, 'node_modules', entry);
  if (existsSync(bin)) return { dir, bin };
  console.log(`${name}: installing into .bench-work/${name} (once) ...`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status === 0 && existsSync(bin)) return { dir, bin };
  const why = (r.stderr || r.error?.message || 'unknown error').trim().split('\n').pop();
  return { dir, reason: `could not install it from the npm registry (${why})` };
}

/** Sets up each tool asked for; a tool that cannot be had is reported and left out. */
export function setUpTools(root: string, work: string, cli: string, wanted: readonly Tool[]): PeerTool[] {
  const tools: PeerTool[] = [];
  for (const tool of wanted) {
    const made = setUp(root, work, cli, tool);
    if (typeof made === 'string') console.log(`${tool}: skipped: ${made}`);
    else tools.push(made);
  }
  return tools;
}

function setUp(root: string, work: string, cli: string, tool: Tool): PeerTool | string {
  const dirOf = (pages: number, name?: string) => join(work, `${tool}-${name ?? pages}`);
  switch (tool) {
    case 'kit':
      return {
        tool,
        site(pages, name) {
          const dir = dirOf(pages, name);
          writePeerSite(tool, dir, pages);
          const out = `${dir}-out`;
          // A project of its own (kit's cache lives at the project root, the nearest package.json),
          // so no two sites and no tiny warm-up build share one cache.
          writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
          const args = [cli, 'build', '--out', out, '.'];
          return { cmd: process.execPath, args, cwd: dir, site: dir, out, caches: [join(dir, '.kit')] };
        },
      };
    case 'hugo': {
      const hugo = debianCommand('hugo', 'hugo');
      if (!hugo.path) return hugo.reason!;
      return {
        tool,
        site(pages, name) {
          const dir = dirOf(pages, name);
          writePeerSite(tool, dir, pages);
          const out = `${dir}-out`;
          return {
            cmd: hugo.path!,
            args: ['--quiet', '--source', dir, '--destination', out],
            cwd: dir,
            site: dir,
            out,
            caches: [join(dir, 'resources'), join(dir, '.hugo_build.lock')],
          };
        },
      };
    }
    case 'eleventy': {
      const r = npmInstall(root, 'eleventy', join('@11ty', 'eleventy', 'cmd.cjs'));
      if (!r.bin) return r.reason!;
      return {
        tool,
        site(pages, name) {
          const dir = dirOf(pages, name);
          writePeerSite(tool, dir, pages);
          const args = [r.bin!, '--quiet', '--config=eleventy.config.mjs'];
          const caches = [join(dir, '.cache')];
          return { cmd: process.execPath, args, cwd: dir, site: dir, out: join(dir, '_site'), caches };
        },
      };
    }
    case 'astro': {
      const r = npmInstall(root, 'astro', join('astro', 'astro.js'));
      if (!r.bin) return r.reason!;
      copyFileSync(join(root, 'bench', 'astro', 'astro.config.mjs'), join(r.dir, 'astro.config.mjs'));
      return {
        tool,
        site(pages, name) {
          // A project of its own per size, its node_modules those of the installation.
          const dir = dirOf(pages, name);
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir, { recursive: true });
          for (const f of ['package.json', 'astro.config.mjs']) copyFileSync(join(r.dir, f), join(dir, f));
          symlinkSync(join(r.dir, 'node_modules'), join(dir, 'node_modules'));
          writePeerSite(tool, dir, pages);
          const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
          const args = [r.bin!, 'build', '--silent'];
          const caches = [join(dir, '.astro'), join(r.dir, 'node_modules', '.astro')];
          return { cmd: process.execPath, args, cwd: dir, env, site: dir, out: join(dir, 'dist'), caches };
        },
      };
    }
  }
}
