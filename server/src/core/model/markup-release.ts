// Releasing the markup of a parsed file once it has been checked: what takes a workspace entry to
// the `Summary` stage (`workspace/stages.ts`, the `SUMMARIES` policy). A view is most of a page's
// tree; a one-shot command that only needs declaration-level facts afterwards (`kit check`, the
// reports) keeps ten thousand views alive for nothing, and the garbage collector copies each of
// them from the young to the old generation on the way. A released body is re-parsed from the
// file's text on first access, so a consumer that does need it (an inspect graph, say) still gets
// the right markup: the parse is deterministic, only the node objects are new.
import {
  parseKit,
  type FragmentDecl,
  type KitFile,
  type MarkupNode,
  type ViewBlock,
} from '../../../../grammar/src/index.js';

type MarkupOwner = ViewBlock | FragmentDecl;

/**
 * Replaces the `body` of every view and fragment of `file` by a getter that re-parses `text` (the
 * text `file` was parsed from) the first time any of them is read. Markup elements referenced from
 * elsewhere (the summary's component calls) stay alive through those references, and only those.
 */
export function releaseMarkup(file: KitFile, text: string): void {
  let fresh: KitFile | undefined;
  const decls = file.declarations;
  for (let i = 0; i < decls.length; i++) {
    const d = decls[i];
    if (d.kind !== 'view' && d.kind !== 'fragment') continue;
    Object.defineProperty(d, 'body', {
      configurable: true,
      enumerable: true,
      get(this: MarkupOwner): MarkupNode[] {
        fresh ??= parseKit(text, file.path, { incremental: false });
        const body = (fresh.declarations[i] as MarkupOwner).body;
        Object.defineProperty(this, 'body', { value: body, writable: true, enumerable: true, configurable: true });
        return body;
      },
    });
  }
}
