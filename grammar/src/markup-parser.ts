// View and fragment bodies: a Chevrotain parser reads text, comments, `{...}`, opening and closing
// tags; its actions assemble the element tree with an explicit stack, so a missing or mismatched
// closing tag costs one diagnostic and never the rest of the view.
import type { IOrAlt, IToken } from 'chevrotain';
import { LazyAnalysedParser } from './lazy-setup.js';
import type {
  Attribute,
  Element,
  Expr,
  Interpolation,
  MarkupNode,
  Range,
  SyntaxDiagnostic,
  TextOrInterpolation,
} from './ast.js';
import { diag } from './diagnostics.js';
import { parseExprText } from './expr-parser.js';
import { VOID_ELEMENTS } from './keywords.js';
import {
  AttrEq,
  AttrString,
  AttrText,
  BlockSyntax,
  ClassShort,
  CloseTag,
  CloseTagOpen,
  IdShort,
  Interp,
  LtText,
  markupLexer,
  markupTokens,
  MComment,
  MCommentOpen,
  Name,
  SelfClose,
  SingleQuoted,
  TagClose,
  TagJunk,
  TagOpen,
  TagStart,
  Text,
} from './markup-lexer.js';
import { resolveEscapes } from './string-literal.js';
import { exact, type PosMaker } from './text-lines.js';

type AttrPiece =
  | { kind: 'named'; name: IToken; eq?: IToken; value?: IToken }
  | { kind: 'class' | 'id' | 'junk' | 'braces'; tok: IToken };

const ELEMENT_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * How deep elements may nest. Every later walk over a tree (summary, validation, rendering, the
 * editor's features) may recurse per level, so the parser never builds a deeper tree: the element
 * that crosses the limit gets `markup_too_deep` and is kept out of the tree with all its content.
 * Browsers' HTML parsers cap nesting too (at 512); real views stay far below either.
 */
export const MAX_MARKUP_DEPTH = 256;
const COMPONENT_NAME = /^(?:[a-z][A-Za-z0-9_]*\.)?[A-Z][A-Za-z0-9_]*$/;

/** What kit says instead of foreign template blocks. */
export function blockSyntaxMessage(image: string): string {
  const m = /^\{([#\/:@])\s*([A-Za-z]*)/.exec(image);
  const sigil = m ? m[1] : '';
  const word = m ? m[2] : '';
  const shown = '`' + image.replace(/\s+/g, ' ').slice(0, 40) + '`';
  if (sigil === '@' && word === 'html')
    return (
      `${shown} is not supported: kit escapes every interpolation, and raw HTML (\`g:unsafe-html\`) is not ` +
      `supported either`
    );
  if (sigil === '@' && word === 'const')
    return `${shown} is not supported: compute the value in the server load (\`server {}\`) or pass it as a prop`;
  if (sigil === '@' && word === 'debug') return `${shown} is not supported`;
  if (word === 'each' || word === 'for')
    return `${shown} is not supported: repeat an element with \`g:for={item in items}\` and \`g:lane="server"\``;
  if (word === 'snippet' || word === 'render')
    return `${shown} is not supported: use a component or a named \`<slot>\``;
  if (word === 'await' || word === 'then' || word === 'catch') return `${shown} is not supported by kit`;
  return (
    `${shown} is not supported: show an element conditionally with \`g:if={condition}\` and ` +
    `\`g:lane="server"\`, repeat it with \`g:for={item in items}\``
  );
}

export class MarkupParser extends LazyAnalysedParser {
  private doc = '';
  private base = 0;
  private pm!: PosMaker;
  private diags: SyntaxDiagnostic[] = [];
  private root: MarkupNode[] = [];
  private stack: Element[] = [];
  /** Nesting depth of the element the parsed body belongs to (element-level re-parsing). */
  private depthBase = 0;
  /** Stack index of the element that crossed `MAX_MARKUP_DEPTH`, while it is open; else -1. */
  private cut = -1;

  constructor() {
    super(markupTokens, { recoveryEnabled: true, maxLookahead: 2, skipValidations: true });
  }

  // One rule for the whole body: tags and attributes are inlined because a sub-rule call costs more
  // than the few tokens most of them consume. The alternatives are built once (not on every OR call)
  // and keep their per-tag state in fields; actions run outside the recording phase only.
  private tagPieces: AttrPiece[] = [];
  private closeExtra: IToken[] = [];
  private attrEq: IToken | undefined;
  private attrValue: IToken | undefined;

  private readonly valueAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME(AttrString) },
    { ALT: () => this.CONSUME(SingleQuoted) },
    { ALT: () => this.CONSUME2(Interp) },
  ];
  private readonly attrValueChoice = (): IToken => this.OR3(this.valueAlts);
  private readonly attrValueOpt = (): void => {
    this.attrEq = this.CONSUME(AttrEq);
    this.attrValue = this.OPTION3(this.attrValueChoice);
  };
  private readonly attrAlts: IOrAlt<void>[] = [
    {
      ALT: () => {
        const n = this.CONSUME2(Name);
        this.attrEq = undefined;
        this.attrValue = undefined;
        this.OPTION2(this.attrValueOpt);
        if (!this.RECORDING_PHASE)
          this.tagPieces.push({ kind: 'named', name: n, eq: this.attrEq, value: this.attrValue });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(ClassShort);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'class', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(IdShort);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'id', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME3(Interp);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'braces', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(TagJunk);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'junk', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME2(AttrEq);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'junk', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME2(AttrString);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'junk', tok: t });
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME2(SingleQuoted);
        if (!this.RECORDING_PHASE) this.tagPieces.push({ kind: 'junk', tok: t });
      },
    },
  ];
  private readonly attribute = (): void => this.OR2(this.attrAlts);
  private readonly tagEndAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME(SelfClose) },
    { ALT: () => this.CONSUME(TagClose) },
  ];
  private readonly closeEndAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME2(TagClose) },
    { ALT: () => this.CONSUME2(SelfClose) },
  ];
  private readonly closeExtraAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME4(Name) },
    { ALT: () => this.CONSUME2(ClassShort) },
    { ALT: () => this.CONSUME2(IdShort) },
    { ALT: () => this.CONSUME4(Interp) },
    { ALT: () => this.CONSUME2(TagJunk) },
    { ALT: () => this.CONSUME3(AttrEq) },
    { ALT: () => this.CONSUME3(AttrString) },
    { ALT: () => this.CONSUME3(SingleQuoted) },
  ];
  // Every DSL call needs its own index within the rule, so the parts of a dynamic tag have their own.
  private readonly dynamicAlts: IOrAlt<IToken>[] = [
    Name,
    ClassShort,
    IdShort,
    Interp,
    TagJunk,
    AttrEq,
    AttrString,
    SingleQuoted,
  ].map((tok) => ({
    ALT: () => this.consume(6, tok),
  }));
  private readonly dynamicItem = (): void => {
    const t = this.or(7, this.dynamicAlts);
    if (!this.RECORDING_PHASE) this.closeExtra.push(t);
  };
  private readonly dynamicEndAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.consume(7, TagClose) },
    { ALT: () => this.consume(7, SelfClose) },
  ];
  private readonly dynamicEnd = (): IToken => this.or(8, this.dynamicEndAlts);
  private readonly closeExtraItem = (): void => {
    const t = this.OR5(this.closeExtraAlts);
    if (!this.RECORDING_PHASE) this.closeExtra.push(t);
  };
  private readonly closeName = (): IToken => this.CONSUME3(Name);
  private readonly tagEnd = (): IToken => this.OR4(this.tagEndAlts);
  private readonly closeEnd = (): IToken => this.OR6(this.closeEndAlts);

  private readonly contentAlts: IOrAlt<void>[] = [
    {
      ALT: () => {
        const t = this.CONSUME(Text);
        if (!this.RECORDING_PHASE) this.onText(t);
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(LtText);
        if (!this.RECORDING_PHASE) this.onText(t);
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(Interp);
        if (!this.RECORDING_PHASE) this.children().push(this.interpolation(t));
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(MComment);
        if (!this.RECORDING_PHASE) this.onComment(t, true);
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(MCommentOpen);
        if (!this.RECORDING_PHASE) this.onComment(t, false);
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(BlockSyntax);
        if (!this.RECORDING_PHASE) this.onBlockSyntax(t);
      },
    },
    {
      // <name attr... > or />
      ALT: () => {
        const start = this.CONSUME(TagStart);
        this.tagPieces = [];
        this.MANY2(this.attribute);
        const end = this.OPTION4(this.tagEnd);
        if (!this.RECORDING_PHASE) this.onOpenTag(start, this.tagPieces, end);
      },
    },
    {
      // <{expr} ...>: a dynamic tag name, reported; its parts are skipped
      ALT: () => {
        const lt = this.CONSUME(TagOpen);
        this.closeExtra = [];
        this.MANY3(this.dynamicItem);
        const end = this.OPTION(this.dynamicEnd);
        if (!this.RECORDING_PHASE) this.onDynamicTag(lt, this.closeExtra, end);
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(CloseTag);
        if (!this.RECORDING_PHASE) this.onCloseTagToken(t);
      },
    },
    {
      // </name>
      ALT: () => {
        const lt = this.CONSUME(CloseTagOpen);
        const name = this.OPTION5(this.closeName);
        this.closeExtra = [];
        this.MANY4(this.closeExtraItem);
        const end = this.OPTION6(this.closeEnd);
        if (!this.RECORDING_PHASE) this.onCloseTag(lt, name, this.closeExtra, end);
      },
    },
  ];
  private readonly contentItem = (): void => this.OR(this.contentAlts);

  body = this.RULE('body', () => {
    this.MANY(this.contentItem);
  });

  // ------------------------------------------------------------------------------------------
  // Tree building

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
    if (this.errors.length > 0) {
      // The grammar accepts every token sequence the lexer produces; this is a safety net.
      const t = this.errors[0].token;
      const at = t.startOffset >= 0 ? start + t.startOffset : end;
      diags.push(
        diag('view_parse_error', `unexpected \`${t.image}\` in markup`, pm.range(at, at + (t.image?.length ?? 0))),
      );
    }
    for (let i = this.stack.length - 1; i >= 0; i--) this.unclosed(this.stack[i]);
    const root = exact(this.root);
    this.root = [];
    this.stack = [];
    this.diags = [];
    return root;
  }

  private tokRange(t: IToken): Range {
    const s = this.base + t.startOffset;
    return this.pm.range(s, s + t.image.length);
  }
  private endOf(t: IToken): number {
    return this.base + t.startOffset + t.image.length;
  }
  private children(): MarkupNode[] {
    const n = this.stack.length;
    return n === 0 ? this.root : this.stack[n - 1].children;
  }

  private onText(t: IToken): void {
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

  private onComment(t: IToken, closed: boolean): void {
    const value = closed ? t.image.slice(4, -3) : t.image.slice(4);
    if (!closed) {
      const s = this.base + t.startOffset;
      this.diags.push(diag('view_parse_error', 'unclosed comment: add `-->`', this.pm.range(s, s + 4)));
    }
    this.children().push({ type: 'comment', value, range: this.tokRange(t) });
  }

  private onBlockSyntax(t: IToken): void {
    this.diags.push(diag('unsupported_markup_syntax', blockSyntaxMessage(t.image), this.tokRange(t)));
  }

  /** `{expr}` in content. */
  private interpolation(t: IToken): Interpolation {
    const s = this.base + t.startOffset;
    const expr = this.interpExpr(t.image, (i) => s + i);
    return { type: 'interp', expr, range: this.pm.range(s, s + t.image.length) };
  }

  /**
   * The expression of one `{...}` token image; `map(i)` is the document offset of `image[i]` (plain
   * for views, through the resolved value's offsets inside quoted attributes).
   */
  private interpExpr(image: string, map: (i: number) => number): Expr {
    const closed = image.length >= 2 && image.charCodeAt(image.length - 1) === 125;
    const innerEnd = closed ? image.length - 1 : image.length;
    const inner = image.slice(1, innerEnd);
    const innerStart = map(1);
    const innerStop = map(innerEnd);
    const text = this.doc.slice(innerStart, innerStop);
    const invalid = (): Expr => ({ type: 'invalid', text, range: this.pm.range(innerStart, innerStop) });
    if (!closed) {
      const at = map(0);
      this.diags.push(
        diag(
          'invalid_expression',
          'unterminated `{`: close the expression with `}` on the same line',
          this.pm.range(at, at + 1),
        ),
      );
      return invalid();
    }
    const res = parseExprText(inner, (i) => map(i + 1), this.pm, this.doc);
    if (res.expr !== undefined) return res.expr;
    const err = res.error!;
    const range =
      err.start !== undefined ? this.pm.range(err.start, err.end!) : this.pm.range(map(0), map(image.length));
    const shown = text.trim().length > 40 ? text.trim().slice(0, 40) + '…' : text.trim();
    this.diags.push(diag('invalid_expression', `cannot read the expression \`{${shown}}\`: ${err.message}`, range));
    return invalid();
  }

  private onDynamicTag(lt: IToken, parts: IToken[], end: IToken | undefined): void {
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

  private onOpenTag(tagStart: IToken, pieces: AttrPiece[], end: IToken | undefined): void {
    const start = this.base + tagStart.startOffset;
    const name = tagStart.image.slice(1);
    const nameStart = start + 1;
    const nameEnd = nameStart + name.length;
    const dot = name.lastIndexOf('.');
    const localName = dot >= 0 ? name.slice(dot + 1) : name;
    const first = localName.charCodeAt(0);
    const isComponent = first >= 65 && first <= 90;
    if (!ELEMENT_NAME.test(name) && !COMPONENT_NAME.test(name)) {
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
  private onCloseTagToken(t: IToken): void {
    const start = this.base + t.startOffset;
    const img = t.image;
    let e = 2;
    while (e < img.length && img.charCodeAt(e) !== 32 && img.charCodeAt(e) !== 9 && img.charCodeAt(e) !== 62) e++;
    this.closeElement(img.slice(2, e), start, start + 2, start + e, start + img.length);
  }

  private onCloseTag(lt: IToken, nameTok: IToken | undefined, extra: IToken[], end: IToken | undefined): void {
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
    this.stack.length = i;
    if (i <= this.cut) this.cut = -1;
  }

  private attributes(pieces: AttrPiece[], tag: string): Attribute[] {
    const attrs: Attribute[] = [];
    let junkReported = false;
    for (const p of pieces) {
      if (p.kind === 'named') {
        attrs.push(this.namedAttribute(p.name, p.eq, p.value));
      } else if (p.kind === 'class' || p.kind === 'id') {
        const s = this.base + p.tok.startOffset;
        const e = s + p.tok.image.length;
        attrs.push({
          name: p.kind,
          nameRange: this.pm.range(s, e),
          range: this.pm.range(s, e),
          form: p.kind === 'class' ? 'class-shorthand' : 'id-shorthand',
          value: {
            type: 'string',
            parts: [{ type: 'text', value: p.tok.image.slice(1), range: this.pm.range(s + 1, e) }],
            range: this.pm.range(s, e),
            innerRange: this.pm.range(s + 1, e),
          },
        });
      } else if (p.kind === 'braces') {
        const spread = /^\{\s*\.\.\./.test(p.tok.image);
        this.diags.push(
          spread
            ? diag(
                'unsupported_markup_syntax',
                'spread attributes `{...props}` are not supported: pass each attribute by name',
                this.tokRange(p.tok),
              )
            : diag(
                'view_parse_error',
                `unexpected \`{...}\` in \`<${tag}>\`: attribute values are written \`name={expr}\``,
                this.tokRange(p.tok),
              ),
        );
      } else if (!junkReported) {
        junkReported = true;
        const shown = p.tok.image.length > 20 ? p.tok.image.slice(0, 20) + '…' : p.tok.image;
        const message =
          p.tok.tokenType === SingleQuoted || p.tok.tokenType === AttrString || p.tok.tokenType === AttrEq
            ? `unexpected \`${shown}\` in \`<${tag}>\`: an attribute value needs a name before \`=\``
            : `unexpected \`${shown}\` in \`<${tag}>\``;
        this.diags.push(diag('view_parse_error', message, this.tokRange(p.tok)));
      }
    }
    return exact(attrs);
  }

  private namedAttribute(name: IToken, eq: IToken | undefined, v: IToken | undefined): Attribute {
    const nameStart = this.base + name.startOffset;
    const last = v ?? eq ?? name;
    const attr: Attribute = {
      name: name.image,
      nameRange: this.tokRange(name),
      range: this.pm.range(nameStart, this.endOf(last)),
      form: name.image.startsWith('let:') ? 'let' : 'normal',
    };
    if (v === undefined) {
      if (eq !== undefined) {
        this.diags.push(
          diag(
            'view_parse_error',
            `attribute \`${name.image}\` needs a value after \`=\`: \`"text"\` or \`{expr}\``,
            this.tokRange(eq),
          ),
        );
      }
      return attr;
    }
    if (v.tokenType === Interp) {
      const s = this.base + v.startOffset;
      attr.value = { type: 'expr', expr: this.interpExpr(v.image, (i) => s + i), range: this.tokRange(v) };
      return attr;
    }
    if (v.tokenType === SingleQuoted) {
      this.diags.push(
        diag(
          'view_parse_error',
          `attribute values are written in double quotes: ${name.image}="..."`,
          this.tokRange(v),
        ),
      );
      return attr;
    }
    attr.value = this.stringValue(v);
    return attr;
  }

  /** A quoted attribute value: escapes resolved first, then `{...}` interpolations read from the result. */
  private stringValue(t: IToken): Extract<Attribute['value'], { type: 'string' }> {
    const img = t.image;
    const s = this.base + t.startOffset;
    const e = s + img.length;
    let value: string;
    let map: (i: number) => number;
    let terminated: boolean;
    if (img.indexOf('\\') < 0) {
      // No escapes (the common case): value characters sit one-to-one after the opening quote.
      terminated = img.length >= 2 && img.charCodeAt(img.length - 1) === 34;
      value = terminated ? img.slice(1, -1) : img.slice(1);
      map = (i) => s + 1 + i;
    } else {
      const res = resolveEscapes(img, (i) => s + i);
      const vo = res.valueOffsets;
      terminated = res.terminated;
      value = res.value;
      map = (i) => vo[i];
    }
    if (!terminated) {
      this.diags.push(
        diag(
          'unterminated_string',
          'unterminated string: add the closing `"` before the end of the line',
          this.pm.range(s, e),
        ),
      );
    }
    let parts: TextOrInterpolation[];
    if (value.indexOf('{') < 0) {
      parts = value.length === 0 ? [] : [{ type: 'text', value, range: this.pm.range(map(0), map(value.length)) }];
    } else {
      parts = this.valueParts(value, map);
    }
    return {
      type: 'string',
      parts,
      range: this.pm.range(s, e),
      innerRange: this.pm.range(s + 1, terminated ? e - 1 : e),
    };
  }

  private valueParts(value: string, map: (i: number) => number): TextOrInterpolation[] {
    const parts: TextOrInterpolation[] = [];
    for (const t of markupLexer.tokenize(value, 'attr').tokens) {
      const a = t.startOffset;
      const b = a + t.image.length;
      if (t.tokenType === AttrText) {
        parts.push({ type: 'text', value: t.image, range: this.pm.range(map(a), map(b)) });
      } else if (t.tokenType === BlockSyntax) {
        this.diags.push(diag('unsupported_markup_syntax', blockSyntaxMessage(t.image), this.pm.range(map(a), map(b))));
      } else if (t.tokenType === Interp) {
        const expr = this.interpExpr(t.image, (i) => map(a + i));
        parts.push({ type: 'interp', expr, range: this.pm.range(map(a), map(b)) });
      }
    }
    return parts;
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
