// The app config module: `kit.config.ts` (or .mts/.js/.mjs) in a directory of `.kit` sources. It
// registers protective guards by ID for generated apps:
//
//   import { allow, deny, redirectTo, app } from '@kit-lang/kit/app';
//   export const guards = {
//     'auth.required': (ctx) => (app.cookie(ctx, 'session') ? allow() : redirectTo('/login')),
//     'role:admin': (ctx) => deny(),
//   };
//
// (`export default { guards: {...} }` works too.) The checker reads the registered IDs statically,
// without running the module, to warn about guards nothing registers (`unknown_guard`); the
// generated app imports the module and fails closed (403) for any ID it lacks.
import { baseName } from './names.js';

const CONFIG_NAME = /^kit\.config\.(ts|mts|js|mjs)$/;

export function isAppConfigPath(path: string): boolean {
  return CONFIG_NAME.test(baseName(path));
}

export interface RegisteredGuards {
  /** Guard IDs found as keys of the `guards` object. */
  ids: Set<string>;
  /** False when the module has a `guards` export whose keys cannot be read statically (no warnings then). */
  complete: boolean;
}

/** A token and where it starts and ends in the text (a string's quotes included). */
type Tok = { t: 'id' | 'str' | 'punct'; v: string; start: number; end: number };

/**
 * A small tokenizer: identifiers, string literals and punctuation; comments, numbers and template literals
 * are skipped.
 */
function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let v = '';
      while (j < n && text[j] !== c && text[j] !== '\n') {
        if (text[j] === '\\' && j + 1 < n) {
          v += text[j + 1];
          j += 2;
        } else v += text[j++];
      }
      out.push({ t: 'str', v, start: i, end: Math.min(n, j + 1) });
      i = j + 1;
    } else if (c === '`') {
      // Template literals: skipped whole (nested `${}` with backticks is beyond a config's needs).
      let j = i + 1;
      while (j < n && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      out.push({ t: 'str', v: '\u0000template', start: i, end: Math.min(n, j + 1) });
      i = j + 1;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(text[j])) j++;
      out.push({ t: 'id', v: text.slice(i, j), start: i, end: j });
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(text[j])) j++;
      out.push({ t: 'id', v: text.slice(i, j), start: i, end: j });
      i = j;
    } else {
      out.push({ t: 'punct', v: c, start: i, end: i + 1 });
      i++;
    }
  }
  return out;
}

const OPEN = new Set(['{', '(', '[', '<']);
const CLOSE: Record<string, string> = { '}': '{', ')': '(', ']': '[', '>': '<' };

/** Keys of the object literal starting at token `start` (`{`), or undefined when it is not a plain literal. */
function objectKeys(toks: Tok[], start: number): { keys: Tok[]; complete: boolean } {
  const keys: Tok[] = [];
  let complete = true;
  let depth = 0;
  let expectKey = true;
  for (let i = start; i < toks.length; i++) {
    const tk = toks[i];
    if (tk.t === 'punct' && (tk.v === '{' || tk.v === '(' || tk.v === '[')) {
      depth++;
      if (depth === 2 && expectKey && tk.v === '[') complete = false; // computed key
      continue;
    }
    if (tk.t === 'punct' && (tk.v === '}' || tk.v === ')' || tk.v === ']')) {
      depth--;
      if (depth === 0) return { keys, complete };
      continue;
    }
    if (depth !== 1) continue;
    if (tk.t === 'punct' && tk.v === ',') {
      expectKey = true;
      continue;
    }
    if (!expectKey) continue;
    if (tk.t === 'punct' && tk.v === '.') {
      complete = false; // `...spread`
      expectKey = false;
      continue;
    }
    if (tk.t === 'str' || tk.t === 'id') {
      const next = toks[i + 1];
      const isModifier =
        tk.t === 'id' &&
        (tk.v === 'async' || tk.v === 'get' || tk.v === 'set') &&
        next &&
        (next.t === 'id' || next.t === 'str');
      if (isModifier) continue;
      if (tk.t === 'str' && tk.v === '\u0000template') complete = false;
      else keys.push(tk);
      expectKey = false;
    }
  }
  return { keys, complete: false };
}

/** The guard IDs a config module registers, read from its text. */
export function registeredGuards(text: string): RegisteredGuards {
  const r = guardKeys(text);
  return { ids: new Set(r.keys.map((k) => k.v)), complete: r.complete };
}

/**
 * Where a config module registers each guard ID: the offsets of its first key in the text (the
 * string's quotes included), for the editor to point at the guard.
 */
export function guardKeyOffsets(text: string): Map<string, { start: number; end: number }> {
  const out = new Map<string, { start: number; end: number }>();
  for (const k of guardKeys(text).keys) if (!out.has(k.v)) out.set(k.v, { start: k.start, end: k.end });
  return out;
}

function guardKeys(text: string): { keys: Tok[]; complete: boolean } {
  const toks = tokenize(text);
  const keys: Tok[] = [];
  let found = false;
  let complete = true;
  for (let i = 0; i < toks.length; i++) {
    const tk = toks[i];
    if (tk.t !== 'id' || tk.v !== 'guards') continue;
    // `guards = {`, `guards: Type = {`, or a property `guards: {` (in a default export).
    let j = i + 1;
    const next = toks[j];
    if (!next || next.t !== 'punct' || (next.v !== '=' && next.v !== ':')) continue;
    if (next.v === ':') {
      // A property `guards: {` or a type annotation `guards: Record<...> = {`.
      let k = j + 1;
      if (toks[k]?.t === 'punct' && toks[k].v === '{') {
        j = k;
      } else {
        let depth = 0;
        for (; k < toks.length; k++) {
          const t = toks[k];
          if (t.t === 'punct' && OPEN.has(t.v)) depth++;
          else if (t.t === 'punct' && CLOSE[t.v] !== undefined) depth--;
          else if (depth === 0 && t.t === 'punct' && (t.v === '=' || t.v === ',' || t.v === ';' || t.v === '}')) break;
        }
        if (toks[k]?.v !== '=') {
          // `guards: someValue` — not readable statically.
          found = true;
          complete = false;
          continue;
        }
        j = k + 1;
      }
    } else j = j + 1;
    const open = toks[j];
    found = true;
    if (!open || open.t !== 'punct' || open.v !== '{') {
      complete = false;
      continue;
    }
    const r = objectKeys(toks, j);
    keys.push(...r.keys);
    if (!r.complete) complete = false;
  }
  return { keys, complete: found ? complete : true };
}
