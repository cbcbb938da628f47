// The command line's one-shot commands (`ONE_SHOT_COMMANDS`, commands/names.ts) run their work on
// the main thread from start to exit; the process's other threads are V8's (optimising compiles,
// garbage collection helpers) and Node's. On a machine of two cores those threads often outnumber
// the free core: `kit check` of 5,000 files spent 250-280 ms of its 1.4 s runnable but waiting
// for a core, most of it behind its own compiler threads. They are lowered to the least priority
// before the command's code loads, so the main thread runs whenever it can; they still have every
// core the main thread leaves idle (the compiler's CPU time fell by a fifth, the main thread's wait
// to 20-40 ms, the command's wall by 8%). Threads started later (the read-ahead worker, libuv's
// pool writing a build's files) are the main thread's children and keep its priority.
//
// Linux only: there a thread is a task of its own under `/proc/self/task`, and `setpriority` on its
// ID changes that thread alone (elsewhere the call would change the whole process, or fail).
// Long-running commands (`kit dev`, `kit lsp`, `kit preview`) keep the defaults: they answer for
// minutes, and their compiled code matters more than their first second.
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Lowers every thread of this process but the main one to the least priority; answers how many it
 * lowered. Nothing on platforms other than Linux, and nothing for a thread it may not change (a
 * failure only costs time).
 */
export function yieldHelperThreads(): number {
  if (process.platform !== 'linux') return 0;
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const task of tasks) {
    const id = Number(task);
    // The main thread's ID is the process's.
    if (!Number.isInteger(id) || id === process.pid) continue;
    try {
      setPriority(id, constants.priority.PRIORITY_LOW);
      lowered++;
    } catch {
      /* gone, or not ours to change */
    }
  }
  return lowered;
}
