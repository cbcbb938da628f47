// When the workspace computes and drops the stages of its `.kit` entries (`KitStage`: declarations,
// markup, checked, summary), as a policy, and which files wait for a stage the policy left for
// later. Every optimisation of a load is a policy here (`kit dev` parses page views when asked for,
// `kit check` drops markup once a file is checked); the workspace moves an entry from stage to
// stage in one place (`Workspace.bring`), whatever the policy.
import { KitStage, type KitEntry } from '../model/entries.js';

/**
 * When each stage of a file the workspace reads itself is computed, or dropped. Files given with a
 * tree (an editor's documents) are checked at once and kept whole whatever the policy says.
 */
export interface StagePolicy {
  /**
   * Trees of the workspace's own reads: `incremental` keeps what re-parsing an edit needs;
   * `one-shot` saves a tenth of their memory, for files no editor changes.
   */
  trees: 'incremental' | 'one-shot';
  /**
   * When a page's view markup is parsed: as the file is read, or (`demand`) for the files read
   * during the start, when asked for (`completeMarkupOf`), when the file's rules run, or before a
   * flush evaluates buckets. The grammar's `parseKitDeclarations` parses the rest.
   */
  markup: 'read' | 'demand';
  /**
   * When a file's own rules run: as soon as its markup is there, or (`demand`) for the files read
   * during the start, when its diagnostics are asked for or `runDeferredLocalRules` runs them.
   */
  checks: 'markup' | 'demand';
  /** What becomes of a checked file's markup: kept, or dropped (the entry's stage is `Summary`). */
  checked: 'keep' | 'drop';
}

/** Everything at once, incremental trees, nothing dropped: editors' workspaces and tests. */
export const EDITING: StagePolicy = { trees: 'incremental', markup: 'read', checks: 'markup', checked: 'keep' };
/** A load that renders every view afterwards: `kit build`. */
export const ONE_SHOT: StagePolicy = { ...EDITING, trees: 'one-shot' };
/**
 * A load that needs declaration-level facts once validated: `kit check`, the reports, the language
 * server's files read from disk.
 */
export const SUMMARIES: StagePolicy = { ...ONE_SHOT, checked: 'drop' };
/** `kit dev`'s start: routes from the declarations, a page's markup parsed when it is rendered. */
export const DEV_START: StagePolicy = { ...ONE_SHOT, markup: 'demand', checks: 'demand' };

/**
 * What the caller of a load does with each file the workspace reads itself as it reaches a stage
 * (`LoadOptions.hooks`): `kit build` compiles a page's body while its tree is young, then lets the
 * workspace drop the tree, rather than keeping every tree until all are read.
 */
export interface StageHooks {
  /**
   * A file is checked (its own rules ran). Answers true when the caller is done with its markup:
   * the workspace then drops it (the entry is at `Summary`, as the `SUMMARIES` policy leaves it).
   */
  checked(entry: KitEntry): boolean;
}

/**
 * The files that wait for a stage, in the order they came, and whether files still do. A stage the
 * policy leaves for later is left so for the files read during the start: until a demand has once
 * brought every waiting file to it. Files read from then on reach it as they come.
 */
export class StageWaits {
  /** Files at `Declarations`: they wait for their markup. */
  private readonly markup = new Set<string>();
  /** Files below `Checked`: they wait for their own rules. */
  private readonly checks = new Set<string>();
  private markupLater: boolean;
  private checksLater: boolean;

  constructor(readonly policy: StagePolicy) {
    this.markupLater = policy.markup === 'demand';
    this.checksLater = policy.checks === 'demand';
  }

  /** The stage a checked file the workspace read itself is at. */
  get last(): KitStage {
    return this.policy.checked === 'drop' ? KitStage.Summary : KitStage.Checked;
  }

  /** The stage a file the workspace reads itself reaches as it is read; `page`: a page's views may wait. */
  onRead(page: boolean): KitStage {
    return page && this.markupLater ? KitStage.Declarations : this.withMarkup();
  }

  /** The stage a file reaches once its markup is parsed. */
  withMarkup(): KitStage {
    return this.checksLater ? KitStage.Markup : this.last;
  }

  /** Records the stage of the entry of `path` (undefined: the file left the workspace). */
  note(path: string, stage: KitStage | undefined): void {
    if (stage === KitStage.Declarations) this.markup.add(path);
    else if (this.markup.size) this.markup.delete(path);
    if (stage !== undefined && stage < KitStage.Checked) this.checks.add(path);
    else if (this.checks.size) this.checks.delete(path);
  }

  /** How many files wait for `stage` (`Markup` or `Checked`). */
  count(stage: KitStage): number {
    return this.waiting(stage).size;
  }

  /** Whether `path` waits for `stage`. */
  has(path: string, stage: KitStage): boolean {
    return this.waiting(stage).has(path);
  }

  /** Up to `limit` of the files that wait for `stage`, the first that came first. */
  first(stage: KitStage, limit: number): string[] {
    const out: string[] = [];
    for (const path of this.waiting(stage)) {
      if (out.length >= limit) break;
      out.push(path);
    }
    return out;
  }

  /**
   * A demand brought a file from stage `from` to `to`: a stage it waited for that no file waits for
   * any more is computed as files come from now on.
   */
  brought(from: KitStage, to: KitStage): void {
    if (from < KitStage.Markup && to >= KitStage.Markup && this.markup.size === 0) this.markupLater = false;
    if (from < KitStage.Checked && to >= KitStage.Checked && this.checks.size === 0) this.checksLater = false;
  }

  /** Every file is checked now (the check options changed), and files are checked as they come. */
  endChecks(): void {
    this.checksLater = false;
  }

  private waiting(stage: KitStage): Set<string> {
    return stage <= KitStage.Markup ? this.markup : this.checks;
  }
}
