// Giving memory back once a folder is indexed. Indexing leaves a large young generation and holes in
// the old one; V8's memory reducer compacts both, but only after some ten to twenty seconds of
// quiet. The inspector protocol's `HeapProfiler.collectGarbage` asks for that collection now (V8's
// low-memory notification: full collections that compact the old generation and shrink the young
// one, which `global.gc` does not), in this thread, without a debugger attached.
import { setFlagsFromString } from 'node:v8';

/** Runs a memory-reducing collection; resolves false when it could not run (a Node without inspector). */
export async function reduceMemory(): Promise<boolean> {
  let inspector: typeof import('node:inspector');
  try {
    inspector = await import('node:inspector');
  } catch {
    return false;
  }
  return new Promise((resolve) => {
    try {
      const session = new inspector.Session();
      session.connect();
      session.post('HeapProfiler.collectGarbage', (err) => {
        // Disconnecting inside the session's own callback never returns: after it.
        setImmediate(() => {
          session.disconnect();
          resolve(!err);
        });
      });
    } catch {
      resolve(false);
    }
  });
}

/**
 * The young generation left at its smallest grows back by doubling, each step once as much as it
 * holds has survived: hundreds of small edits meet a collection every few keystrokes meanwhile (the
 * language server benchmark's (a) part showed it in its p95). From here on it grows to its full
 * size in one step. V8 reads this setting each time it grows the young generation.
 */
export function growYoungGenerationAtOnce(): void {
  setFlagsFromString('--semi-space-growth-factor=16');
}
