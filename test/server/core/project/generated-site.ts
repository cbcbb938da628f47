// A generated multi-directory workspace for the loading tests: enough `.kit` files to cross the
// loading pool's threshold, each directory with its own package, layout and components (props,
// named and scoped slots), pages with static and dynamic routes, internal links, fragments and an
// action, so that every part of a file's analysis crosses the thread boundary. It builds without
// errors, with warnings found by a file alone (an id twice, `paths {}` on a static route) and across files (an
// unknown prop), so that diagnostics cross the boundary too.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function component(dir: number): string {
  return [
    `package pkg${dir}`,
    '',
    `component Card${dir}`,
    '',
    'props {',
    '  heading string',
    '  note string = "none"',
    '}',
    '',
    'view {',
    '  <section class="card">',
    '    <h2><slot name="title" text={heading}>{heading}</slot></h2>',
    '    <slot />',
    '    <footer><slot name="foot" value={note} /></footer>',
    '  </section>',
    '}',
    '',
  ].join('\n');
}

function layout(dir: number): string {
  return [`package pkg${dir}`, '', 'view {', `  <div class="shell d${dir}"><slot /></div>`, '}', ''].join('\n');
}

function page(dir: number, i: number, perDir: number): string {
  const dynamic = i % 5 === 3;
  const route = dynamic ? `/d${dir}/p${i}/{slug}` : `/d${dir}/p${i}`;
  const next = (i + 1) % perDir === 0 ? i + 1 - perDir : i + 1;
  const lines = [`package pkg${dir}`, '', `page p${dir}.n${i}`, `route "${route}"`, 'guard public', 'layout main'];
  lines.push(`title "Page ${i} of directory ${dir}"`);
  if (dynamic) lines.push('', 'paths {', `  => { slug: "a${i}" }`, `  => { slug: "b${i}" }`, '}');
  else if (i % 13 === 7) lines.push('', 'paths {', '  => { slug: "unused" }', '}');
  if (i % 4 === 1)
    lines.push('', `fragment Part${i} GET "/d${dir}/parts/p${i}" "#part${i}" {`, `  <p>part ${i}</p>`, '}');
  lines.push(
    '',
    'view {',
    '  <main class="page">',
    `    <h1 id="top">Page ${i}</h1>`,
    i % 11 === 4 ? '    <p id="top">Same id</p>' : '    <p>Text</p>',
    `    <Card${dir} heading="Card ${i}"${i % 17 === 5 ? ' bogus="x"' : ''}>`,
    `      <template g:slot="title" let:text><b>{text}</b> ${i}</template>`,
    `      <p>Body of page ${i}${dynamic ? ' {slug}' : ''}.</p>`,
    '    </Card' + dir + '>',
    `    <a href="/d${dir}/p${next}${next % 5 === 3 ? `/a${next}` : ''}">Next</a>`,
    i % 4 === 1 ? `    <div id="part${i}"></div>` : '    <img src="/logo.png" />',
    '  </main>',
    '}',
    '',
  );
  return lines.join('\n');
}

/** Writes `dirs` directories of `perDir` pages (plus a layout and a component each) under `root`. */
export function writeGeneratedSite(root: string, dirs: number, perDir: number): number {
  let files = 0;
  const write = (path: string, text: string) => {
    const p = join(root, path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    files++;
  };
  for (let d = 0; d < dirs; d++) {
    write(`d${d}/main.layout.kit`, layout(d));
    write(`d${d}/card.cmp.kit`, component(d));
    for (let i = 0; i < perDir; i++) write(`d${d}/p${i}.kit`, page(d, i, perDir));
  }
  return files;
}
