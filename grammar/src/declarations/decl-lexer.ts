// The declaration lexer: header lines and record-block bodies (`paths`, `server`, `props`). Every
// token is confined to one line, so any run of lines can be lexed on its own.
import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from '../common/chevrotain.js';
import { startCharsExcept } from '../common/char-hints.js';
import { lazyLexer } from '../common/lazy-setup.js';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\f\v\uFEFF]+/, group: Lexer.SKIPPED });
export const Newline = createToken({ name: 'Newline', pattern: /\r\n?|\n/, line_breaks: true });
export const LineCommentTok = createToken({ name: 'LineComment', pattern: /\/\/[^\r\n]*/, group: 'comments' });
/** A double-quoted string; also matches an unterminated one up to the end of the line. */
export const StringTok = createToken({ name: 'String', pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*(?:"|\\)?/ });
export const Arrow = createToken({ name: 'Arrow', pattern: '=>' });
export const Equals = createToken({ name: 'Equals', pattern: '=' });
export const LCurly = createToken({ name: 'LCurly', pattern: '{' });
export const RCurly = createToken({ name: 'RCurly', pattern: '}' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });
export const Colon = createToken({ name: 'Colon', pattern: ':' });
/**
 * Identifiers, IDs, methods, durations, numbers and unquoted paths: `auth.required`, `role:admin`,
 * `blog-post`, `5m`, `./pkg`. A `:` belongs to a word only when a word character follows, so
 * `{slug:"x"}` lexes as word, colon, string.
 */
export const Word = createToken({ name: 'Word', pattern: /[\w.\/$-]+(?::[\w.\/$-]+)*/ });
export const KwError = createToken({ name: 'KwError', pattern: /error/, longer_alt: Word, categories: [Word] });
export const KwCors = createToken({ name: 'KwCors', pattern: /cors/, longer_alt: Word, categories: [Word] });
/** Any other character: the parser reports it. */
export const Junk = createToken({
  name: 'Junk',
  pattern: /[^ \t\f\v\uFEFF\r\n]/,
  start_chars_hint: startCharsExcept(' \t\f\v\r\n'),
});

export const declTokens: TokenType[] = [
  WhiteSpace,
  Newline,
  LineCommentTok,
  StringTok,
  Arrow,
  Equals,
  LCurly,
  RCurly,
  Comma,
  Colon,
  KwError,
  KwCors,
  Word,
  Junk,
];

/** Chevrotain's lexer for these tokens; lines are lexed by `declLexer` (decl-scanner.ts), which gives the same. */
export const chevrotainDeclLexer = lazyLexer(
  () =>
    new Lexer(declTokens, {
      positionTracking: 'onlyOffset',
      ensureOptimizations: true,
      // Every character matches some token, so lexing never fails; keep the checks cheap at start-up.
      skipValidations: true,
    }),
);
