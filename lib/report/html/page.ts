/**
 * The frame of every HTML report: one self-contained page (inline CSS, inline
 * SVG, a small inline script; a Content-Security-Policy that forbids every
 * request, so nothing is fetched even by mistake), light and dark colours
 * from `prefers-color-scheme`, a print style that opens everything and drops
 * the controls. Colours are chosen for a contrast of at least 4.5:1 against
 * their background in both schemes.
 *
 * @module
 */

import { escapeHtml } from "../escape.ts";

const CSS = `
:root { color-scheme: light dark;
  --bg: #ffffff; --fg: #1a1a1a; --muted: #4d4d4d; --line: #c8c8c8; --panel: #f4f5f7;
  --pass: #1b5e20; --fail: #b3261e; --unknown: #7a4f00; --link: #0b57d0;
  --bar: #9ab8dc; --whisker: #1f3f66; --front: #1b5e20; --dominated: #5f6368; --grid: #e3e3e3;
  --match-bg: #e6f4ea; --miss-bg: #fce8e6; --extra-bg: #fef7e0; }
@media (prefers-color-scheme: dark) { :root {
  --bg: #121212; --fg: #ececec; --muted: #b8b8b8; --line: #4a4a4a; --panel: #1e1f22;
  --pass: #8fd694; --fail: #ff9c93; --unknown: #ffcf7a; --link: #8ab4f8;
  --bar: #3b5f8a; --whisker: #cfe0f5; --front: #8fd694; --dominated: #b8b8b8; --grid: #333333;
  --match-bg: #16311d; --miss-bg: #3c1715; --extra-bg: #3a2f0b; } }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1.5em;
  max-width: 78em; background: var(--bg); color: var(--fg); }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: 0; display: inline; }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.muted { color: var(--muted); }
.pass { color: var(--pass); } .fail { color: var(--fail); } .unknown { color: var(--unknown); }
.badge { font-weight: 600; }
table { border-collapse: collapse; margin: .6em 0; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th button { font: inherit; font-weight: 600; color: inherit; background: none; border: 0; padding: 0;
  cursor: pointer; text-decoration: underline dotted; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.controls { display: flex; gap: 1.5em; align-items: center; margin: .8em 0; flex-wrap: wrap; }
.summary { font-size: 1.05em; }
body.only-failing .is-pass { display: none; }
details.trace { border: 1px solid var(--line); border-radius: 6px; margin: .7em 0; padding: .4em .8em; }
details.trace > summary { cursor: pointer; }
.calls { display: grid; grid-template-columns: minmax(0, 1fr) 64px minmax(0, 1fr); margin: .6em 0; }
.calls .side { display: flex; flex-direction: column; gap: 8px; }
.calls .side-title { font-weight: 600; height: 1.6em; }
.call { height: 112px; border: 1px solid var(--line); border-radius: 5px; padding: 3px 6px;
  background: var(--panel); display: flex; flex-direction: column; }
.call.unpaired { border: 2px dashed var(--fail); }
.call.call-failed { border: 2px solid var(--fail); background: var(--miss-bg); }
.call.call-unknown { border-style: dotted; background: var(--bg); color: var(--muted); }
.call .outcome { font-size: 12.5px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.call.call-failed .outcome { color: var(--fail); }
.call .tool { font-weight: 600; font-family: ui-monospace, monospace; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.call ul { list-style: none; margin: 0; padding: 0; overflow: auto; font: 12.5px/1.35 ui-monospace, monospace; }
.call li { white-space: nowrap; }
.call li i { font-style: normal; display: inline-block; min-width: 5.2em; font-family: system-ui, sans-serif; font-size: 11.5px; }
.a-match { background: var(--match-bg); } .a-mismatch, .a-missing { background: var(--miss-bg); }
.a-unexpected { background: var(--extra-bg); }
svg { max-width: 100%; height: auto; }
svg text { font: 12px system-ui, sans-serif; fill: var(--fg); }
svg .pair { stroke: var(--pass); stroke-width: 2.5; fill: none; }
svg .pair.partial { stroke: var(--unknown); stroke-dasharray: 6 4; }
svg .bar { fill: var(--bar); } svg .whisker { stroke: var(--whisker); stroke-width: 2; }
svg .grid { stroke: var(--grid); } svg .axis { stroke: var(--muted); }
svg .front { fill: var(--front); stroke: var(--front); }
svg .dominated { fill: var(--bg); stroke: var(--dominated); stroke-width: 2; }
svg .frontier { stroke: var(--front); stroke-width: 1.5; fill: none; stroke-dasharray: 4 3; }
ul.checks { margin: .3em 0; padding-left: 1.2em; }
@media print { body { max-width: none; padding: 0; } .controls { display: none; }
  body.only-failing .is-pass { display: revert; } details.trace { break-inside: avoid; }
  a { color: inherit; } }
`;

/** Options for {@linkcode htmlPage}. */
export interface HtmlPageOptions {
  /**
   * An inline script (the table sorting and the filter).
   * @default {""}
   */
  script?: string;
}

/**
 * A whole HTML document around a body.
 *
 * @param title The page title (plain text; escaped here).
 * @param body The body's HTML.
 * @param options An inline script.
 * @returns The document.
 *
 * @example Usage
 * ```ts
 * import { htmlPage } from "./page.ts";
 * import assert from "node:assert/strict";
 *
 * const html = htmlPage("a<b", "<p>x</p>");
 * assert.match(html, /^<!doctype html>/);
 * assert.match(html, /<title>a&lt;b<\/title>/);
 * assert.match(html, /default-src 'none'/);
 * ```
 */
export function htmlPage(title: string, body: string, options: HtmlPageOptions = {}): string {
  const script = options.script ? `<script>${options.script}</script>\n` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
${script}</body>
</html>
`;
}

/**
 * Round axis ticks from 0 to at least `max`: 1, 2 or 5 times a power of ten.
 *
 * @param max The largest value to show (0 or less gives `[0, 1]`).
 * @param count About how many intervals.
 * @returns The tick values, from 0, the last one ≥ `max`.
 *
 * @example Usage
 * ```ts
 * import { niceTicks } from "./page.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(niceTicks(0.034), [0, 0.01, 0.02, 0.03, 0.04]);
 * assert.deepEqual(niceTicks(7, 4), [0, 2, 4, 6, 8]);
 * ```
 */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let i = 0; i <= count * 3; i++) {
    const value = Number((i * step).toPrecision(12));
    ticks.push(value);
    if (value >= max) break;
  }
  return ticks;
}

/**
 * The script of the `eval` page: sortable tables (`th` buttons with
 * `aria-sort`; cells sort by `data-v` when present) and the
 * failing-traces filter (a checkbox with the id `only-failing`).
 */
export const PAGE_SCRIPT: string = `
(() => {
  for (const table of document.querySelectorAll("table.sortable")) {
    const heads = [...table.querySelectorAll("thead th")];
    heads.forEach((th, col) => {
      const button = th.querySelector("button");
      if (!button) return;
      button.addEventListener("click", () => {
        const dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
        for (const other of heads) other.removeAttribute("aria-sort");
        th.setAttribute("aria-sort", dir);
        const body = table.tBodies[0];
        const key = (row) => {
          const cell = row.cells[col];
          const v = cell.dataset.v;
          return v === undefined ? cell.textContent : Number(v);
        };
        const rows = [...body.rows].sort((a, b) => {
          const x = key(a), y = key(b);
          const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
          return dir === "ascending" ? c : -c;
        });
        for (const row of rows) body.append(row);
      });
    });
  }
  // Printing shows every trace's section open.
  addEventListener("beforeprint", () => {
    for (const details of document.querySelectorAll("details")) details.open = true;
  });
  const filter = document.getElementById("only-failing");
  if (filter) {
    const apply = () => {
      document.body.classList.toggle("only-failing", filter.checked);
      const status = document.getElementById("filter-status");
      if (status) status.textContent = filter.checked ? status.dataset.on : status.dataset.off;
    };
    filter.addEventListener("change", apply);
    apply();
  }
})();
`;
