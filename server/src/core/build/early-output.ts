// Page files written while the sources still load (`kit build`): each page compiled as its file
// was read (`EarlyBodies`) is rendered then and its files sent to the writing thread, into the
// build's fresh directory, made beside the output before the load. Writing a file (creating its
// directory, then the file) costs about as much as reading, checking and compiling its page, and
// the writing thread had nothing to do until the load ended: now the two run side by side.
//
// Nothing here decides what the output is. The writer (`writeSiteAsync`) still goes over every
// page in the site's order; for a page whose body is the one rendered here (the same template, so
// the same bytes), it takes the file's hash and size instead of rendering and writing it again.
// Any other file is written as before (over a file written here, if one is there), and a file
// written here that the site does not have is removed before the build directory moves into place.
// A build that fails removes the directory, as it always did.
import { renderTemplate, type Template } from '#shared/render/index.js';
import { sha256Hex } from './assets.js';
import type { PrerenderPath } from './compiled.js';
import { removeTreeAsync } from './replace-dir.js';
import type { EarlyPage } from './site-compiler.js';
import { Utf8Scratch } from './utf8-scratch.js';
import { WriteThread } from './write-thread.js';

/** A file written early: the path it was rendered for, its `sha256-<hex>` hash and its size. */
export interface EarlyFile {
  pre: PrerenderPath;
  hash: string;
  size: number;
}

export interface EarlyOutputOptions {
  /** Whether the writing thread takes each file's entry (`WriteOptions.entries`). */
  entries: boolean;
  /** Told of each file's bytes as it is rendered (the build cache keeps them); valid during the call. */
  keep?: (hashHex: string, bytes: Uint8Array) => void;
}

/** Listens to pages compiled as their files are read (`EarlyBodies`). */
export interface EarlyPageListener {
  page(p: EarlyPage): void;
}

export class EarlyOutput implements EarlyPageListener {
  readonly thread: WriteThread;
  /** The files written for each early page's template, by output path. */
  private readonly byTemplate = new WeakMap<Template, Map<string, EarlyFile>>();
  /** Every file written here. */
  private readonly rels = new Set<string>();
  private readonly utf8 = new Utf8Scratch();
  private state: 'open' | 'taken' | 'gone' = 'open';

  /** `tmp`: the build's fresh directory beside `out` (`makeTemp`), `suffix` its name's. */
  constructor(
    readonly out: string,
    readonly tmp: string,
    readonly suffix: string,
    private readonly options: EarlyOutputOptions,
  ) {
    this.thread = new WriteThread(tmp, options.entries);
  }

  /** Renders an early page's files and sends them to the writing thread. */
  page(p: EarlyPage): void {
    if (this.state !== 'open' || p.head.render === 'ssr') return;
    const ir = p.body.ir;
    let files: Map<string, EarlyFile> | undefined;
    for (const pre of p.head.prerender) {
      // The first page to declare a file writes it; which one that is, the writer says.
      if (this.rels.has(pre.file)) continue;
      let html: string;
      try {
        html = renderTemplate(ir, pre.params, pre.params);
      } catch {
        // The writer renders it again and meets the same failure in its own order.
        return;
      }
      const bytes = this.utf8.encode(html);
      const hex = sha256Hex(bytes);
      this.options.keep?.(hex, bytes);
      this.thread.post(pre.file, html);
      this.rels.add(pre.file);
      (files ??= new Map()).set(pre.file, { pre, hash: `sha256-${hex}`, size: bytes.byteLength });
    }
    if (files) this.byTemplate.set(ir, files);
  }

  /**
   * The writer takes the build directory and its thread (once, for the output `out`). Undefined
   * when it was taken or discarded already, or is for another output.
   */
  take(out: string, entries: boolean): EarlyOutput | undefined {
    if (this.state !== 'open' || out !== this.out || entries !== this.options.entries) return undefined;
    this.state = 'taken';
    return this;
  }

  /** The files written for a body of `ir`, by output path (the writer's, once taken). */
  filesOf(ir: Template): ReadonlyMap<string, EarlyFile> | undefined {
    return this.state === 'taken' ? this.byTemplate.get(ir) : undefined;
  }

  /** The files written here that the writer did not write or take (`covered`). */
  stray(covered: { has(rel: string): boolean }): string[] {
    return [...this.rels].filter((rel) => !covered.has(rel));
  }

  /** Stops the thread and removes the build directory, unless the writer took them; true if it did. */
  async discard(): Promise<boolean> {
    if (this.state !== 'open') return false;
    this.state = 'gone';
    await this.thread.finish().catch(() => undefined);
    await removeTreeAsync(this.tmp);
    return true;
  }
}
