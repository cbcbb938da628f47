// The binding worker (`bind-worker.ts`) of `kit check`, `kit build` and the reports loads TypeScript,
// parses the handler modules and builds the type checker while the main thread is still reading the
// `.kit` files: work meant for the time the main thread leaves on the other core. So the worker runs
// it at the lowest scheduling priority, and asks for its own back once it is sent something to bind
// (the main thread then waits on it). Measured on two cores with other work running, a worker at
// ordinary priority started beside the language server's index delayed its first diagnostics by
// 1.5–2 s; at the lowest priority by about 15%.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** This thread's id where a thread has one that `setpriority` takes (Linux: `/proc/thread-self`). */
function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lowers the calling thread's priority to the lowest, and answers a function that raises it to what
 * it was, where the system lets a thread do that (an unprivileged one may not raise its own priority
 * on Linux: it then stays low). Elsewhere nothing changes.
 */
export function yieldToMainThread(): () => void {
  const tid = threadId();
  if (tid === undefined) return () => undefined;
  let before: number;
  try {
    before = getPriority(tid);
    setPriority(tid, 19);
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      setPriority(tid, before);
    } catch {
      /* not allowed: the thread stays at the lowest priority */
    }
  };
}
