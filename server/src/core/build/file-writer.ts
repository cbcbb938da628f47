// Writing the files of an output tree one at a time: each directory created once, the first time a
// file goes into it, then the file. The static writer does this on the main thread
// (`writeStaticSite`) or on a thread of its own (`write-thread.ts`); both write the same bytes the
// same way. Errors are the system's, for the caller to word.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parent directory of an output-relative path, or '' at the root. */
export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash > 0 ? rel.slice(0, slash) : '';
}

export class FileWriter {
  private readonly dirs = new Set<string>();
  constructor(private readonly root: string) {}

  /** Writes `content` to `rel` under the root; throws the system's error. */
  write(rel: string, content: string | Uint8Array): void {
    const dir = parentOf(rel);
    if (dir !== '' && !this.dirs.has(dir)) {
      mkdirSync(join(this.root, dir), { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(join(this.root, rel), content);
  }
}
