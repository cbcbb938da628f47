// Generators of realistic `.kit` sources, shared by the grammar tests and the grammar benchmark.

/** One page of about 30 lines; `i` varies names, routes and the route shape (static, dynamic, rest). */
export function generatePage(i: number): string {
  const shape = i % 3;
  const route = shape === 0 ? `/p${i}/about` : shape === 1 ? `/blog${i}/{slug}` : `/docs${i}/{path...}`;
  const data =
    shape === 1
      ? `paths {\n  => { slug: "first-${i}" }\n  => { slug: "second-${i}" }\n}\n`
      : shape === 2
        ? `server {\n  => { items, user.name }\n}\n`
        : `paths {\n}\n`;
  const guard = i % 2 === 0 ? 'public' : 'auth.required, role:admin';
  return `package site${i % 7}

route "${route}"
guard ${guard}
layout frame, reading
title "Page ${i}"
cache "public, max-age=60"
revalidate 5m

${data}
act Save${i} POST "/p${i}/save"
api Ping${i} GET "/api/p${i}/ping" cors origins "https://app.example" maxAge 600

view {
  <main class="page">
    <Card title="Item ${i}" .wide>
      <h1>{title}</h1>
      <p data-id="{param(\\"slug\\")}">Text ${i} here</p>
    </Card>
    <ul>
      <li g:for={item in items} g:lane="server"><a href="/items/{item.id}">{item.name}</a></li>
    </ul>
    <form g:post={Save${i}}>
      <input name="q" required />
      <button type="submit">Go</button>
    </form>
  </main>
}
`;
}

/** A fragment declaration of `lines` + 2 lines. */
export function generateFragment(i: number, lines = 10): string {
  let body = '';
  for (let k = 0; k < lines - 2; k++) body += `  <tr class="row-${k}"><td>{row.name}</td><td>${i}-${k}</td></tr>\n`;
  return `fragment Row${i} GET "/rows${i}/{id:int}" "#rows${i}" {\n  <tbody>\n${body}  </tbody>\n}\n`;
}

/**
 * A large file made of many declarations: a header, then repeated groups of one-line declarations,
 * fragments and a paths block, until at least `lines` lines; a view closes it.
 */
export function generateLargeFile(lines: number): string {
  const parts: string[] = ['package big\n\nroute "/big/{slug}"\nguard public\n\n'];
  let count = 5;
  let i = 0;
  while (count < lines - 12) {
    const frag = generateFragment(i, 20);
    parts.push(`act Save${i} POST "/big/save${i}"\napi Get${i} GET "/api/big${i}"\n\n`, frag, '\n');
    count += 3 + 22 + 1;
    i++;
  }
  parts.push('view {\n  <main>\n    <h1>{slug}</h1>\n  </main>\n}\n');
  return parts.join('');
}

/** One `view` of about `lines` lines (the worst case for incremental re-parsing). */
export function generateGiantView(lines: number): string {
  let body = '';
  for (let k = 0; k < lines - 8; k++) body += `    <p class="x-${k}">Line ${k} {item.name}</p>\n`;
  return `package big\n\nroute "/giant"\nguard public\n\nview {\n  <main>\n${body}  </main>\n}\n`;
}

/** A page file of `n` one-line declarations (for the linear-time check). */
export function generateManyDeclarations(n: number): string {
  const out: string[] = ['package many\nroute "/many"\nguard public\n'];
  for (let k = 0; k < n; k++) {
    const m = k % 4;
    if (m === 0) out.push(`act Save${k} POST "/many/s${k}"\n`);
    else if (m === 1) out.push(`api Get${k} GET "/api/many/${k}" cors origins "https://a.example" maxAge 60\n`);
    else if (m === 2) out.push(`title "Title ${k}"\n`);
    else out.push(`layout frame${k}, reading\n`);
  }
  return out.join('');
}
