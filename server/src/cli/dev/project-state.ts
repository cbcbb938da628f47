// What kit keeps in the project's `.kit/` folder, which ignores itself (`.kit/.gitignore` is
// `*`), so nothing here reaches version control whatever the project's own ignore file says:
//   .kit/dev-csrf-secret  the development CSRF secret, made once: tokens of a form left open survive
//                         a restart of `kit dev`. Production never reads it (it uses KIT_CSRF_SECRET).
//   .kit/dev.json         where the running dev server listens and its trace collector is, for the
//                         language server; removed when `kit dev` stops.
//   .kit/cache/           `kit build`'s cache (`cli/build/cache-store.ts`); safe to delete.
// Every file here is written owner-only through a temporary file renamed into place, and a
// symbolic link at a file's path is replaced, never written through (`private-file.ts`).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir, readPrivateFile, writePrivateFile } from './private-file.js';

export const STATE_DIR = '.kit';
export const SECRET_FILE = 'dev-csrf-secret';
export const ANNOUNCE_FILE = 'dev.json';

/** `<root>/.kit`, made with its `.gitignore` if missing; every file in it goes through `private-file.ts`. */
export function stateDir(root: string): string {
  const dir = privateDir(join(root, STATE_DIR));
  const ignore = join(dir, '.gitignore');
  if (readPrivateFile(ignore) === undefined) writePrivateFile(ignore, '*\n');
  return dir;
}

/** The project's development CSRF secret, created on first use (64 hex characters, owner-only). */
export function devCsrfSecret(root: string): string {
  const file = join(stateDir(root), SECRET_FILE);
  const kept = readPrivateFile(file)?.trim();
  if (kept !== undefined && /^[0-9a-f]{64}$/.test(kept)) return kept;
  const secret = randomBytes(32).toString('hex');
  writePrivateFile(file, secret + '\n');
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
  writePrivateFile(file, JSON.stringify(body, null, 2) + '\n');
  return () => {
    try {
      const now = JSON.parse(readPrivateFile(file) ?? '{}') as Partial<Announcement>;
      if (now.pid === process.pid) rmSync(file, { force: true });
    } catch {
      /* gone already, or not ours */
    }
  };
}
