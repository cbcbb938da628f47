// Moving parsed chunks after an edit: every position of a reused chunk is shifted in place by an
// offset delta and a line delta (columns stay: chunks start at line starts; only the tail of an edited
// line inside a view moves sideways). In place, because a copy
// of everything after the edit costs about as much as parsing it again. This is safe only because
// the parser never shares a Pos object between two ranges (a test checks it).
import type {
  AttrValue,
  Attribute,
  CorsOptions,
  Declaration,
  Expr,
  MarkupNode,
  Pos,
  Range,
  StringLit,
  TextOrInterpolation,
} from '../ast.js';
import type { ChunkResult } from '../declarations/declarations.js';
import { Span } from '../common/text-lines.js';

export class Shifter {
  /**
   * `colLine`/`colDelta`: positions on that (previous) line also move sideways — the line where an
   * edit inside a line ends. Whole chunks start at line starts and never need it.
   */
  constructor(
    readonly d: number,
    readonly ld: number,
    readonly colLine = -1,
    readonly colDelta = 0,
  ) {}

  pos(p: Pos): void {
    if (p.line === this.colLine) p.column += this.colDelta;
    p.offset += this.d;
    p.line += this.ld;
  }

  /** Moves the end of `r` only (an enclosing element or block whose inside was edited). */
  end(r: Range): void {
    if (r instanceof Span) this.spanEnd(r);
    else this.pos(r.end);
  }

  range(r: Range): void {
    if (r instanceof Span) {
      if (r.sl === this.colLine) r.sc += this.colDelta;
      r.so += this.d;
      r.sl += this.ld;
      this.spanEnd(r);
    } else {
      this.pos(r.start);
      this.pos(r.end);
    }
  }

  private spanEnd(r: Span): void {
    if (r.el === this.colLine) r.ec += this.colDelta;
    r.eo += this.d;
    r.el += this.ld;
  }

  private string(s: StringLit): void {
    this.range(s.range);
    const offs = s.valueOffsets;
    if (offs !== undefined) for (let i = 0; i < offs.length; i++) offs[i] += this.d;
  }

  private expr(e: Expr): void {
    this.range(e.range);
    switch (e.type) {
      case 'param':
        this.string(e.name);
        break;
      case 'not':
        this.expr(e.expr);
        break;
      case 'binary':
        this.expr(e.left);
        this.expr(e.right);
        break;
      case 'for':
        this.range(e.item.range);
        if (e.index !== undefined) this.range(e.index.range);
        this.expr(e.collection);
        break;
    }
  }

  private part(p: TextOrInterpolation): void {
    this.range(p.range);
    if (p.type === 'interp') this.expr(p.expr);
  }

  private attrValue(v: AttrValue): void {
    this.range(v.range);
    if (v.type === 'expr') this.expr(v.expr);
    else {
      this.range(v.innerRange);
      for (const p of v.parts) this.part(p);
    }
  }

  private attr(a: Attribute): void {
    this.range(a.nameRange);
    this.range(a.range);
    if (a.value !== undefined) this.attrValue(a.value);
  }

  markup(nodes: MarkupNode[]): void {
    for (const n of nodes) {
      this.range(n.range);
      if (n.type === 'interp') this.expr(n.expr);
      else if (n.type === 'element') {
        this.range(n.nameRange);
        this.range(n.openRange);
        if (n.closeNameRange !== undefined) this.range(n.closeNameRange);
        for (const a of n.attrs) this.attr(a);
        this.markup(n.children);
      }
    }
  }

  private cors(c: CorsOptions): void {
    this.range(c.range);
    if (c.origins !== undefined) this.string(c.origins);
    if (c.methods !== undefined) this.string(c.methods);
    if (c.headers !== undefined) this.string(c.headers);
    if (c.expose !== undefined) this.string(c.expose);
    if (c.credentials !== undefined) this.range(c.credentials.range);
    if (c.maxAge !== undefined) this.range(c.maxAge.range);
  }

  private declaration(x: Declaration): void {
    this.range(x.range);
    this.range(x.keyword);
    switch (x.kind) {
      case 'package':
      case 'component':
        this.range(x.name.range);
        break;
      case 'page':
        this.range(x.id.range);
        break;
      case 'render':
        this.range(x.mode.range);
        break;
      case 'revalidate':
        this.range(x.value.range);
        break;
      case 'route':
        this.string(x.path);
        break;
      case 'guard':
        for (const w of x.guards) this.range(w.range);
        break;
      case 'layout':
        for (const w of x.layouts) this.range(w.range);
        break;
      case 'cache':
      case 'meta':
        this.string(x.value);
        break;
      case 'css':
        for (const w of x.names) this.range(w.range);
        if (x.file !== undefined) this.string(x.file);
        break;
      case 'js':
      case 'asset':
      case 'error':
        this.string(x.file);
        break;
      case 'wasm':
        if ('raw' in x.target) this.string(x.target);
        else this.range(x.target.range);
        break;
      case 'use':
        this.range(x.alias.range);
        this.string(x.pkg);
        break;
      case 'props':
        for (const p of x.props) {
          this.range(p.range);
          this.range(p.name.range);
          this.range(p.type.range);
          if (p.default !== undefined) this.range(p.default.range);
        }
        break;
      case 'paths':
        for (const r of x.records) {
          this.range(r.range);
          for (const f of r.fields) {
            this.range(f.range);
            this.range(f.name.range);
            if ('kind' in f.value) this.range(f.value.range);
            else this.string(f.value);
          }
        }
        break;
      case 'server':
        for (const f of x.fields) this.range(f.range);
        break;
      case 'act':
      case 'api':
        this.range(x.symbol.range);
        this.range(x.method.range);
        if (x.path !== undefined) this.string(x.path);
        if (x.error !== undefined) this.string(x.error);
        if (x.kind === 'api' && x.cors !== undefined) this.cors(x.cors);
        break;
      case 'fragment':
        this.range(x.name.range);
        this.range(x.method.range);
        this.string(x.path);
        this.string(x.target);
        this.range(x.bodyRange);
        this.markup(x.body);
        break;
      case 'view':
        this.range(x.bodyRange);
        this.markup(x.body);
        break;
      case 'style':
        this.range(x.cssRange);
        break;
    }
  }

  /** Shifts everything a chunk produced. */
  chunk(r: ChunkResult): void {
    for (const x of r.decls) this.declaration(x);
    for (const c of r.comments) this.range(c.range);
    for (const d of r.diags) this.range(d.range);
  }
}
