// The site of the build comparison (`build.bench.ts`), written once per tool in that tool's own
// idiom: kit (`.kit` pages, a layout, a component), Hugo (Markdown content, a base template, a
// shortcode), Eleventy (Markdown content, a Nunjucks layout, a shortcode) and Astro (`.astro` pages,
// a layout, a component). Every page has a layout with header, nav and footer, a title, four
// paragraphs, ten links and one component used twice, and every tool's output carries the same
// visible text (`page-text.ts` checks it). Pages are `/p/1` … `/p/N`, each written to
// `p/<i>/index.html`. The text avoids what Markdown's typographers rewrite (quotes, dashes, dots).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Tool = 'kit' | 'hugo' | 'eleventy' | 'astro';

/** What one page says, whatever writes it. */
interface PageModel {
  title: string;
  paragraphs: string[];
  notes: [{ label: string; text: string }, { label: string; text: string }];
  links: number[];
}

function pageModel(i: number, pages: number): PageModel {
  const links: number[] = [];
  for (let k = 1; k <= 10; k++) links.push(((i - 1 + k * 37) % pages) + 1);
  return {
    title: `Page ${i}`,
    paragraphs: [
      `Page ${i} opens with a paragraph of plain text, the kind every generated page carries.`,
      `Its second paragraph adds a little more weight, so that page ${i} reads like real prose.`,
      `The third paragraph talks about nothing in particular and stays on one line of page ${i}.`,
      `A last paragraph closes page ${i} before the list of links that follows it.`,
    ],
    notes: [
      { label: 'Tip', text: `First note of page ${i}` },
      { label: 'See also', text: `Second note of page ${i}` },
    ],
    links,
  };
}

/** The nav of every page: the first three pages (fewer on a smaller site). */
function navPages(pages: number): number[] {
  return [1, 2, 3].filter((p) => p <= pages);
}
const NAV_NAMES = ['First', 'Second', 'Third'];
const BRAND = 'Bench';
const FOOTER = 'Generated for the build benchmark';
const NOTE_HTML = (label: string, text: string) =>
  `<aside class="note"><strong>${label}</strong> <span>${text}</span></aside>`;
const CSS_SHELL = '.shell { max-width: 60rem; margin: 0 auto; }\n.top { display: flex; }';
const CSS_NOTE = '.note { border-left: 3px solid #888; padding: 0 1rem; }';

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Writes the site of `pages` pages for `tool` into `dir` (replacing what is there, `node_modules` links aside). */
export function writePeerSite(tool: Tool, dir: string, pages: number): void {
  if (pages < 1) throw new Error('a site needs at least one page');
  ({ kit: kitSite, hugo: hugoSite, eleventy: eleventySite, astro: astroSite })[tool](dir, pages);
}

// ---- kit

function kitSite(dir: string, pages: number): void {
  rmSync(dir, { recursive: true, force: true });
  const nav = navPages(pages)
    .map((p, k) => `<a href="/p/${p}">${NAV_NAMES[k]}</a>`)
    .join(' ');
  write(
    join(dir, 'main.layout.kit'),
    `package site

view {
  <div class="shell">
    <header class="top"><a href="/p/1" class="brand">${BRAND}</a></header>
    <nav>${nav}</nav>
    <main><slot /></main>
    <footer>${FOOTER}</footer>
  </div>
}

style {
  ${CSS_SHELL.replace('\n', '\n  ')}
}
`,
  );
  write(
    join(dir, 'note.cmp.kit'),
    `package site

component Note

props {
  label string
  text string
}

view {
  ${NOTE_HTML('{label}', '{text}')}
}

style {
  ${CSS_NOTE}
}
`,
  );
  for (let i = 1; i <= pages; i++) {
    const m = pageModel(i, pages);
    const note = (n: { label: string; text: string }) => `  <Note label="${n.label}" text="${n.text}" />`;
    write(
      join(dir, `p${i}.kit`),
      `package site

page p${i}
route "/p/${i}"
guard public
layout main
title "${m.title}"

view {
  <h1>${m.title}</h1>
  <p>${m.paragraphs[0]}</p>
  <p>${m.paragraphs[1]}</p>
${note(m.notes[0])}
  <p>${m.paragraphs[2]}</p>
  <p>${m.paragraphs[3]}</p>
  <ul class="links">
${m.links.map((p) => `    <li><a href="/p/${p}">Page ${p}</a></li>`).join('\n')}
  </ul>
${note(m.notes[1])}
}
`,
    );
  }
}

// ---- Hugo and Eleventy: Markdown pages; the document around them is the same template text.

function documentTemplate(pages: number, title: string, content: string): string {
  const nav = navPages(pages)
    .map((p, k) => `<a href="/p/${p}/">${NAV_NAMES[k]}</a>`)
    .join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/site.css">
</head>
<body>
<div class="shell">
<header class="top"><a href="/p/1/" class="brand">${BRAND}</a></header>
<nav>${nav}</nav>
<main>${content}</main>
<footer>${FOOTER}</footer>
</div>
</body>
</html>
`;
}

/** A page's Markdown; `note` writes the call of the note shortcode in the tool's syntax. */
function markdownBody(m: PageModel, note: (label: string, text: string) => string): string {
  return `# ${m.title}

${m.paragraphs[0]}

${m.paragraphs[1]}

${note(m.notes[0].label, m.notes[0].text)}

${m.paragraphs[2]}

${m.paragraphs[3]}

${m.links.map((p) => `- [Page ${p}](/p/${p}/)`).join('\n')}

${note(m.notes[1].label, m.notes[1].text)}
`;
}

function hugoSite(dir: string, pages: number): void {
  rmSync(dir, { recursive: true, force: true });
  // Only the pages: no home, section, taxonomy, feed, sitemap or 404 page (kit writes none of them here).
  write(
    join(dir, 'config.toml'),
    `baseURL = "/"
title = "${BRAND}"
disableKinds = ["home", "section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
`,
  );
  write(
    join(dir, 'layouts', '_default', 'baseof.html'),
    documentTemplate(pages, '{{ .Title }}', '{{ block "main" . }}{{ end }}'),
  );
  write(join(dir, 'layouts', '_default', 'single.html'), '{{ define "main" }}{{ .Content }}{{ end }}\n');
  write(join(dir, 'layouts', 'shortcodes', 'note.html'), NOTE_HTML('{{ .Get "label" }}', '{{ .Get "text" }}') + '\n');
  write(join(dir, 'static', 'site.css'), `${CSS_SHELL}\n${CSS_NOTE}\n`);
  for (let i = 1; i <= pages; i++) {
    const m = pageModel(i, pages);
    write(
      join(dir, 'content', 'p', `${i}.md`),
      `---\ntitle: "${m.title}"\n---\n\n` + markdownBody(m, (l, t) => `{{< note label="${l}" text="${t}" >}}`),
    );
  }
}

function eleventySite(dir: string, pages: number): void {
  rmSync(dir, { recursive: true, force: true });
  write(
    join(dir, 'eleventy.config.mjs'),
    `export default function (config) {
  config.addShortcode('note', (label, text) => \`${NOTE_HTML('${label}', '${text}')}\`);
  config.addPassthroughCopy({ 'site.css': 'site.css' });
  return { dir: { input: 'src', output: '_site' } };
}
`,
  );
  write(join(dir, 'site.css'), `${CSS_SHELL}\n${CSS_NOTE}\n`);
  write(join(dir, 'src', '_includes', 'main.njk'), documentTemplate(pages, '{{ title }}', '{{ content | safe }}'));
  for (let i = 1; i <= pages; i++) {
    const m = pageModel(i, pages);
    write(
      join(dir, 'src', 'p', `${i}.md`),
      `---\nlayout: main.njk\ntitle: "${m.title}"\n---\n\n` + markdownBody(m, (l, t) => `{% note "${l}", "${t}" %}`),
    );
  }
}

// ---- Astro

function astroSite(dir: string, pages: number): void {
  rmSync(join(dir, 'src'), { recursive: true, force: true });
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const nav = navPages(pages)
    .map((p, k) => `<a href="/p/${p}/">${NAV_NAMES[k]}</a>`)
    .join(' ');
  write(
    join(dir, 'src', 'layouts', 'Main.astro'),
    `---
const { title } = Astro.props;
---
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title></head>
<body>
  <div class="shell">
    <header class="top"><a href="/p/1/" class="brand">${BRAND}</a></header>
    <nav>${nav}</nav>
    <main><slot /></main>
    <footer>${FOOTER}</footer>
  </div>
</body>
</html>
<style>
  ${CSS_SHELL.replace('\n', '\n  ')}
</style>
`,
  );
  write(
    join(dir, 'src', 'components', 'Note.astro'),
    `---
const { label, text } = Astro.props;
---
${NOTE_HTML('{label}', '{text}')}
<style>
  ${CSS_NOTE}
</style>
`,
  );
  for (let i = 1; i <= pages; i++) {
    const m = pageModel(i, pages);
    const note = (n: { label: string; text: string }) => `  <Note label="${n.label}" text="${n.text}" />`;
    write(
      join(dir, 'src', 'pages', 'p', `${i}.astro`),
      `---
import Main from '../../layouts/Main.astro';
import Note from '../../components/Note.astro';
---
<Main title="${m.title}">
  <h1>${m.title}</h1>
  <p>${m.paragraphs[0]}</p>
  <p>${m.paragraphs[1]}</p>
${note(m.notes[0])}
  <p>${m.paragraphs[2]}</p>
  <p>${m.paragraphs[3]}</p>
  <ul class="links">
${m.links.map((p) => `    <li><a href="/p/${p}/">Page ${p}</a></li>`).join('\n')}
  </ul>
${note(m.notes[1])}
</Main>
`,
    );
  }
}
