// Generates the benchmark sites: N pages, each with a layout, two components and a link, once as
// `.kit` sources and once as an equivalent Astro project (same markup, same scoped styles).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function kitSite(dir: string, pages: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'main.layout.kit'),
    `package site

view {
  <div class="shell">
    <header class="top"><a href="/" class="brand">Bench</a></header>
    <main><slot /></main>
    <footer>Generated for the build benchmark</footer>
  </div>
}

style {
  .shell { max-width: 60rem; margin: 0 auto; }
  .top { display: flex; }
}
`,
  );
  writeFileSync(
    join(dir, 'banner.cmp.kit'),
    `package site

component Banner

props {
  heading string
  level int = 1
}

view {
  <section class="banner" data-level="{level}"><h1>{heading}</h1></section>
}

style {
  .banner { padding: 2rem; }
}
`,
  );
  writeFileSync(
    join(dir, 'card.cmp.kit'),
    `package site

component Card

props {
  title string
}

view {
  <article class="card">
    <h2>{title}</h2>
    <slot />
  </article>
}

style {
  .card { border: 1px solid #ddd; }
}
`,
  );
  for (let i = 0; i < pages; i++) {
    writeFileSync(
      join(dir, `p${i}.kit`),
      `package site

page p${i}
route "${i === 0 ? '/' : `/p/${i}`}"
guard public
layout main
title "Page ${i}"

view {
  <Banner heading="Page ${i}" />
  <Card title="Card ${i}">
    <p>Body of page ${i}: static text that every page carries.</p>
  </Card>
  <a href="/p/${(i + 1) % pages || 1}">Next page</a>
}
`,
    );
  }
}

export function astroSite(dir: string, pages: number): void {
  rmSync(join(dir, 'src'), { recursive: true, force: true });
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  mkdirSync(join(dir, 'src', 'layouts'), { recursive: true });
  mkdirSync(join(dir, 'src', 'components'), { recursive: true });
  mkdirSync(join(dir, 'src', 'pages', 'p'), { recursive: true });
  writeFileSync(
    join(dir, 'src', 'layouts', 'Main.astro'),
    `---
const { title } = Astro.props;
---
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title></head>
<body>
  <div class="shell">
    <header class="top"><a href="/" class="brand">Bench</a></header>
    <main><slot /></main>
    <footer>Generated for the build benchmark</footer>
  </div>
</body>
</html>
<style>
  .shell { max-width: 60rem; margin: 0 auto; }
  .top { display: flex; }
</style>
`,
  );
  writeFileSync(
    join(dir, 'src', 'components', 'Banner.astro'),
    `---
const { heading, level = 1 } = Astro.props;
---
<section class="banner" data-level={level}><h1>{heading}</h1></section>
<style>
  .banner { padding: 2rem; }
</style>
`,
  );
  writeFileSync(
    join(dir, 'src', 'components', 'Card.astro'),
    `---
const { title } = Astro.props;
---
<article class="card">
  <h2>{title}</h2>
  <slot />
</article>
<style>
  .card { border: 1px solid #ddd; }
</style>
`,
  );
  for (let i = 0; i < pages; i++) {
    const file = i === 0 ? join(dir, 'src', 'pages', 'index.astro') : join(dir, 'src', 'pages', 'p', `${i}.astro`);
    writeFileSync(
      file,
      `---
import Main from '../${i === 0 ? '' : '../'}layouts/Main.astro';
import Banner from '../${i === 0 ? '' : '../'}components/Banner.astro';
import Card from '../${i === 0 ? '' : '../'}components/Card.astro';
---
<Main title="Page ${i}">
  <Banner heading="Page ${i}" />
  <Card title="Card ${i}">
    <p>Body of page ${i}: static text that every page carries.</p>
  </Card>
  <a href="/p/${(i + 1) % pages || 1}">Next page</a>
</Main>
`,
    );
  }
}
