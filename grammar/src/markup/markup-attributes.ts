// The attributes of an opening tag and the `{...}` expressions of a body: attribute pieces become
// `Attribute` nodes (class and id shorthands, named attributes, quoted values with their
// interpolations), each problem reported at the piece at fault. A layer of the markup parser
// (markup-parser.ts), which keeps the body's text and positions in the fields below.
import type { IToken } from 'chevrotain';
import type { Attribute, Expr, Range, SyntaxDiagnostic, TextOrInterpolation } from '../ast.js';
import { diag } from '../common/diagnostics.js';
import { parseExprText } from '../expressions/expr-parser.js';
import { blockSyntaxMessage } from './markup-block-syntax.js';
import { MarkupGrammar, type AttrPiece } from './markup-grammar.js';
import { AttrEq, AttrString, AttrText, BlockSyntax, Interp, SingleQuoted } from './markup-lexer.js';
import { markupLexer } from './markup-scanner.js';
import { resolveEscapes } from '../common/string-literal.js';
import { exact, type PosMaker } from '../common/text-lines.js';

export abstract class MarkupAttributes extends MarkupGrammar {
  /** The document, and the offset in it of the lexed body text. */
  protected doc = '';
  protected base = 0;
  protected pm!: PosMaker;
  protected diags: SyntaxDiagnostic[] = [];

  protected tokRange(t: IToken): Range {
    const s = this.base + t.startOffset;
    return this.pm.range(s, s + t.image.length);
  }
  protected endOf(t: IToken): number {
    return this.base + t.startOffset + t.image.length;
  }

  /**
   * The expression of one `{...}` token image; `map(i)` is the document offset of `image[i]` (plain
   * for views, through the resolved value's offsets inside quoted attributes).
   */
  protected interpExpr(image: string, map: (i: number) => number): Expr {
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

  protected attributes(pieces: AttrPiece[], tag: string): Attribute[] {
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
      if (terminated && value.indexOf('{') < 0) {
        // Plain text, by far the commonest value: its one part, without a position mapping.
        const parts: TextOrInterpolation[] =
          value.length === 0 ? [] : [{ type: 'text', value, range: this.pm.range(s + 1, e - 1) }];
        return { type: 'string', parts, range: this.pm.range(s, e), innerRange: this.pm.range(s + 1, e - 1) };
      }
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
