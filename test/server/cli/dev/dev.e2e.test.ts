// `kit dev` over its public doors: the CLI process, HTTP, and the event stream the browser client
// listens on. Edits are real file writes into a temporary copy of test/fixtures/dev/site.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, copyFixture, delivered, eventually, EventTap, startDev, type DevProcess } from './dev-harness.js';

const CLIENT_TAG = '<script type="module" src="/_kit/dev/client.js"></script>';

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} contains ${from}`);
  writeFileSync(file, text.replace(from, to));
}

async function text(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const r = await fetch(url, { redirect: 'manual' });
  return { status: r.status, body: await r.text(), headers: r.headers };
}

describe('kit dev', function () {
  this.timeout(60000);
  let dir: string;
  let dev: DevProcess;
  const taps: EventTap[] = [];
  const tap = async (path: string) => {
    const t = new EventTap(dev.url, path);
    taps.push(t);
    await t.ready;
    // The stream opens with the overlay state (`clear` or `overlay`).
    await eventually(async () => assert.ok(t.events.length > 0));
    return t;
  };

  before(async () => {
    dir = copyFixture('dev', 'site');
    dev = await startDev(dir, ['--ssr']);
  });
  after(async () => {
    for (const t of taps) t.close();
    await dev?.stop();
  });

  it('prints a banner with the URL and the counts, and announces itself in .kit/', () => {
    assert.match(dev.out(), /^kit dev {2}ready in \d+ ms\n/);
    assert.match(dev.out(), /http:\/\/127\.0\.0\.1:\d+\/ {2}4 pages, 1 endpoint\n/);
    assert.match(dev.out(), /traces: http:\/\/127\.0\.0\.1:\d+\/_kit\/traces\/viewer/);
    const announced = JSON.parse(readFileSync(join(dir, '.kit', 'dev.json'), 'utf8'));
    assert.equal(announced.url, dev.url);
    assert.equal(announced.traces, dev.url + '/_kit/traces');
    assert.equal(announced.pid, dev.proc.pid);
    assert.equal(readFileSync(join(dir, '.kit', '.gitignore'), 'utf8'), '*\n');
    assert.match(readFileSync(join(dir, '.kit', 'dev-csrf-secret'), 'utf8'), /^[0-9a-f]{64}\n$/);
  });

  it('serves pages rendered from the sources with the client in the head; the client script is served', async () => {
    const home = await text(dev.url + '/');
    assert.equal(home.status, 200);
    assert.match(home.body, /<h1[^>]*>Home page<\/h1>/);
    assert.ok(home.body.includes(CLIENT_TAG + '</head>'), 'client tag before </head>');
    assert.equal(Number(home.headers.get('content-length')), Buffer.byteLength(home.body));
    const client = await text(dev.url + '/_kit/dev/client.js');
    assert.equal(client.status, 200);
    assert.match(client.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(client.body, /EventSource\('\/_kit\/dev\/events/);
    const ssr = await text(dev.url + '/contact');
    assert.match(ssr.body, /<h1>Hello v1<\/h1>/);
    assert.equal((await text(dev.url + '/_kit/dev/nope')).status, 404);
    assert.equal((await text(dev.url + '/nope')).status, 404);
  });

  it("the trace viewer knows where the sources are: every server span's source opens in the editor", async () => {
    await text(dev.url + '/contact');
    await text(dev.url + '/about');
    const viewer = (await text(dev.url + '/_kit/traces/viewer')).body;
    const root = /<meta name="kit-source-root" content="([^"]*)">/.exec(viewer)?.[1] ?? '';
    assert.ok(isAbsolute(root), `the viewer's source root is an absolute directory (got ${JSON.stringify(root)})`);
    const { spans } = JSON.parse((await text(dev.url + '/_kit/traces')).body) as {
      spans: { surface: string; source?: { file?: string; line?: number } }[];
    };
    const files = spans.filter((s) => s.surface === 'backend' && s.source?.file).map((s) => s.source!.file!);
    assert.ok(files.includes('contact.kit') && files.includes('handlers.ts'), `page and handler spans: ${files}`);
    for (const f of files) assert.ok(existsSync(join(root, f)), `${root}/${f} is the source file`);
  });

  it('the event stream answers GET only, and at most 100 at once (503 beyond, a slot freed by a close)', async () => {
    for (const method of ['OPTIONS', 'POST', 'HEAD', 'PUT', 'DELETE']) {
      const r = await fetch(dev.url + '/_kit/dev/events?path=/', { method });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'GET', method);
      assert.notEqual(r.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    }
    const script = await fetch(dev.url + '/_kit/dev/client.js', { method: 'POST' });
    assert.equal(script.status, 405);
    assert.equal(script.headers.get('allow'), 'GET, HEAD');
    const open: EventTap[] = [];
    try {
      for (let i = 0; i < 100; i++) open.push(new EventTap(dev.url, '/'));
      await Promise.all(open.map((t) => t.ready));
      const over = await fetch(dev.url + '/_kit/dev/events?path=/');
      assert.equal(over.status, 503);
      assert.equal(over.headers.get('retry-after'), '5');
      assert.match(await over.text(), /too many open event streams \(at most 100\)/);
      open.pop()!.close();
      await eventually(async () => {
        const again = new EventTap(dev.url, '/');
        open.push(again);
        await again.ready;
        await eventually(() => assert.deepEqual(again.namesSince(0), ['clear']), 500);
      });
    } finally {
      for (const t of open) t.close();
    }
  });

  it('an edit of a page reloads the tabs showing it, and no other tab hears anything', async () => {
    const home = await tap('/');
    const about = await tap('/about');
    const aboutFrom = about.events.length;
    const reload = home.next('reload');
    const line = dev.waitOut(/home\.kit changed → 1 page reloaded in \d+ ms/);
    edit(join(dir, 'home.kit'), 'Home page', 'Home page v2');
    await reload;
    await line;
    assert.match((await text(dev.url + '/')).body, /<h1[^>]*>Home page v2<\/h1>/);
    await delivered(dev);
    assert.deepEqual(about.namesSince(aboutFrom), [], 'the about tab heard nothing');
  });

  it('a layout edit reloads every page that renders it', async () => {
    const home = await tap('/');
    const about = await tap('/about');
    const post = await tap('/blog/first');
    const postFrom = post.events.length;
    const both = Promise.all([home.next('reload'), about.next('reload')]);
    edit(join(dir, 'main.layout.kit'), 'Dev fixture', 'Dev fixture v2');
    await both;
    assert.match((await text(dev.url + '/about')).body, /Dev fixture v2/);
    await delivered(dev);
    assert.deepEqual(post.namesSince(postFrom), [], 'the page without the layout heard nothing');
  });

  it('a style edit swaps the stylesheet in place instead of reloading', async () => {
    const home = await tap('/');
    const from = home.events.length;
    const before = (await text(dev.url + '/')).body;
    const oldHref = /href="(\/assets\/css\/layout-site-main\.[0-9a-f]+\.css)"/.exec(before)?.[1];
    assert.ok(oldHref, 'the layout stylesheet is linked');
    const css = home.next('css');
    edit(join(dir, 'main.layout.kit'), 'rgb(10, 20, 30)', 'rgb(200, 0, 0)');
    const pairs = JSON.parse((await css).data) as [string, string][];
    assert.equal(pairs.length, 1);
    assert.equal(pairs[0][0], oldHref);
    assert.notEqual(pairs[0][1], oldHref);
    const sheet = await text(dev.url + pairs[0][1]);
    assert.equal(sheet.status, 200);
    assert.match(sheet.body, /rgb\(200, 0, 0\)/);
    assert.ok(!home.namesSince(from).includes('reload'), 'no reload for a style-only change');
  });

  it('a change to a css file a page reads swaps that stylesheet in the tabs of that page', async () => {
    const post = await tap('/blog/first');
    const home = await tap('/');
    const homeFrom = home.events.length;
    const before = (await text(dev.url + '/blog/first')).body;
    const oldHref = /href="(\/assets\/css\/post\.[0-9a-f]+\.css)"/.exec(before)?.[1];
    assert.ok(oldHref, 'the css file is linked');
    const css = post.next('css');
    edit(join(dir, 'blog', 'post.css'), 'rgb(1, 2, 3)', 'rgb(4, 5, 6)');
    const pairs = JSON.parse((await css).data) as [string, string][];
    assert.deepEqual(
      pairs.map(([a]) => a),
      [oldHref],
    );
    assert.match((await text(dev.url + pairs[0][1])).body, /rgb\(4, 5, 6\)/);
    await delivered(dev);
    assert.deepEqual(home.namesSince(homeFrom), [], 'a page without the file heard nothing');
  });

  it('sees saves by rename, bursts, created and deleted files, and renamed directories', async () => {
    // An editor that writes a temporary file and renames it over the original.
    const about = join(dir, 'about.kit');
    writeFileSync(about + '.tmp~', readFileSync(about, 'utf8').replace('About page', 'About by rename'));
    renameSync(about + '.tmp~', about);
    await eventually(async () => assert.match((await text(dev.url + '/about')).body, /About by rename/));
    // A burst of saves: the last one wins.
    for (let i = 0; i < 12; i++) edit(about, /About [^<]+/.exec(readFileSync(about, 'utf8'))![0], `About burst ${i}`);
    await eventually(async () => assert.match((await text(dev.url + '/about')).body, /About burst 11</));
    // A new page, then gone again.
    const fresh = join(dir, 'fresh.kit');
    writeFileSync(fresh, 'package site\n\npage fresh\nroute "/fresh"\nguard public\n\nview {\n  <h1>Fresh</h1>\n}\n');
    await eventually(async () => assert.match((await text(dev.url + '/fresh')).body, /<h1>Fresh<\/h1>/));
    rmSync(fresh);
    await eventually(async () => assert.equal((await text(dev.url + '/fresh')).status, 404));
    // A directory renamed: its page moves with it (same route), then the directory goes.
    renameSync(join(dir, 'blog'), join(dir, 'posts'));
    await eventually(async () => assert.match((await text(dev.url + '/blog/first')).body, /First post/));
    rmSync(join(dir, 'posts'), { recursive: true });
    await eventually(async () => assert.equal((await text(dev.url + '/blog/first')).status, 404));
    mkdirSync(join(dir, 'blog'));
    writeFileSync(
      join(dir, 'blog', 'post.kit'),
      'package blog\n\npage post\nroute "/blog/first"\nguard public\n\nview {\n  <h1>First again</h1>\n}\n',
    );
    await eventually(async () => assert.match((await text(dev.url + '/blog/first')).body, /First again/));
  });

  it('errors show in an overlay on every HTML answer while the last good version serves; fixing clears them', async () => {
    const home = await tap('/');
    const overlay = home.next('overlay');
    const line = dev.waitOut(/home\.kit changed → 1 error/);
    edit(join(dir, 'home.kit'), '<a href="/about">About</a>', '<Missing />');
    const shown = JSON.parse((await overlay).data) as string;
    await line;
    assert.match(shown, /id="kit-dev-overlay"/);
    assert.match(shown, /home\.kit:14:4<\/a>: error unknown_component/);
    assert.match(shown, /href="vscode:\/\/file\/[^"]+\/home\.kit:14:4"/);
    assert.match(dev.err(), /home\.kit:14:4: error unknown_component/);
    const page = await text(dev.url + '/about');
    assert.equal(page.status, 200, 'the last good version keeps serving');
    assert.match(page.body, /id="kit-dev-overlay"[\s\S]*unknown_component[\s\S]*<\/body>/);
    const cleared = home.next('clear');
    const reload = home.next('reload');
    const fixed = dev.waitOut(/errors fixed/);
    edit(join(dir, 'home.kit'), '<Missing />', '<a href="/about">About</a>');
    await Promise.all([cleared, reload, fixed]);
    assert.ok(!(await text(dev.url + '/about')).body.includes('kit-dev-overlay'));
  });

  it('says what kit check says: a warning once when it appears (as kit check prints it), a line when it goes', async () => {
    const page = join(dir, 'later.kit');
    const warning =
      /later\.kit:\d+:\d+: warning missing_backend_handler: later: action handler Later is not implemented/g;
    const seen = () => dev.err().match(warning)?.length ?? 0;
    const before = seen();
    let line = dev.waitOut(/later\.kit changed → /);
    writeFileSync(
      page,
      'package site\n\npage later\nroute "/later"\nguard public\n\nact Later POST "/later"\n\nview {\n  <h1>Later</h1>\n}\n',
    );
    await line;
    await eventually(() => assert.equal(seen(), before + 1));
    // With its code frame, as kit check prints it.
    assert.match(
      dev.err(),
      /later\.kit:7:5: warning missing_backend_handler: [^\n]*\n +\|\n7 \| act Later POST "\/later"\n +\| +\^~~~~/,
    );
    // Other saves do not repeat it, nor does a save of the same file that leaves it.
    line = dev.waitOut(/home\.kit changed → /);
    edit(join(dir, 'home.kit'), 'Home page', 'Home page!');
    await line;
    line = dev.waitOut(/later\.kit changed → /);
    edit(page, '<h1>Later</h1>', '<h1>Later on</h1>');
    await line;
    assert.equal(seen(), before + 1, 'told once');
    // The edit's own lines, both: its change line may follow the warning's, and taken for the
    // removal's it let the next test start before the removal was applied.
    const fixed = dev.waitOut(/ {2}fixed: 1 warning in later\.kit\n/);
    line = dev.waitOut(/later\.kit changed → /);
    edit(page, 'act Later POST "/later"\n', '');
    await Promise.all([fixed, line]);
    rmSync(page);
    await eventually(async () => assert.equal((await text(dev.url + '/later')).status, 404));
  });

  it('a handler edit is served without a restart; one that does not compile leaves the last version serving', async () => {
    const handlers = join(dir, 'handlers.ts');
    const contact = await tap('/contact');
    const about = await tap('/about');
    const aboutFrom = about.events.length;
    const reload = contact.next('reload');
    // This change's own line: a late event of the last test's change may reach the tap first, or
    // be reported with this one ("handlers.ts, later.kit changed → ...").
    const applied = dev.waitOut(/handlers\.ts(?:, [^\s,]+)* changed → /);
    edit(handlers, 'Hello v1', 'Hello v2');
    await Promise.all([reload, applied]);
    assert.match((await text(dev.url + '/contact')).body, /<h1>Hello v2<\/h1>/);
    await delivered(dev);
    assert.deepEqual(about.namesSince(aboutFrom), [], 'a page without a load heard nothing');
    const overlay = contact.next('overlay');
    edit(handlers, "return { greeting: 'Hello v2' };", "return { greeting: 'Hello v3' ;");
    const shown = JSON.parse((await overlay).data) as string;
    assert.match(shown, /a handler module does not compile/);
    // As kit check prints a .kit error: the place as an editor link, the code, the line and a caret.
    const at =
      readFileSync(handlers, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes("'Hello v3' ;")) + 1;
    assert.match(
      shown,
      new RegExp(
        `handlers\\.ts:${at}:\\d+</a>: error handler_compile_error: Expected &quot;}&quot; but found &quot;;&quot;`,
      ),
    );
    assert.match(shown, new RegExp(`\\n${at} \\|   return \\{ greeting: &#39;Hello v3&#39; ;\\n +\\| +\\^`));
    assert.match(shown, /href="vscode:\/\/file\/[^"]+\/handlers\.ts:\d+:\d+"/);
    await eventually(() =>
      assert.match(
        dev.err(),
        new RegExp(`handlers\\.ts:${at}:\\d+: error handler_compile_error: [^\\n]*\\n +\\|\\n${at} \\|`),
      ),
    );
    assert.match((await text(dev.url + '/contact')).body, /<h1>Hello v2<\/h1>/, 'the previous version serves');
    assert.match(dev.err(), /does not compile \(the previous version keeps serving\)/);
    const clear = contact.next('clear');
    edit(handlers, "return { greeting: 'Hello v3' ;", "return { greeting: 'Hello v3' };");
    await clear;
    await eventually(async () => assert.match((await text(dev.url + '/contact')).body, /<h1>Hello v3<\/h1>/));
    // Pages taken over as they were keep what they bring: the layout's error page, the asset files.
    const missing = await fetch(dev.url + '/no-such-page', { headers: { accept: 'text/html' } });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /<h1>404<\/h1><p>Sorry: page not found\.<\/p>/);
    const logo = /src="(\/assets\/files\/logo\.[0-9a-f]+\.svg)"/.exec((await text(dev.url + '/')).body)?.[1];
    assert.ok(logo, 'the asset reference is rewritten');
    assert.equal((await fetch(dev.url + logo)).status, 200);
  });

  it('a handler that throws answers 500 with its source-mapped stack in the overlay', async () => {
    const handlers = join(dir, 'handlers.ts');
    edit(handlers, "return { greeting: 'Hello v3' };", "throw new Error('load exploded');");
    await eventually(async () => assert.equal((await text(dev.url + '/contact')).status, 500));
    const r = await fetch(dev.url + '/contact', { headers: { accept: 'text/html' } });
    const body = await r.text();
    assert.equal(r.status, 500);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(body, /Error: load exploded/);
    const lines = readFileSync(handlers, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('load exploded')) + 1;
    assert.match(body, new RegExp(`handlers\\.ts:${line}:\\d+`), 'the stack names the .ts line');
    // The user's frame first, kit's own folded into a count: no minified bundle position.
    assert.match(
      body,
      new RegExp(`Error: load exploded\\n +at [^\\n]*handlers\\.ts:${line}:\\d+[^\\n]*\\n +… \\d+ frames of kit`),
    );
    assert.doesNotMatch(body, /kit\.cjs|out\/bundle|node:internal/);
    assert.match(
      dev.err(),
      new RegExp(`load exploded\\n +at [^\\n]*handlers\\.ts:${line}:\\d+[^\\n]*\\n +… \\d+ frames`),
    );
    assert.doesNotMatch(dev.err(), /kit\.cjs:\d+:\d+/);
    edit(handlers, "throw new Error('load exploded');", "return { greeting: 'Hello v4' };");
    await eventually(async () => assert.equal((await text(dev.url + '/contact')).status, 200));
  });
});

describe('kit dev: a change nothing can be made of', function () {
  this.timeout(120000);

  it('a 50 KB file of 10,000 unclosed <div> is reported in a bounded screenful; later changes still apply', async () => {
    const dir = copyFixture('dev', 'site');
    const dev = await startDev(dir, ['--ssr']);
    try {
      await eventually(() => assert.match(dev.out(), /checked in \d+ ms: no errors/));
      const from = dev.err().length;
      const big = join(dir, 'big.kit');
      const reported = dev.waitOut(/big\.kit changed → [\d,]+ errors in \d+ ms/, 90000);
      writeFileSync(big, `package site\n\npage big\nroute "/big"\nguard public\n\nview {\n${'<div>'.repeat(10000)}\n`);
      await reported;
      const said = dev.err().slice(from);
      assert.doesNotMatch(said, /watching failed|could not be/);
      // kit check's format, at most five of a code, the rest counted in a line.
      assert.equal(said.match(/big\.kit:\d+:\d+: error view_parse_error: /g)?.length, 5);
      assert.match(said, /… and 9,995 more view_parse_error errors; kit check lists them all\n/);
      assert.ok(Buffer.byteLength(said) < 2_000_000, `bounded terminal output (${Buffer.byteLength(said)} bytes)`);
      assert.equal((await fetch(dev.url + '/about')).status, 200, 'the last good version serves');
      // Deleting the file takes its errors away; an edit of another page is served.
      const fixed = dev.waitOut(/errors fixed: serving the current sources \(gone: 10,002 errors in big\.kit\)/, 30000);
      rmSync(big);
      await fixed;
      edit(join(dir, 'about.kit'), 'About page', 'About page after the storm');
      await eventually(async () => assert.match((await text(dev.url + '/about')).body, /About page after the storm/));
    } finally {
      await dev.stop();
    }
  });
});

describe('kit dev: restarts and stopping', function () {
  this.timeout(60000);

  it('a form left open across a restart still posts (the development CSRF secret is kept)', async () => {
    const dir = copyFixture('dev', 'site');
    let dev = await startDev(dir, ['--ssr']);
    const page = await fetch(dev.url + '/contact');
    const cookie = /kit-csrf=([A-Za-z0-9_-]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1];
    const html = await page.text();
    const token = /name="_kit_csrf" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(cookie && token, 'the form carries a token');
    assert.equal(await dev.stop(), 0);
    assert.ok(!existsSync(join(dir, '.kit', 'dev.json')), 'dev.json is removed on exit');
    dev = await startDev(dir, ['--ssr']);
    try {
      const post = await fetch(dev.url + '/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `kit-csrf=${cookie}` },
        body: `name=Ada&_kit_csrf=${token}`,
        redirect: 'manual',
      });
      assert.equal(post.status, 200, await post.clone().text());
      assert.match(await post.text(), /Thanks Ada/);
    } finally {
      assert.equal(await dev.stop('SIGTERM'), 0);
    }
    assert.match(dev.out(), /kit dev: stopped\n$/);
  });

  it('started on sources with errors, every page carries the overlay until they are fixed', async () => {
    const dir = copyFixture('dev', 'site');
    edit(join(dir, 'about.kit'), '<h1>About page</h1>', '<Nope />');
    const dev = await startDev(dir, ['--ssr']);
    try {
      await eventually(async () => assert.match(dev.err(), /about\.kit:\d+:\d+: error unknown_component/));
      // The app was built before the checks (from the declarations): its pages serve, with the errors.
      const r = await fetch(dev.url + '/');
      assert.equal(r.status, 200);
      const body = await r.text();
      assert.match(body, /Home page[\s\S]*id="kit-dev-overlay"[\s\S]*unknown_component/);
      edit(join(dir, 'about.kit'), '<Nope />', '<h1>About page</h1>');
      await eventually(async () => assert.doesNotMatch(await (await fetch(dev.url + '/')).text(), /kit-dev-overlay/));
      assert.match(await (await fetch(dev.url + '/about')).text(), /About page/);
    } finally {
      await dev.stop();
    }
  });

  it('started on sources that do not build, every answer is the overlay until they are fixed', async () => {
    const dir = copyFixture('dev', 'site');
    // An error document nobody can read: no page has its error page, so no app is built.
    edit(join(dir, 'main.layout.kit'), 'error "./error.html"', 'error "./gone.html"');
    const dev = await startDev(dir, ['--ssr']);
    try {
      await eventually(async () => assert.match(dev.err(), /main\.layout\.kit:\d+:\d+: error missing_asset/));
      const r = await fetch(dev.url + '/');
      assert.equal(r.status, 500);
      const body = await r.text();
      assert.match(body, /id="kit-dev-overlay"[\s\S]*missing_asset/);
      assert.ok(body.includes('<script type="module" src="/_kit/dev/client.js"></script>'), 'the tab reloads itself');
      edit(join(dir, 'main.layout.kit'), 'error "./gone.html"', 'error "./error.html"');
      await eventually(async () => assert.equal((await fetch(dev.url + '/')).status, 200));
      assert.match(await (await fetch(dev.url + '/about')).text(), /About page/);
    } finally {
      await dev.stop();
    }
  });

  it('started with a handler module that does not compile, it says so and serves once it compiles', async () => {
    const dir = copyFixture('dev', 'site');
    const handlers = join(dir, 'handlers.ts');
    edit(handlers, "return { greeting: 'Hello v1' };", "return { greeting: 'Hello v1' ;");
    const dev = await startDev(dir, ['--ssr']);
    try {
      await eventually(async () =>
        assert.match(
          dev.err(),
          /a handler module does not compile[\s\S]*handlers\.ts:\d+:\d+: error handler_compile_error: /,
        ),
      );
      const page = await (await fetch(dev.url + '/')).text();
      assert.match(page, /id="kit-dev-overlay"[\s\S]*a handler module does not compile/);
      edit(handlers, "return { greeting: 'Hello v1' ;", "return { greeting: 'Hello v1' };");
      await eventually(async () => assert.match(await (await fetch(dev.url + '/contact')).text(), /Hello v1/));
      assert.match(dev.out(), /handler modules compile again/);
    } finally {
      await dev.stop();
    }
  });

  it('bad arguments are one clear line and exit 2', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'dev', ...args], { encoding: 'utf8' });
    let r = run('no/such/dir');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /kit dev: no such directory: no\/such\/dir/);
    r = run('--port', 'x', '.');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--port must be a number from 0 to 65535, not "x"/);
    r = run('--editor-url', 'vscode://nothing', '.');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--editor-url must contain \{file\}/);
  });
});
