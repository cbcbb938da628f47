// The grammar of view and fragment bodies: which token sequences make up a body (text, comments,
// `{...}`, opening, dynamic and closing tags) and which tree-building action each one triggers.
// The actions are abstract here: the tree is built by MarkupParser (markup-parser.ts), on
// MarkupAttributes (markup-attributes.ts), both subclasses of this class.
//
// A body is a flat sequence of items, each told apart by its first token, and the lexer's modes
// (markup-lexer.ts) already decide which tokens can follow a `<name` or a `</`: every item is LL(1)
// and every optional part is taken whenever its first token comes (an `=` after an attribute name
// is that attribute's, a value after `=` is its value). Chevrotain's recorded-grammar parser read
// this with a rule invocation, an alternative lookup and a lookahead function per token, which was
// a third of parsing a view; this loop over the Chevrotain lexer's tokens reads the same grammar
// and calls the same actions, in the same order. Declarations and expressions, which do need
// lookahead and recovery, stay Chevrotain parsers (decl-parser.ts, expr-grammar.ts).
import type { IToken, TokenType } from 'chevrotain';
import type { Interpolation, MarkupNode } from '../ast.js';
import {
  AttrEq,
  AttrString,
  BlockSyntax,
  ClassShort,
  CloseTag,
  CloseTagOpen,
  IdShort,
  Interp,
  LtText,
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

/** What an opening tag holds after its name, in order, as the grammar reads it. */
export type AttrPiece =
  | { kind: 'named'; name: IToken; eq?: IToken; value?: IToken }
  | { kind: 'class' | 'id' | 'junk' | 'braces'; tok: IToken };

/** Tokens that may stand inside a tag (a dynamic tag's parts, a closing tag's extras): all but its ends. */
function isTagPart(t: TokenType): boolean {
  return (
    t === Name ||
    t === ClassShort ||
    t === IdShort ||
    t === Interp ||
    t === TagJunk ||
    t === AttrEq ||
    t === AttrString ||
    t === SingleQuoted
  );
}

function isTagEnd(t: TokenType): boolean {
  return t === TagClose || t === SelfClose;
}

// The tests of `optional` as functions made once, not an arrow function made per attribute read.
function isAttrEq(t: TokenType): boolean {
  return t === AttrEq;
}

function isAttrValue(t: TokenType): boolean {
  return t === AttrString || t === SingleQuoted || t === Interp;
}

function isName(t: TokenType): boolean {
  return t === Name;
}

export abstract class MarkupGrammar {
  /** The body's tokens, as the markup lexer gave them. */
  protected input: IToken[] = [];
  /** Where the reader is in `input`. */
  private at = 0;
  /**
   * The first token no item can start with, where reading stopped: none, since the lexer's modes
   * put only content tokens between items; kept as a safety net that reports instead of looping.
   */
  protected unexpected: IToken | undefined;

  /** Reads `input` from the start, calling the actions item by item. */
  protected body(): void {
    const toks = this.input;
    this.at = 0;
    this.unexpected = undefined;
    while (this.at < toks.length) {
      const t = toks[this.at++];
      const type = t.tokenType;
      if (type === Text || type === LtText) this.onText(t);
      else if (type === TagStart) this.openTag(t);
      else if (type === CloseTag) this.onCloseTagToken(t);
      else if (type === Interp) this.children().push(this.interpolation(t));
      else if (type === MComment) this.onComment(t, true);
      else if (type === MCommentOpen) this.onComment(t, false);
      else if (type === BlockSyntax) this.onBlockSyntax(t);
      else if (type === CloseTagOpen) this.closeTag(t);
      else if (type === TagOpen) this.onDynamicTag(t, this.tagParts(), this.optional(isTagEnd));
      else {
        this.unexpected = t;
        return;
      }
    }
  }

  /** The next token when `accepts` its type (it is then consumed). */
  private optional(accepts: (t: TokenType) => boolean): IToken | undefined {
    const t = this.input[this.at];
    if (t === undefined || !accepts(t.tokenType)) return undefined;
    this.at++;
    return t;
  }

  /** `<name attr... >` or `/>`. */
  private openTag(start: IToken): void {
    const toks = this.input;
    const pieces: AttrPiece[] = [];
    for (let t = toks[this.at]; t !== undefined; t = toks[this.at]) {
      const type = t.tokenType;
      if (type === Name) {
        this.at++;
        const eq = this.optional(isAttrEq);
        const value = eq && this.optional(isAttrValue);
        pieces.push({ kind: 'named', name: t, eq, value });
      } else if (type === ClassShort) pieces.push({ kind: 'class', tok: toks[this.at++] });
      else if (type === IdShort) pieces.push({ kind: 'id', tok: toks[this.at++] });
      else if (type === Interp) pieces.push({ kind: 'braces', tok: toks[this.at++] });
      else if (type === TagJunk || type === AttrEq || type === AttrString || type === SingleQuoted)
        pieces.push({ kind: 'junk', tok: toks[this.at++] });
      else break;
    }
    this.onOpenTag(start, pieces, this.optional(isTagEnd));
  }

  /** `</` then a name, anything else up to `>` (reported by the action) and the end. */
  private closeTag(lt: IToken): void {
    const name = this.optional(isName);
    const extra = this.tagParts();
    this.onCloseTag(lt, name, extra, this.optional(isTagEnd));
  }

  /** The tokens inside a tag up to its end. */
  private tagParts(): IToken[] {
    const parts: IToken[] = [];
    for (let t = this.optional(isTagPart); t !== undefined; t = this.optional(isTagPart)) parts.push(t);
    return parts;
  }

  // The tree-building actions (markup-parser.ts).
  protected abstract children(): MarkupNode[];
  protected abstract interpolation(t: IToken): Interpolation;
  protected abstract onText(t: IToken): void;
  protected abstract onComment(t: IToken, closed: boolean): void;
  protected abstract onBlockSyntax(t: IToken): void;
  protected abstract onOpenTag(tagStart: IToken, pieces: AttrPiece[], end: IToken | undefined): void;
  protected abstract onDynamicTag(lt: IToken, parts: IToken[], end: IToken | undefined): void;
  protected abstract onCloseTagToken(t: IToken): void;
  protected abstract onCloseTag(
    lt: IToken,
    nameTok: IToken | undefined,
    extra: IToken[],
    end: IToken | undefined,
  ): void;
}
