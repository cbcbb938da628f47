// The endpoint declarations of a chunk builder: `act` and `api` lines with their path, error document
// and (for `api`) cors options, each problem reported at the option at fault; and the old
// `act X {}` / `api X {}` block syntax, which is refused with the one-line form to write instead.
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import type { ActDecl, ApiDecl, CorsOptions, StringLit } from '../ast.js';
import { declParser, type EndpointLine } from './decl-parser.js';
import { plainEndpointLine } from './decl-shortcuts.js';
import { LCurly, StringTok, Word } from './decl-lexer.js';
import { CORS_OPTIONS, CORS_STRING_OPTIONS, type CorsStringOption, isOneOf } from '#shared/language/facts.js';
import { usageOf } from './declaration-usage.js';
import { RecordBlocks } from './record-blocks.js';

/** The options a `cors` may name, as its diagnostic lists them. */
const CORS_OPTIONS_SHOWN = `${CORS_OPTIONS.slice(0, -1).join(', ')} or ${CORS_OPTIONS.at(-1)}`;

export abstract class EndpointDeclarations extends RecordBlocks {
  protected endpoint(kw: 'act' | 'api', toks: IToken[], lineEnd: number): void {
    const res: EndpointLine | undefined = declParser.run(toks, () => declParser.endpointLine(), plainEndpointLine);
    const usage = usageOf(kw);
    if (this.parserErrors(usage)) return;
    if (res === undefined || res.symbol === undefined || res.method === undefined) {
      this.report('parse_error', usage, toks.length > 1 ? this.span(toks[0], toks[toks.length - 1]) : this.r(toks[0]));
      return;
    }
    const range = this.declRange(res.kw, lineEnd);
    const base = { range, keyword: this.r(res.kw), symbol: this.word(res.symbol), method: this.word(res.method) };
    let problem = false;
    const problemAt = (message: string, t: IToken): void => {
      if (problem) return;
      problem = true;
      this.report('parse_error', message, this.r(t));
    };
    let path: StringLit | undefined;
    if (res.path !== undefined) path = this.str(res.path);
    let error: StringLit | undefined;
    for (const e of res.errors) {
      if (e.value === undefined) problemAt('`error` needs a quoted error document path: error "/errors/x.html"', e.kw);
      else if (error !== undefined) problemAt('duplicate `error` option', e.kw);
      else error = this.str(e.value);
    }
    let cors: CorsOptions | undefined;
    if (res.cors.length > 0) {
      if (kw === 'act') problemAt('act declarations take no cors options (only api declarations do)', res.cors[0].kw);
      else {
        if (res.cors.length > 1) problemAt('duplicate `cors` options', res.cors[1].kw);
        const c = res.cors[0];
        const last =
          c.options.length > 0 ? (c.options[c.options.length - 1].value ?? c.options[c.options.length - 1].name) : c.kw;
        cors = { range: this.span(c.kw, last) };
        if (c.options.length === 0)
          problemAt(
            '`cors` needs options: cors origins "https://a.example" methods "GET, POST" credentials true maxAge 600',
            c.kw,
          );
        for (const o of c.options) {
          const name = o.name.image;
          if (!isOneOf(CORS_OPTIONS, name)) {
            problemAt(`unknown cors option \`${name}\`; expected ${CORS_OPTIONS_SHOWN}`, o.name);
            continue;
          }
          if ((cors as unknown as Record<string, unknown>)[name] !== undefined) {
            problemAt(`duplicate cors option \`${name}\``, o.name);
            continue;
          }
          const v = o.value;
          if (isOneOf(CORS_STRING_OPTIONS, name)) {
            if (v === undefined || v.tokenType !== StringTok) {
              problemAt(`cors option \`${name}\` needs a quoted comma-separated list: ${name} "a, b"`, v ?? o.name);
              continue;
            }
            (cors as Record<CorsStringOption, StringLit>)[name] = this.str(v);
          } else if (name === 'credentials') {
            // Only the form is checked here; the core's invalid_cors_option judges the word.
            if (v === undefined || v.tokenType === StringTok) {
              problemAt('cors option `credentials` needs true or false', v ?? o.name);
              continue;
            }
            cors.credentials = this.word(v);
          } else {
            if (v === undefined || v.tokenType === StringTok) {
              problemAt('cors option `maxAge` needs whole seconds: maxAge 600', v ?? o.name);
              continue;
            }
            cors.maxAge = this.word(v);
          }
        }
      }
    }
    if (problem) return;
    if (kw === 'act') {
      const d: ActDecl = { kind: 'act', ...base };
      if (path !== undefined) d.path = path;
      if (error !== undefined) d.error = error;
      this.push(d);
    } else {
      const d: ApiDecl = { kind: 'api', ...base };
      if (path !== undefined) d.path = path;
      if (error !== undefined) d.error = error;
      if (cors !== undefined) d.cors = cors;
      this.push(d);
    }
  }

  protected oldBlock(kw: 'act' | 'api', header: IToken[]): void {
    const brace = header.find((t) => t.tokenType === LCurly) ?? header[header.length - 1];
    const sym = header[1] !== undefined && tokenMatcher(header[1], Word) ? header[1].image : 'Name';
    const message =
      kw === 'act'
        ? `\`act ${sym} {}\` is the old action block syntax: declare \`act ${sym} POST "/path"\` on one line and ` +
          `export a function ${sym} from a module next to this file`
        : `\`api ${sym} {}\` is the old API block syntax: declare \`api ${sym} GET "/path"\` on one line and ` +
          `export a function ${sym} from a module next to this file`;
    this.report(
      kw === 'act' ? 'old_action_block_syntax' : 'old_api_block_syntax',
      message,
      this.span(header[0], brace),
    );
  }
}
