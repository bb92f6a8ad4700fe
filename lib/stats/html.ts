/**
 * A comparison as one self-contained HTML file (no network, no scripts):
 * pass rates with their 95% intervals drawn as bars, the Pareto front of
 * pass rate against cost (or latency) as a scatter plot, the pair verdicts
 * and the notes.
 *
 * @module
 */

import { type Comparison, formatPassRate, type VariantStats } from "./compare.ts";
import { formatMetricValue, paretoFront } from "./select.ts";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const WIDTH = 640;
const LABEL = 140;
const ROW = 26;

function intervalChart(variants: VariantStats[]): string {
  const plot = WIDTH - LABEL - 20;
  const x = (rate: number) => LABEL + rate * plot;
  const height = variants.length * ROW + 30;
  const rows = variants.map((stats, i) => {
    const y = 10 + i * ROW;
    const [low, high] = stats.interval;
    const rate = stats.passRate ?? 0;
    const title = `${stats.variant}: ${stats.passes}/${stats.n} = ${
      formatPassRate(stats.passRate)
    } [${formatPassRate(low)}, ${formatPassRate(high)}]`;
    return `<g><title>${escapeHtml(title)}</title>
<text x="${LABEL - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(stats.variant)}</text>
<rect x="${LABEL}" y="${y + 4}" width="${(x(rate) - LABEL).toFixed(1)}" height="14" class="bar"/>
<line x1="${x(low).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="${y + 11}" y2="${
      y + 11
    }" class="whisker"/>
<line x1="${x(low).toFixed(1)}" x2="${x(low).toFixed(1)}" y1="${y + 5}" y2="${
      y + 17
    }" class="whisker"/>
<line x1="${x(high).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="${y + 5}" y2="${
      y + 17
    }" class="whisker"/>
</g>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) =>
    `<line x1="${x(t)}" x2="${x(t)}" y1="6" y2="${height - 20}" class="grid"/><text x="${
      x(t)
    }" y="${height - 6}" text-anchor="middle">${t}</text>`
  );
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="pass rates with 95% intervals">
${ticks.join("\n")}
${rows.join("\n")}
</svg>`;
}

function scatter(variants: VariantStats[]): string {
  const metric = variants.some((stats) => stats.cost !== null) ? "cost" : "latency";
  const plotted = variants.filter((stats) =>
    stats.metric(metric) !== null && stats.passRate !== null
  );
  const missing = variants.filter((stats) => !plotted.includes(stats));
  if (plotted.length === 0) {
    return "<p>No variant has a known cost or latency: nothing to plot.</p>";
  }
  const front = new Set(paretoFront(variants, ["pass_rate", metric]));
  const values = plotted.map((stats) => stats.metric(metric)!);
  const top = Math.max(...values) * 1.1 || 1;
  const height = 300;
  const left = 60;
  const x = (value: number) => left + (value / top) * (WIDTH - left - 20);
  const y = (rate: number) => 20 + (1 - rate) * (height - 60);
  const points = plotted.map((stats) => {
    const cx = x(stats.metric(metric)!).toFixed(1);
    const cy = y(stats.passRate!).toFixed(1);
    const onFront = front.has(stats.variant);
    return `<g><title>${
      escapeHtml(
        `${stats.variant}: pass rate ${formatPassRate(stats.passRate)}, ${metric} ${
          formatMetricValue(metric, stats.metric(metric))
        }${onFront ? " (Pareto front)" : ""}`,
      )
    }</title>
<circle cx="${cx}" cy="${cy}" r="6" class="${onFront ? "front" : "dominated"}"/>
<text x="${cx}" y="${(Number(cy) - 10).toFixed(1)}" text-anchor="middle">${
      escapeHtml(stats.variant)
    }</text></g>`;
  });
  const axes = `<line x1="${left}" x2="${WIDTH - 20}" y1="${y(0)}" y2="${y(0)}" class="axis"/>
<line x1="${left}" x2="${left}" y1="20" y2="${y(0)}" class="axis"/>
<text x="${left - 8}" y="${y(1) + 4}" text-anchor="end">1</text>
<text x="${left - 8}" y="${y(0) + 4}" text-anchor="end">0</text>
<text x="${(WIDTH + left) / 2}" y="${height - 8}" text-anchor="middle">${metric} (${
    metric === "cost" ? "USD per run" : "seconds per run"
  }; lower is better)</text>
<text x="14" y="${height / 2}" transform="rotate(-90 14 ${
    height / 2
  })" text-anchor="middle">pass rate</text>`;
  const note = missing.length > 0
    ? `<p class="note">Not plotted (${metric} unknown, counted as worst): ${
      missing.map((stats) => escapeHtml(stats.variant)).join(", ")
    }.</p>`
    : "";
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="Pareto front of pass rate and ${metric}">
${axes}
${points.join("\n")}
</svg>
<p class="legend"><span class="dot front"></span> on the Pareto front <span class="dot dominated"></span> dominated</p>
${note}`;
}

/**
 * A comparison as one self-contained HTML page.
 *
 * @param comparison The comparison.
 * @param options The page title.
 * @returns The HTML text.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import { comparisonHtml } from "./html.ts";
 * import assert from "node:assert/strict";
 *
 * const html = comparisonHtml(compareRuns([new Run("a<b", "t", "pass", { cost: 1 })]));
 * assert.match(html, /^<!doctype html>/);
 * assert.match(html, /a&lt;b/);
 * assert.doesNotMatch(html, /<script|https?:/);
 * ```
 */
export function comparisonHtml(comparison: Comparison, options: { title?: string } = {}): string {
  const title = options.title ?? "toolscore compare";
  const rows = comparison.variants.map((stats) =>
    `<tr><td>${escapeHtml(stats.variant)}</td><td>${stats.n}</td><td>${stats.passes}/${stats.n} = ${
      formatPassRate(stats.passRate)
    }</td><td>[${formatPassRate(stats.interval[0])}, ${
      formatPassRate(stats.interval[1])
    }]</td><td>${stats.passHatK === null ? "unknown" : stats.passHatK.toFixed(2)}</td><td>${
      escapeHtml(formatMetricValue("cost", stats.cost))
    }</td><td>${
      escapeHtml(formatMetricValue("latency", stats.latency))
    }</td><td>${stats.counts.error}</td></tr>`
  );
  const pairs = comparison.pairs.map((pair) =>
    `<li class="${pair.distinguishable ? "called" : ""}">${escapeHtml(pair.verdict)}</li>`
  );
  const notes = comparison.notes.map((note) => `<li>${escapeHtml(note)}</li>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; border-bottom: 1px solid #ddd; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
.bar { fill: #9cc3e6; } .whisker { stroke: #1f4e79; stroke-width: 2; }
.grid { stroke: #eee; } .axis { stroke: #999; }
.front { fill: #2e7d32; } .dominated { fill: #bbb; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; }
.called { font-weight: bold; } .note { color: #555; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>k = ${comparison.k}, min_n = ${comparison.minN}, alpha = ${comparison.alpha}${
    comparison.baseline === null ? "" : `, baseline ${escapeHtml(comparison.baseline)}`
  }</p>
<table>
<tr><th>variant</th><th>n</th><th>pass rate</th><th>95% interval</th><th>pass^${comparison.k}</th><th>cost</th><th>latency</th><th>errors</th></tr>
${rows.join("\n")}
</table>
<h2>Pass rates with 95% Wilson intervals</h2>
${intervalChart(comparison.variants)}
<h2>Pareto front</h2>
${scatter(comparison.variants)}
<h2>Pairs</h2>
<ul>
${pairs.join("\n")}
</ul>
${notes.length > 0 ? `<h2>Notes</h2>\n<ul>\n${notes.join("\n")}\n</ul>` : ""}
</body>
</html>
`;
}
