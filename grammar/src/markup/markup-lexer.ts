// The markup lexer for `view` and `fragment` bodies. Modes: `content` (text, comments, tags and
// `{interpolations}`), `tag` (inside `<...>`), `expr` (the inside of one `{...}`, lexed on demand) and
// `attr` (the resolved value of a quoted attribute, where only `{...}` is special).
import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from '../common/chevrotain.js';
import { startCharsExcept } from '../common/char-hints.js';
import { lazyLexer } from '../common/lazy-setup.js';

const anyButSpace = startCharsExcept(' \t\f\v\r\n');

// --- content mode
export const MComment = createToken({ name: 'MComment', pattern: /<!--[^]*?-->/, line_breaks: true });
/** `<!--` with no `-->` before the end of the body. */
export const MCommentOpen = createToken({ name: 'MCommentOpen', pattern: /<!--[^]*/, line_breaks: true });
/** A whole well-formed closing tag, `</name>` (the common case: one token instead of three). */
export const CloseTag = createToken({ name: 'CloseTag', pattern: /<\/[A-Za-z][\w.:@$-]*[ \t]*>/ });
/** `</` of any other closing tag (attributes, a missing `>`): its parts are lexed in tag mode. */
export const CloseTagOpen = createToken({ name: 'CloseTagOpen', pattern: '</', push_mode: 'tag' });
/** `<name`: an opening tag with its name. */
export const TagStart = createToken({ name: 'TagStart', pattern: /<[A-Za-z][\w.:@$-]*/, push_mode: 'tag' });
/** `<` before `{` (a dynamic tag name, which is reported). */
export const TagOpen = createToken({ name: 'TagOpen', pattern: /<(?=\{)/, start_chars_hint: ['<'], push_mode: 'tag' });
/** Foreign template syntax: `{#if}`, `{/if}`, `{:else}`, `{@html x}`. */
export const BlockSyntax = createToken({ name: 'BlockSyntax', pattern: /\{[#\/:@][^}\r\n]*\}?/ });
/**
 * A whole `{...}` (content, attribute value, attribute position): up to the first `}` outside a string,
 * never past the end of the line (then it is unterminated). Its inside is lexed in `expr` mode by
 * the expression parser, unless it is a plain path.
 */
export const Interp = createToken({ name: 'Interp', pattern: /\{(?:[^}"\r\n]|"(?:[^"\\\r\n]|\\[^\r\n])*"?)*\}?/ });
export const Text = createToken({
  name: 'Text',
  pattern: /[^<{]+/,
  start_chars_hint: startCharsExcept('<{'),
  line_breaks: true,
});
/** A `<` that does not start a tag (`a < b`). */
export const LtText = createToken({ name: 'LtText', pattern: '<' });

// --- tag mode
export const TagWS = createToken({
  name: 'TagWS',
  pattern: /[ \t\f\v\r\n\uFEFF]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
/** Tag and attribute names: `div`, `ui.Button`, `g:on:click.prevent`, `g:on:input.debounce(300ms)`, `data-x`. */
export const Name = createToken({ name: 'Name', pattern: /[A-Za-z_@:$][\w.:@$-]*(?:\([\w.]*\)[\w.:@$-]*)*/ });
export const ClassShort = createToken({ name: 'ClassShort', pattern: /\.[\w:-]+/ });
export const IdShort = createToken({ name: 'IdShort', pattern: /#[\w:-]+/ });
export const AttrEq = createToken({ name: 'AttrEq', pattern: '=' });
export const AttrString = createToken({ name: 'AttrString', pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*(?:"|\\)?/ });
export const SingleQuoted = createToken({ name: 'SingleQuoted', pattern: /'[^'\r\n]*'?/ });
export const SelfClose = createToken({ name: 'SelfClose', pattern: '/>', pop_mode: true });
export const TagClose = createToken({ name: 'TagClose', pattern: '>', pop_mode: true });
export const TagJunk = createToken({ name: 'TagJunk', pattern: /[^ \t\f\v\r\n]/, start_chars_hint: anyButSpace });

// --- expression mode (the inside of an Interp token)
export const ExprWS = createToken({
  name: 'ExprWS',
  pattern: /[ \t\f\v\r\n\uFEFF]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
export const Spread = createToken({ name: 'Spread', pattern: '...' });
export const Dot = createToken({ name: 'Dot', pattern: '.' });
export const LParen = createToken({ name: 'LParen', pattern: '(' });
export const RParen = createToken({ name: 'RParen', pattern: ')' });
export const ExprComma = createToken({ name: 'ExprComma', pattern: ',' });
export const EqEq = createToken({ name: 'EqEq', pattern: '==' });
export const NotEq = createToken({ name: 'NotEq', pattern: '!=' });
export const Not = createToken({ name: 'Not', pattern: '!' });
export const AndAnd = createToken({ name: 'AndAnd', pattern: '&&' });
export const OrOr = createToken({ name: 'OrOr', pattern: '||' });
export const Le = createToken({ name: 'Le', pattern: '<=' });
export const Ge = createToken({ name: 'Ge', pattern: '>=' });
export const Lt = createToken({ name: 'Lt', pattern: '<' });
export const Gt = createToken({ name: 'Gt', pattern: '>' });
export const ExprString = createToken({
  name: 'ExprString',
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*(?:"|\\)?/,
});
export const NumberLit = createToken({ name: 'NumberLit', pattern: /\d+(?:\.\d+)?/ });
export const Ident = createToken({ name: 'Ident', pattern: /[A-Za-z_$][\w$]*/ });
export const True = createToken({ name: 'True', pattern: /true/, longer_alt: Ident });
export const False = createToken({ name: 'False', pattern: /false/, longer_alt: Ident });
export const In = createToken({ name: 'In', pattern: /in/, longer_alt: Ident });
export const ExprJunk = createToken({ name: 'ExprJunk', pattern: /[^ \t\f\v\r\n]/, start_chars_hint: anyButSpace });

// --- attribute-value mode
export const AttrText = createToken({
  name: 'AttrText',
  pattern: /[^{]+/,
  start_chars_hint: startCharsExcept('{'),
  line_breaks: true,
});

const exprMode = [
  ExprWS,
  Spread,
  Dot,
  LParen,
  RParen,
  ExprComma,
  EqEq,
  NotEq,
  Not,
  AndAnd,
  OrOr,
  Le,
  Ge,
  Lt,
  Gt,
  ExprString,
  NumberLit,
  True,
  False,
  In,
  Ident,
  ExprJunk,
];

export const markupLexerDefinition = {
  modes: {
    content: [MComment, MCommentOpen, CloseTag, CloseTagOpen, TagStart, TagOpen, BlockSyntax, Interp, Text, LtText],
    tag: [TagWS, Name, ClassShort, IdShort, AttrEq, AttrString, SingleQuoted, SelfClose, TagClose, Interp, TagJunk],
    expr: exprMode,
    attr: [BlockSyntax, Interp, AttrText],
  },
  defaultMode: 'content',
};

export const markupTokens: TokenType[] = [
  MComment,
  MCommentOpen,
  CloseTag,
  CloseTagOpen,
  TagStart,
  TagOpen,
  BlockSyntax,
  Interp,
  Text,
  LtText,
  TagWS,
  Name,
  ClassShort,
  IdShort,
  AttrEq,
  AttrString,
  SingleQuoted,
  SelfClose,
  TagClose,
  TagJunk,
  AttrText,
  ...exprMode,
];

/**
 * Chevrotain's lexer for every mode. Bodies are lexed by `markupLexer` (markup-scanner.ts), which
 * gives the `content` and `tag` modes by hand and the others through this one.
 */
export const chevrotainMarkupLexer = lazyLexer(
  () =>
    new Lexer(markupLexerDefinition, {
      positionTracking: 'onlyOffset',
      ensureOptimizations: true,
      skipValidations: true,
    }),
);
