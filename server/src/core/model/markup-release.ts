// Releasing the markup of a parsed file once it has been checked: what takes a workspace entry to
// the `Summary` stage (`workspace/stages.ts`, the `SUMMARIES` policy). A view is most of a page's
// tree; a one-shot command that only needs declaration-level facts afterwards (`kit check`, the
// reports) keeps ten thousand views alive for nothing, and the garbage collector copies each of
// them from the young to the old generation on the way. A released body is re-parsed from the
// file's text on first access, so a consumer that does need it (an inspect graph, say) still gets
// the right markup: the parse is deterministic, only the node objects are new.
import { parseKit, type FragmentDecl, type KitFile, type MarkupNode, type ViewBlock } from '#grammar/index.js';
import { exactSize } from './exact-size.js';
import { sharedString } from './summary.js';

type MarkupOwner = ViewBlock | FragmentDecl;

/** The file a released body is parsed afresh from, shared by its views and fragments. */
interface ReleasedFile {
  text: string;
  path: string;
  /** The fresh parse, once a released body was read (every body of the file then comes from it). */
  fresh?: KitFile;
}

/** Where to parse a released body from: its file, and its declaration's index there. */
interface Released {
  file: ReleasedFile;
  index: number;
}

const released = new WeakMap<MarkupOwner, Released>();

function parseReleased(file: ReleasedFile): KitFile {
  return parseKit(file.text, file.path, { incremental: false });
}

/**
 * The getter of every released `body`: one function for all of them, where each owner had two
 * closures of its own (its getter, and its parse for `markupOnce`).
 */
function releasedBody(this: MarkupOwner): MarkupNode[] {
  const r = released.get(this)!;
  r.file.fresh ??= parseReleased(r.file);
  const body = (r.file.fresh.declarations[r.index] as MarkupOwner).body;
  Object.defineProperty(this, 'body', { value: body, writable: true, enumerable: true, configurable: true });
  return body;
}

/**
 * The markup of a view or fragment for a reader that needs it once (the static build compiles each
 * page once): a released body is parsed afresh and not kept. Keeping it would hang a young tree
 * from an old declaration, and the garbage collector would then copy the tree to the old generation
 * even after it was let go of (old objects' references keep young ones alive until the next full
 * collection).
 */
export function markupOnce(owner: MarkupOwner): MarkupNode[] {
  const isReleased = Object.getOwnPropertyDescriptor(owner, 'body')?.get !== undefined;
  const r = isReleased ? released.get(owner) : undefined;
  return r ? (parseReleased(r.file).declarations[r.index] as MarkupOwner).body : owner.body;
}

/**
 * Lets go of the values of the attributes of the component calls in `body`, markup about to be
 * released: those elements outlive it in the file's summary (`ComponentCall.element`), and each
 * value is an object, a list, a part and three ranges that nothing reads there. What is read of a
 * call once its file's markup is gone: its names and ranges, its attributes' names, forms and name
 * ranges (props, `let:`), its `g:` directives whole, and its content whole (slot uses read the
 * values of every element in it, component calls among them), so only a call's own plain
 * attributes change, and calls inside another call's content keep theirs. Such an attribute becomes
 * a new object of its name (shared with equal ones), ranges and form, as a boolean attribute is:
 * the parser's adds its value after the rest, which takes a second block of memory.
 */
export function dropCallValues(body: readonly MarkupNode[]): void {
  const stack: MarkupNode[] = [...body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type !== 'element') continue;
    if (!n.isComponent) {
      for (const c of n.children) stack.push(c);
      continue;
    }
    const attrs = n.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if (a.form !== 'normal' || a.name.startsWith('g:')) continue;
      attrs[i] = { name: sharedString(a.name), nameRange: a.nameRange, range: a.range, form: a.form };
    }
  }
}

/**
 * Replaces the `body` of every view and fragment of `file` by a getter that re-parses `text` (the
 * text `file` was parsed from) the first time any of them is read. Markup elements referenced from
 * elsewhere (the summary's component calls) stay alive through those references, and only those.
 */
export function releaseMarkup(file: KitFile, text: string): void {
  // Kept with the file's declarations.
  file.lineStarts = exactSize(file.lineStarts);
  let shared: ReleasedFile | undefined;
  const decls = file.declarations;
  for (let i = 0; i < decls.length; i++) {
    const d = decls[i];
    if (d.kind !== 'view' && d.kind !== 'fragment') continue;
    // A body released before is a getter: reading it would parse it again.
    if (Object.getOwnPropertyDescriptor(d, 'body')?.get === undefined) dropCallValues(d.body);
    shared ??= { text, path: file.path };
    released.set(d, { file: shared, index: i });
    // The parser adds `body` last: taking it away gives the object back its shape from before, and
    // the getter then leads to one shape all released bodies share. A getter defined over the data
    // property instead turned each declaration into a dictionary, slower to read and larger.
    delete (d as { body?: MarkupNode[] }).body;
    Object.defineProperty(d, 'body', { configurable: true, enumerable: true, get: releasedBody });
  }
}
