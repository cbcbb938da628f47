// What the parts of `kit build` with its cache share (`incremental.ts`, `edited-pages.ts`,
// `page-plan.ts`): the build's cache, sources and keys, and the modules a build that compiles
// loads only then.
import type { PageRecord } from '#core/build/cache-records.js';
import type { Workspace } from '#core/workspace/workspace.js';
import type { CliIO } from '../io.js';
import type { BuildIndex } from './cache-index.js';
import type { BuildCache } from './cache-store.js';
import type { LastOutput } from './output-state.js';
import type { SourceLedger } from './source-ledger.js';

/**
 * The modules a build that compiles needs, loaded only then: a build that changed nothing checks
 * hashes and the output in place, and initialises neither the workspace nor the compiler.
 */
export async function compiler() {
  const [workspace, build, cached, shape, render] = await Promise.all([
    import('#core/workspace/workspace.js'),
    import('#core/build/index.js'),
    import('#core/build/cached-site.js'),
    import('#core/model/cross-shape.js'),
    import('#shared/render/index.js'),
  ]);
  return { ...workspace, ...build, ...cached, ...shape, renderTemplate: render.renderTemplate };
}
export type Compiler = Awaited<ReturnType<typeof compiler>>;

/** `sha256-<hex>` → `<hex>`. */
export function hex(h: string): string {
  return h.startsWith('sha256-') ? h.slice(7) : h;
}

/** One build's view of its cache (an `IncrementalBuild`). */
export interface BuildContext {
  readonly io: CliIO;
  readonly cache: BuildCache;
  /** The key of everything every page depends on (kit, its runtime, the options, the directory). */
  readonly global: string;
  /** What this build knows of its sources and the other files its pages read. */
  readonly sources: SourceLedger;
  /** A page's key: the global key, the config's and parts' hashes, its source's and dependencies' hashes. */
  keyOf(r: Pick<PageRecord, 'source' | 'deps'>, config: string, parts: string, ws?: Workspace): string;
  /** The output directory as the last build left it, checked once. */
  lastOutput(outAbs: string, x: BuildIndex | undefined): LastOutput;
  /** Says, in one line, that the cache could not be written (the build itself is done). */
  warnUnwritten(e: unknown): void;
}
