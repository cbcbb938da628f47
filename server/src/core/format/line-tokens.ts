// Spacing of one declaration line (or one record line of a `paths`/`server`/`props` block). Only the
// whitespace BETWEEN tokens changes: runs collapse to one space, commas get one space after and none
// before, braces get one space inside, a block header gets one space before its `{`. Strings and a
// trailing `//` comment are copied as written, and no space is ever inserted where it could split or
// join a word (`role:admin` stays one token, `slug:x` is never turned into `slug: x`).

const WORD = /[\w.\/$-]/;

interface Piece {
  /** `s`: a string literal, `c`: a trailing comment, `p`: punctuation (`{ } , :`), `t`: any other run. */
  kind: 's' | 'c' | 'p' | 't';
  text: string;
  /** Whitespace preceded this piece in the source. */
  spaced: boolean;
}

function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  let spaced = false;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\uFEFF') {
      spaced = true;
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      j = Math.min(n, j + 1);
      out.push({ kind: 's', text: line.slice(i, j), spaced });
      i = j;
    } else if (c === '/' && line[i + 1] === '/') {
      out.push({ kind: 'c', text: line.slice(i).trimEnd(), spaced });
      i = n;
    } else if (c === '{' || c === '}' || c === ',' || c === ':') {
      out.push({ kind: 'p', text: c, spaced });
      i++;
    } else {
      let j = i + 1;
      while (j < n && !' \t\f\v\uFEFF",{}:'.includes(line[j]) && !(line[j] === '/' && line[j + 1] === '/')) j++;
      out.push({ kind: 't', text: line.slice(i, j), spaced });
      i = j;
    }
    spaced = false;
  }
  return out;
}

/**
 * Would a space between `prev` and `next` change how the line lexes? Only a `:` glued between word
 * characters (`role:admin`, `slug:x`) is part of a word; everything else is separated anyway.
 */
function glued(prev: Piece, next: Piece): boolean {
  if (next.kind === 'p' && next.text === ':') return !next.spaced && prev.kind === 't';
  if (prev.kind === 'p' && prev.text === ':') return !next.spaced && next.kind === 't' && WORD.test(next.text[0] ?? '');
  return false;
}

function wordFollows(next: Piece | undefined): boolean {
  return next !== undefined && next.kind === 't' && !next.spaced && WORD.test(next.text[0] ?? '');
}

/** The normalised text of one declaration or record line, without indentation. */
export function normalizeLine(line: string): string {
  const ps = pieces(line);
  let out = '';
  for (let k = 0; k < ps.length; k++) {
    const cur = ps[k];
    if (k === 0) {
      out = cur.text;
      continue;
    }
    const prev = ps[k - 1];
    let space: boolean;
    if (cur.kind === 'c') space = true;
    else if (glued(prev, cur)) space = false;
    else if (cur.kind === 'p' && cur.text === ',') space = false;
    // `slug :x` keeps its space: without it `slug:x` would lex as one word.
    else if (cur.kind === 'p' && cur.text === ':') space = cur.spaced && wordFollows(ps[k + 1]);
    else if (prev.kind === 'p' && prev.text === '{' && cur.kind === 'p' && cur.text === '}') space = false;
    else if (prev.kind === 'p' && (prev.text === ',' || prev.text === ':' || prev.text === '{')) space = true;
    else if (cur.kind === 'p' && (cur.text === '{' || cur.text === '}')) space = true;
    else if (prev.kind === 'p' && prev.text === '}') space = true;
    else space = cur.spaced;
    out += (space ? ' ' : '') + cur.text;
  }
  return out;
}
