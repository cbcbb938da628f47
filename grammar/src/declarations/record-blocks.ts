// Record blocks: one `=> { ... }` or `name type [= literal]` line at a time.
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import type { FieldPath, Literal, PathField, PathRecord, PropDecl, Range, Word as WordNode } from '../ast.js';
import { declParser, type RecordField, type RecordLine } from './decl-parser.js';
import { plainPropLine, plainRecordLine } from './decl-shortcuts.js';
import { Comma, StringTok, Word } from './decl-lexer.js';
import { describe, FIELD_PATH, NUMBER } from './declaration-usage.js';
import { ChunkBase } from './chunk-base.js';

/** The line records of `paths {}`, `server {}` / `go server {}` and `props {}` blocks. */
export abstract class RecordBlocks extends ChunkBase {
  protected recordBlock(h: { kind: string; go: boolean; keyword: Range }, range: Range, lines: IToken[][]): void {
    if (h.kind === 'props') {
      const props: PropDecl[] = [];
      for (const l of lines) {
        const p = this.propLine(l);
        if (p !== undefined) props.push(p);
      }
      this.push({ kind: 'props', range, keyword: h.keyword, props });
    } else if (h.kind === 'paths') {
      const records: PathRecord[] = [];
      for (const l of lines) {
        const rec = this.pathRecord(l);
        if (rec !== undefined) records.push(rec);
      }
      this.push({ kind: 'paths', range, keyword: h.keyword, records });
    } else {
      const fields: FieldPath[] = [];
      for (const l of lines) this.serverRecord(l, fields);
      this.push({ kind: 'server', range, keyword: h.keyword, go: h.go, fields });
    }
  }

  private record(line: IToken[], usage: string): RecordLine | undefined {
    const rec = declParser.run(line, () => declParser.recordLine(), plainRecordLine);
    if (rec === undefined) {
      this.parserErrors(usage);
      return undefined;
    }
    if (rec.arrow === undefined || rec.open === undefined) {
      this.report('parse_error', usage, this.r(line[0]));
      return undefined;
    }
    if (this.parserErrors(usage)) return undefined;
    if (rec.close === undefined) {
      const last = line[line.length - 1];
      this.report('parse_error', `expected \`}\` to end the record; ${usage}`, this.r(last));
      return undefined;
    }
    return rec;
  }

  private pathRecord(line: IToken[]): PathRecord | undefined {
    const usage = 'paths records look like `=> { param: "value", other: "value" }`';
    const rec = this.record(line, usage);
    if (rec === undefined) return undefined;
    const fields: PathField[] = [];
    let expectField = true;
    for (const item of rec.items) {
      if ('tokenType' in item && item.tokenType === Comma) {
        if (expectField) {
          this.report('parse_error', `unexpected \`,\`; ${usage}`, this.r(item));
          return undefined;
        }
        expectField = true;
        continue;
      }
      const f = this.pathField(item, usage);
      if (f === undefined) return undefined;
      if (!expectField) {
        this.report('parse_error', 'expected `,` between fields', f.name.range);
        return undefined;
      }
      fields.push(f);
      expectField = false;
    }
    return { range: this.span(rec.arrow!, rec.close!), fields };
  }

  private pathField(item: RecordField | IToken, usage: string): PathField | undefined {
    if ('tokenType' in item) {
      // A bare word; `slug:x` lexes as one word and is a field with a non-literal value.
      const colon = item.image.indexOf(':');
      if (colon > 0) {
        const s = this.start(item);
        const name: WordNode = { text: item.image.slice(0, colon), range: this.pm.range(s, s + colon) };
        const valueText = item.image.slice(colon + 1);
        return {
          range: this.r(item),
          name,
          value: { kind: 'nonliteral', text: valueText, range: this.pm.range(s + colon + 1, this.end(item)) },
        };
      }
      this.report('parse_error', `expected \`${item.image}: "value"\`; ${usage}`, this.r(item));
      return undefined;
    }
    if (item.colon === undefined) {
      this.report('parse_error', `expected \`:\` after \`${item.name.image}\``, this.r(item.name));
      return undefined;
    }
    const v = item.value;
    if (v.length === 0) {
      this.report(
        'parse_error',
        `missing value for \`${item.name.image}\`; ${usage}`,
        this.span(item.name, item.colon),
      );
      return undefined;
    }
    if (v[0].tokenType === StringTok && v.length > 1) {
      this.report('parse_error', 'expected `,` between fields', this.r(v[1]));
      return undefined;
    }
    const last = v[v.length - 1];
    const range = this.span(item.name, last);
    const name = this.word(item.name);
    if (v.length === 1 && v[0].tokenType === StringTok) return { range, name, value: this.str(v[0]) };
    const s = this.start(v[0]);
    const e = this.end(last);
    return { range, name, value: { kind: 'nonliteral', text: this.text.slice(s, e), range: this.pm.range(s, e) } };
  }

  private serverRecord(line: IToken[], fields: FieldPath[]): void {
    const usage = 'server records look like `=> { field, user.name }`';
    const rec = this.record(line, usage);
    if (rec === undefined) return;
    let expectField = true;
    for (const item of rec.items) {
      if (!('tokenType' in item)) {
        this.report(
          'parse_error',
          `server fields are identifiers or dotted paths; ${usage}`,
          this.span(item.name, item.value[item.value.length - 1] ?? item.colon ?? item.name),
        );
        return;
      }
      if (item.tokenType === Comma) {
        if (expectField) {
          this.report('parse_error', `unexpected \`,\`; ${usage}`, this.r(item));
          return;
        }
        expectField = true;
        continue;
      }
      if (!FIELD_PATH.test(item.image)) {
        this.report('parse_error', `\`${item.image}\` is not an identifier or dotted path; ${usage}`, this.r(item));
        return;
      }
      if (!expectField) {
        this.report('parse_error', 'expected `,` between fields', this.r(item));
        return;
      }
      fields.push({ path: item.image.split('.'), text: item.image, range: this.r(item) });
      expectField = false;
    }
  }

  private propLine(line: IToken[]): PropDecl | undefined {
    const usage = 'props lines look like `name type [= literal]`, e.g. `compact bool = false`';
    const t0 = line[0];
    if (!tokenMatcher(t0, Word)) {
      this.report('parse_error', `unexpected ${describe(t0)}; ${usage}`, this.r(t0));
      return undefined;
    }
    const p = declParser.run(line, () => declParser.propLine(), plainPropLine);
    if (this.parserErrors(usage) || p === undefined) return undefined;
    if (p.type === undefined) {
      this.report('parse_error', `prop \`${p.name.image}\` needs a type; ${usage}`, this.r(p.name));
      return undefined;
    }
    if (p.eq !== undefined && p.value === undefined) {
      this.report('parse_error', `missing default value after \`=\`; ${usage}`, this.r(p.eq));
      return undefined;
    }
    const last = p.value ?? p.type;
    const prop: PropDecl = { range: this.span(p.name, last), name: this.word(p.name), type: this.word(p.type) };
    if (p.value !== undefined) {
      const v = p.value;
      let lit: Literal | undefined;
      if (v.tokenType === StringTok) {
        const s = this.str(v);
        lit = { type: 'literal', value: s.value, range: this.r(v) };
      } else if (v.image === 'true' || v.image === 'false')
        lit = { type: 'literal', value: v.image === 'true', range: this.r(v) };
      else if (NUMBER.test(v.image)) lit = { type: 'literal', value: Number(v.image), range: this.r(v) };
      if (lit === undefined) {
        this.report(
          'parse_error',
          `default value \`${v.image}\` must be a literal: a string, a number, true or false`,
          this.r(v),
        );
        return undefined;
      }
      prop.default = lit;
    }
    return prop;
  }
}
