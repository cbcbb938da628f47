// Reading the documentation's Markdown the way the doc checks need it: fenced code blocks with
// their info strings and line numbers, headings with the anchors GitHub gives them, and links.
// Not a Markdown renderer: just enough of CommonMark for the pages this repository writes.
import GithubSlugger from 'github-slugger';

/** A fenced code block: ```` ```kit error=duplicate_route ```` gives lang `kit`, attrs `{error: 'duplicate_route'}`. */
export interface Block {
  lang: string;
  /** `key=value` words of the info string; a bare word is `key: ''`. */
  attrs: Record<string, string>;
  body: string;
  /** 1-based line of the first line of the body. */
  line: number;
}

export interface Link {
  target: string;
  line: number;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*(.*)$/;

/** Splits an info string into its language and attributes. */
export function parseInfo(info: string): { lang: string; attrs: Record<string, string> } {
  const words = info.trim().split(/\s+/).filter(Boolean);
  const attrs: Record<string, string> = {};
  for (const w of words.slice(1)) {
    const eq = w.indexOf('=');
    if (eq < 0) attrs[w] = '';
    else attrs[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return { lang: words[0] ?? '', attrs };
}

/** Every fenced code block of a page, in order. */
export function codeBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length && close[3].trim() === '') break;
      body.push(lines[j].startsWith(open[1]) ? lines[j].slice(open[1].length) : lines[j]);
    }
    out.push({ ...parseInfo(open[3]), body: body.join('\n') + (body.length ? '\n' : ''), line: i + 2 });
    i = j;
  }
  return out;
}

/** The page's lines with fenced code blocks blanked, so nothing inside them reads as a heading or a link. */
function proseLines(text: string): string[] {
  const lines = text.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[2][0] === fence[0] && m[2].length >= fence.length && m[3].trim() === '') fence = undefined;
      return '';
    }
    if (m) {
      fence = m[2];
      return '';
    }
    return line;
  });
}

/** Inline code spans taken out of a line (GitHub's link and heading rules never look inside them). */
function withoutCode(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, '');
}

/** A heading's text as GitHub renders it: code spans keep their text, links their label, emphasis goes. */
export function headingText(raw: string): string {
  return raw
    .replace(/(`+)([^`]*?)\1/g, (_m, _f, code: string) => code.replace(/\*/g, '\u0000'))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*+/g, '')
    .replace(/\u0000/g, '*')
    .replace(/<[^>]+>/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .trim();
}

/** The anchors a page offers: GitHub's slug of every heading (repeats get `-1`, `-2`), and `<a id>` / `<a name>`. */
export function anchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) out.add(slugger.slug(headingText(h[1])));
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

/** Every link target of the prose: inline links and images, and reference definitions. */
export function links(text: string): Link[] {
  const out: Link[] = [];
  proseLines(text).forEach((raw, i) => {
    const line = withoutCode(raw);
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ target: m[1], line: i + 1 });
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def) out.push({ target: def[1], line: i + 1 });
    for (const m of line.matchAll(/<a\s+[^>]*href="([^"]+)"/g)) out.push({ target: m[1], line: i + 1 });
  });
  return out;
}
