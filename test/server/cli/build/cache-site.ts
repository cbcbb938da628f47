// A small project for the build cache's tests, written from a model that random edits change: pages
// (static and `paths {}` routes, titles, layouts, css selections, links, a fragment), two nested
// layouts (the outer one with an error document), a component with props and a slot, a css file, a
// TypeScript module script, an image, a kit.config.ts and a tsconfig.json that maps `.kit-types` in.
// Every kind of input a page's output is made from can be edited, and files added and removed.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export interface PageModel {
  title: string;
  body: string;
  layout: 'outer' | 'inner' | 'none';
  css: 'default' | 'page' | 'none' | 'extra';
  /** Slugs of a `paths {}` route; none: a static route. */
  slugs: string[];
  /** The page its link points to (-1: a page that does not exist, a warning). */
  link: number;
  /** A fragment: an endpoint, so the records alone cannot check the project. */
  fragment: boolean;
  /** An element the component does not know: an error. */
  broken: boolean;
  /** Its own style block. */
  style: string;
  /** It calls the second component, `Badge` (an error while that one does not exist). */
  badge: boolean;
}

export interface SiteModel {
  pages: Map<number, PageModel>;
  next: number;
  outer: string;
  inner: string;
  note: string;
  noteStyle: string;
  css: string;
  js: string;
  logo: string;
  error: string;
  config: string;
  /** The second component exists (an unused one still decides what its name resolves to). */
  badge: boolean;
  ssr: boolean;
}

export function initialModel(): SiteModel {
  const pages = new Map<number, PageModel>();
  const model: SiteModel = {
    pages,
    next: 0,
    outer: 'Outer header',
    inner: 'Inner aside',
    note: 'Note',
    noteStyle: 'border: 1px solid gray;',
    css: '.extra { color: red; }',
    js: "const greeting: string = 'hello';\nconsole.log(greeting);",
    logo: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>',
    error: '<main class="error"><h1>Error {status}</h1><p>{message}</p></main>',
    config: '// first',
    badge: false,
    ssr: false,
  };
  for (let i = 0; i < 5; i++) addPage(model, i % 2 === 0 ? 'outer' : 'inner');
  return model;
}

export function addPage(m: SiteModel, layout: PageModel['layout'] = 'outer'): number {
  const i = m.next++;
  m.pages.set(i, {
    title: `Page ${i}`,
    body: `Body of page ${i}`,
    layout,
    css: 'default',
    slugs: i === 3 ? ['a', 'b'] : [],
    link: (i + 1) % 4,
    fragment: false,
    broken: false,
    style: '',
    badge: false,
  });
  return i;
}

function pageText(i: number, p: PageModel): string {
  const lines = ['package site', '', `page p${i}`, `route "/p${i}${p.slugs.length ? '/{slug}' : ''}"`, 'guard public'];
  if (p.layout !== 'none') lines.push(`layout ${p.layout}`);
  lines.push(`title "${p.title}"`);
  if (p.css === 'extra') lines.push('css default, extra');
  else if (p.css !== 'default') lines.push(`css ${p.css}`);
  if (i % 3 === 0) lines.push('js "./static/app.ts"');
  if (p.slugs.length) lines.push('', 'paths {', ...p.slugs.map((s) => `  => { slug: "${s}" }`), '}');
  if (p.fragment) lines.push('', `fragment Part GET "/p${i}/part" "#part" {`, `  <p>part of ${i}</p>`, '}');
  const href = p.link < 0 ? '/missing' : `/p${p.link}`;
  lines.push(
    '',
    'view {',
    `  <h1>${p.title}</h1>`,
    `  <p id="part">${p.body}${p.slugs.length ? ' {slug}' : ''}</p>`,
    `  <Note label="n${i}">in ${i}</Note>`,
    `  <a href="${href}">next</a>`,
    i % 2 === 0 ? '  <img src="./img/logo.svg" alt="logo" />' : '',
    p.broken ? '  <Missing />' : '',
    p.badge ? '  <Badge />' : '',
    '}',
  );
  if (i % 2 === 0) lines.splice(5, 0, 'asset "./img/logo.svg"');
  if (p.style) lines.push('', 'style {', `  h1 { ${p.style} }`, '}');
  return lines.filter((l, k) => l !== '' || lines[k - 1] !== '').join('\n') + '\n';
}

/** Writes the model's project into `root` (the site under `root/site`), removing pages it no longer has. */
export function writeSite(root: string, m: SiteModel): void {
  // As an editor leaves a project: a file whose text is the same is not written again (the build
  // may then trust what the file system says of it), and the files the model no longer has go.
  const wanted = new Map<string, string>();
  const write = (rel: string, text: string) => wanted.set(rel, text);
  write('package.json', '{ "name": "cache-site", "private": true }\n');
  write('tsconfig.json', '{ "compilerOptions": { "rootDirs": [".", ".kit-types"] } }\n');
  write('kit.config.ts', `${m.config}\nexport const ssr = ${m.ssr};\n`);
  if (m.badge)
    write('site/badge.cmp.kit', 'package site\n\ncomponent Badge\n\nview {\n  <span class="badge">B</span>\n}\n');
  write(
    'site/outer.layout.kit',
    `package site\n\ntitle "Site"\nerror "./error.html"\n\nview {\n  <header>${m.outer}</header>\n  <main><slot /></main>\n}\n\nstyle {\n  header { margin: 0; }\n}\n`,
  );
  write(
    'site/inner.layout.kit',
    `package site\n\nlayout outer\n\nview {\n  <aside>${m.inner}</aside>\n  <section><slot /></section>\n}\n`,
  );
  write(
    'site/note.cmp.kit',
    `package site\n\ncomponent Note\n\nprops {\n  label string\n}\n\nview {\n  <aside class="note"><b>{label}</b> ${m.note} <slot /></aside>\n}\n\nstyle {\n  .note { ${m.noteStyle} }\n}\n`,
  );
  write('site/extra.css', m.css + '\n');
  write('site/static/app.ts', m.js + '\n');
  write('site/img/logo.svg', m.logo + '\n');
  write('site/error.html', m.error + '\n');
  for (const [i, p] of m.pages) write(`site/p${i}.kit`, pageText(i, p));
  const site = join(root, 'site');
  if (existsSync(site))
    for (const f of readdirSync(site, { recursive: true, withFileTypes: true }))
      if (f.isFile() && !wanted.has(relative(root, join(f.parentPath, f.name)).split(sep).join('/')))
        rmSync(join(f.parentPath, f.name));
  for (const [rel, text] of wanted) {
    const p = join(root, rel);
    if (existsSync(p) && readFileSync(p, 'utf8') === text) continue;
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}
