// View and fragment bodies: MarkupGrammar reads text, comments, `{...}`, opening and closing tags
// from the markup lexer's tokens; its actions assemble the element tree with an explicit stack, so
// a missing or mismatched closing tag costs one diagnostic and never the rest of the view.
// The grammar is MarkupGrammar (markup-grammar.ts); attributes and expressions are read by
// MarkupAttributes (markup-attributes.ts); this class, on both, builds the element tree.
import type { IToken } from 'chevrotain';
import type { Element, Interpolation, MarkupNode, SyntaxDiagnostic } from '../ast.js';
import { diag } from '../common/diagnostics.js';
import { VOID_ELEMENTS } from '#shared/language/facts.js';
import { blockSyntaxMessage } from './markup-block-syntax.js';
import type { AttrPiece } from './markup-grammar.js';
import { MarkupAttributes } from './markup-attributes.js';
import { Interp, SelfClose } from './markup-lexer.js';
import { markupLexer } from './markup-scanner.js';
import { exact, type PosMaker } from '../common/text-lines.js';

/** `[a-z][a-z0-9-]*`: an element's name (a loop: tested once per tag, the commonest case). */
function isElementName(name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  let c = name.charCodeAt(0);
  if (c < 97 || c > 122) return false;
  for (let i = 1; i < n; i++) {
    c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return false;
  }
  return true;
}

/**
 * How deep elements may nest. Every later walk over a tree (summary, validation, rendering, the
 * editor's features) may recurse per level, so the parser never builds a deeper tree: the element
 * that crosses the limit gets `markup_too_deep` and is kept out of the tree with all its content.
 * Browsers' HTML parsers cap nesting too (at 512); real views stay far below either.
 */
export const MAX_MARKUP_DEPTH = 256;
const COMPONENT_NAME = /^(?:[a-z][A-Za-z0-9_]*\.)?[A-Z][A-Za-z0-9_]*$/;

export class MarkupParser extends MarkupAttributes {
  private root: MarkupNode[] = [];
  private stack: Element[] = [];
  /** Nesting depth of the element the parsed body belongs to (element-level re-parsing). */
  private depthBase = 0;
  /** Stack index of the element that crossed `MAX_MARKUP_DEPTH`, while it is open; else -1. */
  private cut = -1;

  /** Parses the body text between document offsets `start` and `end`. */
  parseBody(
    doc: string,
    start: number,
    end: number,
    pm: PosMaker,
    diags: SyntaxDiagnostic[],
    depthBase = 0,
  ): MarkupNode[] {
    this.doc = doc;
    this.depthBase = depthBase;
    this.cut = -1;
    this.base = start;
    this.pm = pm;
    this.diags = diags;
    this.root = [];
    this.stack = [];
    const lexed = markupLexer.tokenize(doc.slice(start, end));
    for (const e of lexed.errors) {
      diags.push(
        diag(
          'view_parse_error',
          'unexpected characters in markup',
          pm.range(start + e.offset, start + e.offset + e.length),
        ),
      );
    }
    this.input = lexed.tokens;
    this.body();
    const t = this.unexpected;
    if (t !== undefined) {
      const at = start + t.startOffset;
      diags.push(diag('view_parse_error', `unexpected \`${t.image}\` in markup`, pm.range(at, at + t.image.length)));
    }
    for (let i = this.stack.length - 1; i >= 0; i--) this.unclosed(this.stack[i]);
    const root = exact(this.root);
    this.root = [];
    this.stack = [];
    this.diags = [];
    return root;
  }
  protected children(): MarkupNode[] {
    const n = this.stack.length;
    return n === 0 ? this.root : this.stack[n - 1].children;
  }

  protected onText(t: IToken): void {
    const kids = this.children();
    const last = kids[kids.length - 1];
    const start = this.base + t.startOffset;
    if (last !== undefined && last.type === 'text' && last.range.end.offset === start) {
      last.value += t.image;
      last.range = this.pm.range(last.range.start.offset, start + t.image.length);
      return;
    }
    kids.push({ type: 'text', value: t.image, range: this.tokRange(t) });
  }

  protected onComment(t: IToken, closed: boolean): void {
    const value = closed ? t.image.slice(4, -3) : t.image.slice(4);
    if (!closed) {
      const s = this.base + t.startOffset;
      this.diags.push(diag('view_parse_error', 'unclosed comment: add `-->`', this.pm.range(s, s + 4)));
    }
    this.children().push({ type: 'comment', value, range: this.tokRange(t) });
  }

  protected onBlockSyntax(t: IToken): void {
    this.diags.push(diag('unsupported_markup_syntax', blockSyntaxMessage(t.image), this.tokRange(t)));
  }

  /** `{expr}` in content. */
  protected interpolation(t: IToken): Interpolation {
    const s = this.base + t.startOffset;
    const expr = this.interpExpr(t.image, (i) => s + i);
    return { type: 'interp', expr, range: this.pm.range(s, s + t.image.length) };
  }

  protected onDynamicTag(lt: IToken, parts: IToken[], end: IToken | undefined): void {
    const start = this.base + lt.startOffset;
    const first = parts[0];
    const stop =
      first !== undefined && first.tokenType === Interp
        ? this.endOf(first)
        : end !== undefined
          ? this.endOf(end)
          : start + 1;
    this.diags.push(
      diag(
        'view_parse_error',
        'dynamic tag names `<{...}>` are not supported: write the tag name literally',
        this.pm.range(start, stop),
      ),
    );
  }

  protected onOpenTag(tagStart: IToken, pieces: AttrPiece[], end: IToken | undefined): void {
    const start = this.base + tagStart.startOffset;
    const name = tagStart.image.slice(1);
    const nameStart = start + 1;
    const nameEnd = nameStart + name.length;
    const dot = name.lastIndexOf('.');
    const localName = dot >= 0 ? name.slice(dot + 1) : name;
    const first = localName.charCodeAt(0);
    const isComponent = first >= 65 && first <= 90;
    if (!isElementName(name) && !COMPONENT_NAME.test(name)) {
      this.diags.push(
        diag(
          'view_parse_error',
          `invalid tag name \`<${name}>\`: elements are lowercase (\`[a-z][a-z0-9-]*\`), components are ` +
            `capitalised (\`Name\` or \`alias.Name\`)`,
          this.pm.range(nameStart, nameEnd),
        ),
      );
    }
    const attrs = pieces.length === 0 ? [] : this.attributes(pieces, name);
    const selfClosing = end !== undefined && end.tokenType === SelfClose;
    let openEnd: number;
    if (end !== undefined) openEnd = this.endOf(end);
    else {
      openEnd = attrs.length > 0 ? attrs[attrs.length - 1].range.end.offset : nameEnd;
      this.diags.push(
        diag('view_parse_error', `\`<${name}\` is missing its closing \`>\``, this.pm.range(nameStart, nameEnd)),
      );
    }
    const el: Element = {
      type: 'element',
      name,
      nameRange: this.pm.range(nameStart, nameEnd),
      isComponent,
      localName,
      attrs,
      children: [],
      selfClosing,
      range: this.pm.range(start, openEnd),
      openRange: this.pm.range(start, openEnd),
    };
    if (dot >= 0) el.alias = name.slice(0, dot);
    const isVoid = !isComponent && VOID_ELEMENTS.has(name);
    const opens = !selfClosing && end !== undefined && !isVoid;
    if (this.cut < 0 && this.depthBase + this.stack.length >= MAX_MARKUP_DEPTH) {
      // Kept off the tree; while it is open, what it contains lands in its own detached children.
      this.diags.push(
        diag(
          'markup_too_deep',
          `\`<${name}>\` nests deeper than ${MAX_MARKUP_DEPTH} elements: its content is not read; flatten the markup`,
          this.pm.range(nameStart, nameEnd),
        ),
      );
      if (opens) {
        this.cut = this.stack.length;
        this.stack.push(el);
      }
      return;
    }
    this.children().push(el);
    if (opens) this.stack.push(el);
  }

  private unclosed(el: Element): void {
    el.children = exact(el.children);
    const kids = el.children;
    const lastEnd = kids.length > 0 ? kids[kids.length - 1].range.end.offset : el.openRange.end.offset;
    el.range = this.pm.range(el.range.start.offset, Math.max(lastEnd, el.openRange.end.offset));
    this.diags.push(
      diag(
        'view_parse_error',
        `\`<${el.name}>\` is not closed: add \`</${el.name}>\` or write \`<${el.name} />\``,
        this.pm.range(el.nameRange.start.offset, el.nameRange.end.offset),
      ),
    );
  }

  /** `</name>` lexed as one token. */
  protected onCloseTagToken(t: IToken): void {
    const start = this.base + t.startOffset;
    const img = t.image;
    let e = 2;
    while (e < img.length && img.charCodeAt(e) !== 32 && img.charCodeAt(e) !== 9 && img.charCodeAt(e) !== 62) e++;
    this.closeElement(img.slice(2, e), start, start + 2, start + e, start + img.length);
  }

  protected onCloseTag(lt: IToken, nameTok: IToken | undefined, extra: IToken[], end: IToken | undefined): void {
    const start = this.base + lt.startOffset;
    const lastTok = end ?? extra[extra.length - 1] ?? nameTok;
    const stop = lastTok !== undefined ? this.endOf(lastTok) : start + 2;
    if (nameTok === undefined) {
      this.diags.push(
        diag('view_parse_error', '`</` must be followed by a tag name and `>`', this.pm.range(start, stop)),
      );
      return;
    }
    const name = nameTok.image;
    if (extra.length > 0) {
      this.diags.push(
        diag(
          'view_parse_error',
          `closing tag \`</${name}>\` takes no attributes`,
          this.pm.range(this.base + extra[0].startOffset, this.endOf(extra[extra.length - 1])),
        ),
      );
    }
    if (end === undefined) {
      this.diags.push(diag('view_parse_error', `\`</${name}\` is missing its closing \`>\``, this.tokRange(nameTok)));
    }
    this.closeElement(name, start, this.base + nameTok.startOffset, this.endOf(nameTok), stop);
  }

  /** Closes the innermost open element called `name` (reporting any left open inside it). */
  private closeElement(name: string, start: number, nameStart: number, nameEnd: number, stop: number): void {
    let i = this.stack.length - 1;
    while (i >= 0 && this.stack[i].name !== name) i--;
    if (i < 0) {
      const message = VOID_ELEMENTS.has(name)
        ? `\`<${name}>\` is a void element and has no closing tag: remove \`</${name}>\``
        : `\`</${name}>\` has no matching \`<${name}>\``;
      this.diags.push(diag('view_parse_error', message, this.pm.range(start, stop)));
      return;
    }
    for (let j = this.stack.length - 1; j > i; j--) this.unclosed(this.stack[j]);
    const el = this.stack[i];
    el.range = this.pm.range(el.range.start.offset, stop);
    el.closeNameRange = this.pm.range(nameStart, nameEnd);
    el.children = exact(el.children);
    // Popped, not truncated: setting an array's length is a call into the engine's runtime.
    while (this.stack.length > i) this.stack.pop();
    if (i <= this.cut) this.cut = -1;
  }
}

export const markupParser = new MarkupParser();

/** `depthBase`: how deep the parsed body sits (the number of elements around it). */
export function parseMarkup(
  doc: string,
  start: number,
  end: number,
  pm: PosMaker,
  diags: SyntaxDiagnostic[],
  depthBase = 0,
): MarkupNode[] {
  return markupParser.parseBody(doc, start, end, pm, diags, depthBase);
}
