// What `kit dev` keeps in the project's `.kit/` folder, which ignores itself (`.kit/.gitignore` is
// `*`), so nothing here reaches version control whatever the project's own ignore file says:
//   .kit/dev-csrf-secret  the development CSRF secret, made once: tokens of a form left open survive
//                         a restart of `kit dev`. Production never reads it (it uses KIT_CSRF_SECRET).
//   .kit/dev.json         where the running dev server listens and its trace collector is, for the
//                         language server; removed when `kit dev` stops.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STATE_DIR = '.kit';
export const SECRET_FILE = 'dev-csrf-secret';
export const ANNOUNCE_FILE = 'dev.json';

function stateDir(root: string): string {
  const dir = join(root, STATE_DIR);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, '.gitignore'), '*\n', { flag: 'wx' });
  } catch {
    /* already there */
  }
  return dir;
}

/** The project's development CSRF secret, created on first use (64 hex characters, owner-only). */
export function devCsrfSecret(root: string): string {
  const file = join(stateDir(root), SECRET_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(kept)) return kept;
  } catch {
    /* not made yet */
  }
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export interface Announcement {
  version: 1;
  pid: number;
  url: string;
  traces?: string;
}

/** Writes `.kit/dev.json`; the returned function removes it (if it is still ours). */
export function announce(root: string, a: Omit<Announcement, 'version' | 'pid'>): () => void {
  const file = join(stateDir(root), ANNOUNCE_FILE);
  const body: Announcement = { version: 1, pid: process.pid, ...a };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
  return () => {
    try {
      const now = JSON.parse(readFileSync(file, 'utf8')) as Announcement;
      if (now.pid === process.pid) rmSync(file, { force: true });
    } catch {
      /* gone already */
    }
  };
}
