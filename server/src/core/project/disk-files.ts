// The file probe `missing_asset` asks (`CheckOptions.files`), answered from the disk.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FileProbe } from '../model/options.js';

/** Workspace paths are relative to `root`. */
export function diskFiles(root: string): FileProbe {
  return {
    isFile(path) {
      try {
        return statSync(resolve(root, path)).isFile();
      } catch {
        return false;
      }
    },
  };
}
