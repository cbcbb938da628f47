// Chevrotain's set-up, deferred to first use. Building a lexer analyses every token pattern and
// `performSelfAnalysis` records each parser's grammar and computes its lookahead functions: ~35 ms
// together, which every `kit` command paid at start-up, also `kit check` on a directory without
// .kit files. Chevrotain 11 cannot load that work from a file instead: `serializeGrammar` exports
// the grammar for diagrams only (no parser option takes it back), and lookahead functions are
// closures built from the recorded grammar. So the work waits for the first text to lex or parse.
import { EmbeddedActionsParser } from './chevrotain.js';
import type { IToken, Lexer } from 'chevrotain';

/** The lexer `build` makes, made on the first `tokenize`. */
export function lazyLexer(build: () => Lexer): Pick<Lexer, 'tokenize'> {
  let lexer: Lexer | undefined;
  return { tokenize: (text, mode) => (lexer ??= build()).tokenize(text, mode) };
}

/**
 * A parser that runs `performSelfAnalysis` when it is first given input (every rule call starts by
 * setting `input`), not in its constructor. Subclasses define their rules in the constructor and
 * fields as before and must not call `performSelfAnalysis` themselves.
 */
export abstract class LazyAnalysedParser extends EmbeddedActionsParser {
  private analysed = false;

  override set input(tokens: IToken[]) {
    if (!this.analysed) {
      this.analysed = true;
      this.performSelfAnalysis();
    }
    super.input = tokens;
  }

  override get input(): IToken[] {
    return super.input;
  }
}
