// What a reader sees of each page a build wrote: the pages (`<path>/index.html`) of an output
// directory and each one's visible text (its title, then its body without tags, scripts and styles,
// entities decoded, whitespace collapsed). Two tools built the same site when both hold the same
// pages with the same text, however differently they lay out their markup.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** The visible text of an HTML document: its title, a line break, its body's text. */
export function visibleText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '';
  const at = html.search(/<body[\s>]/i);
  const body = (at >= 0 ? html.slice(at) : html)
    .replace(/<(script|style)[\s>][\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  const squeeze = (s: string) => decode(s).replace(/\s+/g, ' ').trim();
  return `${squeeze(title)}\n${squeeze(body)}`;
}

/** Every page of an output directory (`a/b/index.html` → `/a/b`) with its visible text. */
export function pageTexts(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, path: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${path}/${e.name}`);
      else if (e.name === 'index.html') out.set(path || '/', visibleText(readFileSync(join(d, e.name), 'utf8')));
    }
  };
  walk(dir, '');
  return out;
}

/** Undefined when both outputs hold the same pages with the same text; else the first difference. */
export function compareTexts(expected: Map<string, string>, actual: Map<string, string>): string | undefined {
  if (expected.size !== actual.size) {
    const missing = [...expected.keys()].find((p) => !actual.has(p));
    const extra = [...actual.keys()].find((p) => !expected.has(p));
    return `${actual.size} pages instead of ${expected.size}${missing ? `; missing ${missing}` : ''}${extra ? `; extra ${extra}` : ''}`;
  }
  for (const [path, text] of expected) {
    const other = actual.get(path);
    if (other === undefined) return `no page ${path}`;
    if (other !== text) {
      let i = 0;
      while (i < text.length && text[i] === other[i]) i++;
      const near = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 30), i + 40));
      return `${path} differs: expected …${near(text)}…, found …${near(other)}…`;
    }
  }
  return undefined;
}
