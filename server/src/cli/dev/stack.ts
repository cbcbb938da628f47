// Stacks as `kit dev` shows them (the overlay of a failed request, the terminal): the frames of the
// user's own code first, source-mapped to the lines of their `.ts` files (handler modules are
// compiled with inline source maps), then one line counting the frames folded away: kit's own
// (its bundle is minified: `kit.cjs:1:53686` says nothing to a user), Node's and packages'.
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `    at name (/path/file.ts:12:7)` or `    at /path/file.ts:12:7`: the frame's file. */
const FRAME = /^\s+at (?:.*\()?((?:file:\/\/)?[^()\s]+?):\d+:\d+\)?\s*$/;

function frameFile(line: string): string | undefined {
  const m = FRAME.exec(line);
  if (m === null) return undefined;
  if (!m[1].startsWith('file://')) return m[1];
  try {
    return fileURLToPath(m[1]);
  } catch {
    return undefined;
  }
}

/** Whether a frame's file is the user's: below the project, outside any `node_modules`. */
function isUserFile(file: string | undefined, projectDir: string): boolean {
  if (file === undefined) return false;
  const under = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  return file.startsWith(under) && !file.includes(`${sep}node_modules${sep}`);
}

/**
 * `text` with each stack in it reordered: the user's frames (files below `projectDir`) in their
 * order, then `    … N frames of kit, Node.js and packages`. Other lines stay as they are.
 */
export function foldStack(text: string, projectDir: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!/^\s+at /.test(lines[i])) {
      out.push(lines[i++]);
      continue;
    }
    const user: string[] = [];
    let folded = 0;
    for (; i < lines.length && /^\s+at /.test(lines[i]); i++) {
      if (isUserFile(frameFile(lines[i]), projectDir)) user.push(lines[i]);
      else folded++;
    }
    out.push(...user);
    if (folded > 0) out.push(`    … ${folded} frame${folded === 1 ? '' : 's'} of kit, Node.js and packages`);
  }
  return out.join('\n');
}
