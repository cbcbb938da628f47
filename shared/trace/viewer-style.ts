// The trace viewer's stylesheet (`viewer-html.ts` puts it into the page's nonce'd <style>). Kept in
// String.raw, without backticks or template placeholders.
export const VIEWER_STYLE = String.raw`:root {
  --bg: #f7f7f8; --panel: #ffffff; --text: #1d1f24; --muted: #686f7c; --line: #e3e5ea; --hover: #f0f2f6;
  --accent: #3b6ef5; --sel: #e6edff; --ok: #1f9d55; --err: #d64545; --unset: #8a93a3;
  --backend: #3b6ef5; --frontend: #c2410c; --worker: #7c3aed;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161a; --panel: #1b1e24; --text: #e6e8ec; --muted: #9aa1ad; --line: #2b2f37; --hover: #232730;
    --sel: #22304f; --accent: #6b93ff; --backend: #6b93ff; --frontend: #f0883e; --worker: #a78bfa; }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg);
  color: var(--text);
  display: flex; flex-direction: column; }
header { display: flex; align-items: center; gap: 16px; padding: 10px 16px; background: var(--panel);
  border-bottom: 1px solid var(--line); }
header h1 { font-size: 15px; margin: 0; font-weight: 650; letter-spacing: .2px; }
header h1 .dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; background: var(--unset);
  margin-right: 8px; vertical-align: 1px; }
header h1 .dot.live { background: var(--ok); }
header h1 .dot.down { background: var(--err); }
.counts { display: flex; gap: 14px; color: var(--muted); }
.counts b { color: var(--text); font-weight: 600; font-variant-numeric: tabular-nums; }
.counts .warn b { color: var(--err); }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px; padding: 8px 16px; background: var(--panel);
  border-bottom: 1px solid var(--line); align-items: center; }
.toolbar input, .toolbar select, .toolbar button { font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px; }
.toolbar input { min-width: 240px; flex: 1 1 240px; max-width: 420px; }
.toolbar button { cursor: pointer; }
.toolbar button:hover { background: var(--hover); }
.toolbar button[aria-pressed="true"] { background: var(--sel); border-color: var(--accent); }
.toolbar .spacer { flex: 1; }
.toolbar .hint { color: var(--muted); }
main { flex: 1; display: grid; grid-template-columns: minmax(260px, 340px) 1fr minmax(280px, 380px); min-height: 0; }
section { min-height: 0; overflow: auto; }
#traces { border-right: 1px solid var(--line); background: var(--panel); }
#detail { border-left: 1px solid var(--line); background: var(--panel); padding: 12px 14px; }
.empty { color: var(--muted); padding: 24px 16px; text-align: center; }
.trace { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line);
  background: none; color: inherit;
  font: inherit; padding: 8px 12px; cursor: pointer; }
.trace:hover { background: var(--hover); }
.trace.selected { background: var(--sel); }
.trace .title { display: flex; align-items: center; gap: 6px; font-weight: 600; overflow: hidden; }
.trace .title .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.trace .sub { color: var(--muted); font-size: 12px; margin-top: 2px; display: flex; gap: 6px; flex-wrap: wrap; }
.status { width: 8px; height: 8px; border-radius: 50%; flex: none; background: var(--unset); }
.status.ok { background: var(--ok); }
.status.error { background: var(--err); }
.badge { font-size: 11px; padding: 0 6px; border-radius: 9px; border: 1px solid var(--line);
  color: var(--muted); white-space: nowrap; }
.badge.backend { color: var(--backend); border-color: currentColor; }
.badge.frontend { color: var(--frontend); border-color: currentColor; }
.badge.worker { color: var(--worker); border-color: currentColor; }
.badge.error { color: var(--err); border-color: currentColor; }
#waterfall { padding: 0 0 16px; }
.wf-head { position: sticky; top: 0; background: var(--bg); z-index: 1; padding: 10px 16px 6px;
  border-bottom: 1px solid var(--line); }
.wf-head h2 { font-size: 14px; margin: 0 0 2px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wf-head .meta { color: var(--muted); font-size: 12px; font-family: var(--mono); }
.axis { display: grid; grid-template-columns: 38% 1fr; margin-top: 8px; color: var(--muted); font-size: 11px; }
.axis .ticks { position: relative; height: 14px; }
.axis .ticks span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.axis .ticks span:first-child { transform: none; }
.axis .ticks span:last-child { transform: translateX(-100%); }
.row { display: grid; grid-template-columns: 38% 1fr; align-items: center; min-height: 26px; padding: 0 16px;
  cursor: pointer; border-bottom: 1px solid transparent; }
.row:hover { background: var(--hover); }
.row.selected { background: var(--sel); }
.row.dim { opacity: .38; }
.row .label { display: flex; align-items: center; gap: 6px; overflow: hidden; white-space: nowrap; padding-right: 8px; }
.row .label .name { overflow: hidden; text-overflow: ellipsis; }
.row .label .twig { color: var(--muted); opacity: .6; font-family: var(--mono); }
.row .track { position: relative; height: 16px; }
.row .bar { position: absolute; top: 2px; height: 12px; border-radius: 3px; min-width: 2px;
  background: var(--backend); }
.row .bar.frontend { background: var(--frontend); }
.row .bar.worker { background: var(--worker); }
.row .bar.error { background: var(--err); }
.row .dur { position: absolute; top: 0; font-size: 11px; color: var(--muted); white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.row .dur.inside { top: 2px; font-size: 10px; line-height: 12px; color: #fff; }
#detail h2 { font-size: 14px; margin: 0 0 8px; word-break: break-word; }
#detail h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .5px; color: var(--muted);
  margin: 16px 0 6px; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; margin: 0; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; font-family: var(--mono); font-size: 12px; word-break: break-all; }
table.attrs { width: 100%; border-collapse: collapse; font-size: 12px; }
table.attrs td { border-top: 1px solid var(--line); padding: 3px 4px; vertical-align: top; word-break: break-all; }
table.attrs td:first-child { color: var(--muted); width: 40%; font-family: var(--mono); }
table.attrs td:last-child { font-family: var(--mono); white-space: pre-wrap; }
.event { border-left: 3px solid var(--line); padding: 2px 0 2px 8px; margin: 6px 0; }
.event.error { border-color: var(--err); }
.event.warn { border-color: #d99a00; }
.event .when { color: var(--muted); font-size: 11px; font-family: var(--mono); }
.row .bar.lane-route { background: #3b6ef5; } .row .bar.lane-guard { background: #b7791f; }
.row .bar.lane-handler { background: #0f9d8f; } .row .bar.lane-ssr { background: #7c3aed; }
.row .bar.lane-action, .row .bar.lane-api, .row .bar.lane-fragment, .row .bar.lane-contract { background: #2563eb; }
.row .bar.lane-nav, .row .bar.lane-island { background: var(--frontend); } .row .bar.lane-user { background: #64748b; }
.row .bar.lane-job { background: var(--worker); }
.row .bar.error { background: var(--err); }
.trace .req { display: flex; gap: 8px; font-family: var(--mono); font-size: 12px; margin-top: 2px; }
.trace .req .code.c4 { color: #b7791f; } .trace .req .code.c5, .trace .req .errmark { color: var(--err); }
.tabs { display: flex; gap: 4px; }
table.routes { width: 100%; border-collapse: collapse; font-size: 12px; }
table.routes th, table.routes td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
  font-variant-numeric: tabular-nums; white-space: nowrap; }
table.routes td.num, table.routes th.num { text-align: right; }
table.routes tr.err td.errors { color: var(--err); font-weight: 600; }
.hist { display: inline-flex; align-items: flex-end; gap: 1px; height: 18px; vertical-align: middle; }
.hist span { display: inline-block; width: 5px; background: var(--accent); min-height: 1px; }
a.src { color: var(--accent); }
@media (max-width: 1000px) { main { grid-template-columns: 1fr; grid-auto-rows: minmax(200px, auto);
  } section { max-height: 60vh; } }`;
