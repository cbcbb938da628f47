// Giving memory back once a folder is indexed. Indexing leaves a large young generation and holes in
// the old one; V8's memory reducer would compact both, but only after some ten to twenty seconds of
// quiet. The inspector protocol's `HeapProfiler.collectGarbage` asks for that collection now (V8's
// low-memory notification: full collections that compact and shrink the young generation, which
// `global.gc` does not), in this thread, without a debugger attached.
import { Session } from 'node:inspector';

/** Runs a memory-reducing collection; resolves false when this Node has no inspector (nothing ran). */
export function reduceMemory(): Promise<boolean> {
  return new Promise((resolve) => {
    let session: Session;
    try {
      session = new Session();
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
