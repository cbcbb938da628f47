// Every relative link of the documentation leads somewhere: the file exists, and a `#anchor` names
// a heading (GitHub's slug) or an `<a id>` of the page it points into. Links to other sites are
// not followed: this check runs offline and must not depend on anyone else's pages.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchors, links } from './markdown.js';
import { docPages, repoRoot } from './pages.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Problems with the links of the documentation under `root`, one line each (`file:line: ...`). */
export function checkLinks(root: string = repoRoot): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string): Set<string> => {
    let set = anchorCache.get(file);
    if (!set) anchorCache.set(file, (set = anchors(readFileSync(file, 'utf8'))));
    return set;
  };
  for (const page of docPages(root)) {
    for (const link of links(page.text)) {
      if (SCHEME.test(link.target) || link.target.startsWith('//')) continue;
      const hash = link.target.indexOf('#');
      const path = decodeURI(hash < 0 ? link.target : link.target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
      const where = `${page.path}:${link.line}: link "${link.target}"`;
      const file = path === '' ? join(root, page.path) : normalize(join(root, dirname(page.path), path));
      if (!file.startsWith(root)) {
        problems.push(`${where} points outside the repository`);
        continue;
      }
      if (!existsSync(file)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md')) {
        problems.push(`${where}: an anchor into a file that is not a Markdown page`);
        continue;
      }
      if (!anchorsOf(file).has(anchor)) problems.push(`${where}: no heading or anchor "#${anchor}" there`);
    }
  }
  return problems;
}
