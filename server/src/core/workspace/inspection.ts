// What a workspace counts about its own work, for tests, benchmarks and `kit/stats`: nothing here
// changes what it answers. Kept apart so that the workspace's API is what its callers use.
import type { WorkspaceBindings } from './bindings.js';

export class WorkspaceInspection {
  private evaluated = 0;

  constructor(private readonly bindings: WorkspaceBindings) {}

  /** Buckets evaluated so far (an edit that only moves positions evaluates none). */
  get evaluations(): number {
    return this.evaluated;
  }

  /** Counts one bucket evaluation. */
  evaluation(): void {
    this.evaluated++;
  }

  /** Directories whose binding a binding worker made and the workspace took (`prebound.ts`). */
  get prebound(): number {
    return this.bindings.preboundTaken;
  }

  /**
   * The binder's work: time in the TypeScript compiler API, Programs built, modules parsed, and
   * modules whose syntax tree it holds now.
   */
  get binding(): { compilerMs: number; programs: number; parsed: number; held: number } {
    return this.bindings.stats();
  }
}
