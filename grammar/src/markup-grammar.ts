// The grammar of view and fragment bodies: which token sequences make up a body (text, comments,
// `{...}`, opening, dynamic and closing tags) and which tree-building action each one triggers.
// The actions are abstract here: the tree is built by MarkupParser (markup-parser.ts), on
// MarkupAttributes (markup-attributes.ts), both subclasses of this parser.
import type { IOrAlt, IToken } from 'chevrotain';
import { LazyAnalysedParser } from './lazy-setup.js';
import type { Interpolation, MarkupNode } from './ast.js';
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

/** What an opening tag holds after its name, in order, as the grammar reads it. */
export type AttrPiece =
  | { kind: 'named'; name: IToken; eq?: IToken; value?: IToken }
  | { kind: 'class' | 'id' | 'junk' | 'braces'; tok: IToken };

export abstract class MarkupGrammar extends LazyAnalysedParser {
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
