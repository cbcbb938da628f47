// The trace viewer: one self-contained page (no CDN, no framework), embedded as a string so a bundled
// single-executable app can serve it without reading files. It lists spans live over server-sent events,
// groups them into traces with a waterfall, and shows span details. Span data is untrusted: the page only
// ever puts it into the DOM as text (textContent / text nodes), never as HTML.
//
// The stylesheet is `viewer-style.ts`; the script is written in TypeScript in `viewer/` and bundled at
// build time into `viewer-script.generated.ts` (`scripts/viewer-script.mjs`); this module puts them
// into the page.
import { VIEWER_SCRIPT } from './viewer-script.generated.js';
import { VIEWER_STYLE } from './viewer-style.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="kit-trace-base" content="__KIT_TRACE_BASE__">
<meta name="kit-source-root" content="__KIT_SOURCE_ROOT__">
<title>kit trace</title>
<style nonce="__KIT_NONCE__">
${VIEWER_STYLE}
</style>
</head>
<body>
<header>
  <h1><span class="dot" id="conn" title="connecting"></span>kit trace</h1>
  <div class="counts">
    <span><b data-testid="count-spans" id="n-spans">0</b> spans</span>
    <span><b data-testid="count-traces" id="n-traces">0</b> traces</span>
    <span id="c-dropped"><b data-testid="count-dropped" id="n-dropped">0</b> dropped</span>
    <span id="c-rejected"><b data-testid="count-rejected" id="n-rejected">0</b> rejected</span>
  </div>
</header>
<div class="toolbar" role="search">
  <input id="q" data-testid="filter-text" type="search" placeholder="Filter: name, attribute, id, file…"
    aria-label="Filter spans">
  <select id="f-lane" data-testid="filter-lane" aria-label="Lane"><option value="">All lanes</option></select>
  <select id="f-surface" data-testid="filter-surface" aria-label="Surface"><option
    value="">All surfaces</option></select>
  <select id="f-status" data-testid="filter-status" aria-label="Status"><option value="">Any status</option></select>
  <button id="pause" data-testid="pause" type="button" aria-pressed="false">Pause</button>
  <button id="clear" data-testid="clear" type="button">Clear</button>
  <span class="tabs" role="tablist">
    <button id="tab-traces" data-testid="view-traces" type="button" aria-pressed="true">Traces</button>
    <button id="tab-routes" data-testid="view-routes" type="button" aria-pressed="false">Routes</button>
    <button id="tab-slowest" data-testid="view-slowest" type="button" aria-pressed="false">Slowest</button>
  </span>
  <span class="spacer"></span>
  <span class="hint" id="hint"></span>
  <select id="editor" data-testid="editor" aria-label="Open sources in">
    <option value="vscode://file{path}:{line}:{column}">VS Code</option>
    <option value="cursor://file{path}:{line}:{column}">Cursor</option>
    <option value="vscodium://file{path}:{line}:{column}">VSCodium</option>
    <option value="idea://open?file={path}&amp;line={line}&amp;column={column}">JetBrains</option>
    <option value="subl://open?url=file://{path}&amp;line={line}&amp;column={column}">Sublime Text</option>
    <option value="custom">Custom…</option>
  </select>
  <input id="editor-template" data-testid="editor-template" type="text" hidden
    aria-label="Editor link template with {path}, {line} and {column}">
</div>
<main>
  <section id="traces" data-testid="trace-list" aria-label="Traces"></section>
  <section id="waterfall" data-testid="waterfall" aria-label="Waterfall"></section>
  <section id="detail" data-testid="span-details" aria-label="Span details"></section>
</main>
<script nonce="__KIT_NONCE__">
${VIEWER_SCRIPT}
</script>
</body>
</html>
`;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The viewer page. `base` is the collector mount (for example `/_kit/traces`); when '' the page derives it
 * from its own URL. `nonce` authorises the page's inline script and style under its Content-Security-Policy.
 */
export function viewerPage(base: string, nonce: string, sourceRoot = ''): string {
  return PAGE.replace('__KIT_TRACE_BASE__', escapeAttribute(base))
    .replace('__KIT_SOURCE_ROOT__', escapeAttribute(sourceRoot))
    .replace(/__KIT_NONCE__/g, escapeAttribute(nonce));
}
