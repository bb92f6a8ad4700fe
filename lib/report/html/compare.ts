/**
 * A comparison as one self-contained HTML page (moved here from
 * `lib/stats/html.ts`): the variant table, pass rates with their 95% Wilson
 * intervals as horizontal bars, pass^k as bars, the cost (or latency) against
 * pass-rate scatter with the Pareto front marked and joined, both axes
 * labelled and ticked, a legend whose markers are drawn in the chart, and
 * the pair verdicts. The front and the dominated variants differ in shape
 * (filled circle, hollow square) as well as colour.
 *
 * @module
 */

import { maxOf } from "../../base/arrays.ts";
import type { Comparison } from "../../stats/comparison.ts";
import {
  formatDifference,
  formatMetricValue,
  formatPassRate,
  formatPValue,
} from "../../stats/format.ts";
import { paretoFront } from "../../stats/select.ts";
import type { VariantStats } from "../../stats/variant_stats.ts";
import { escapeHtml } from "../escape.ts";
import { htmlPage, niceTicks } from "./page.ts";

const WIDTH = 720;
const LABEL = 150;
const ROW = 28;

function rateAxis(x: (rate: number) => number, top: number, bottom: number, title: string): string {
  const ticks = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((t) =>
    `<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${bottom}" class="grid"/>` +
    `<line x1="${x(t)}" x2="${x(t)}" y1="${bottom}" y2="${bottom + 5}" class="axis"/>` +
    `<text x="${x(t)}" y="${bottom + 18}" text-anchor="middle">${t}</text>`
  );
  return `${ticks.join("")}<line x1="${x(0)}" x2="${
    x(1)
  }" y1="${bottom}" y2="${bottom}" class="axis"/>` +
    `<text x="${(x(0) + x(1)) / 2}" y="${bottom + 36}" text-anchor="middle">${
      escapeHtml(title)
    }</text>`;
}

/**
 * Horizontal bars of each variant's pass rate, the 95% Wilson interval as a
 * whisker, the figures written beside.
 */
function intervalChart(variants: VariantStats[]): string {
  const right = 200;
  const x = (rate: number) => LABEL + rate * (WIDTH - LABEL - right);
  const bottom = 10 + variants.length * ROW;
  const rows = variants.map((stats, i) => {
    const y = 10 + i * ROW;
    const [low, high] = stats.interval;
    const rate = stats.passRate ?? 0;
    const text = `${stats.passes}/${stats.n} = ${formatPassRate(stats.passRate)} [${
      formatPassRate(low)
    }, ${formatPassRate(high)}]`;
    return `<g><title>${escapeHtml(`${stats.variant}: ${text}`)}</title>
<text x="${LABEL - 8}" y="${y + 17}" text-anchor="end">${escapeHtml(stats.variant)}</text>
<rect x="${LABEL}" y="${y + 5}" width="${(x(rate) - LABEL).toFixed(1)}" height="16" class="bar"/>
<line x1="${x(low).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="${y + 13}" y2="${
      y + 13
    }" class="whisker"/>
<line x1="${x(low).toFixed(1)}" x2="${x(low).toFixed(1)}" y1="${y + 6}" y2="${
      y + 20
    }" class="whisker"/>
<line x1="${x(high).toFixed(1)}" x2="${x(high).toFixed(1)}" y1="${y + 6}" y2="${
      y + 20
    }" class="whisker"/>
<text x="${x(1) + 8}" y="${y + 17}">${escapeHtml(text)}</text></g>`;
  });
  const height = bottom + 46;
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="rates-title">
<title id="rates-title">Pass rate per variant with its 95% Wilson interval</title>
${rateAxis(x, 6, bottom, "pass rate (bar) with 95% Wilson interval (whisker)")}
${rows.join("\n")}
</svg>`;
}

function passHatKChart(variants: VariantStats[], k: number): string {
  const right = 200;
  const x = (rate: number) => LABEL + rate * (WIDTH - LABEL - right);
  const bottom = 10 + variants.length * ROW;
  const rows = variants.map((stats, i) => {
    const y = 10 + i * ROW;
    const value = stats.passHatK;
    const text = value === null ? "unknown" : value.toFixed(2);
    return `<g><title>${escapeHtml(`${stats.variant}: pass^${k} ${text}`)}</title>
<text x="${LABEL - 8}" y="${y + 17}" text-anchor="end">${escapeHtml(stats.variant)}</text>
${
      value === null
        ? ""
        : `<rect x="${LABEL}" y="${y + 5}" width="${
          (x(value) - LABEL).toFixed(1)
        }" height="16" class="bar"/>`
    }
<text x="${x(1) + 8}" y="${y + 17}">${text}</text></g>`;
  });
  const height = bottom + 46;
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="passk-title">
<title id="passk-title">pass^${k} per variant: the chance that ${k} runs of a task all pass</title>
${rateAxis(x, 6, bottom, `pass^${k} (all ${k} runs of a task pass)`)}
${rows.join("\n")}
</svg>`;
}

function tickLabel(metric: "cost" | "latency", value: number): string {
  return metric === "cost"
    ? `$${Number(value.toPrecision(3))}`
    : `${Number(value.toPrecision(3))} s`;
}

/** Cost (or latency) against pass rate, the Pareto front filled and joined. */
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
  const ticks = niceTicks(maxOf(plotted.map((stats) => stats.metric(metric)!)));
  const top = ticks.at(-1)!;
  const height = 360;
  const left = 70;
  const right = WIDTH - 30;
  const plotTop = 20;
  const plotBottom = height - 80;
  const x = (value: number) => left + (value / top) * (right - left);
  const y = (rate: number) => plotTop + (1 - rate) * (plotBottom - plotTop);
  const xTicks = ticks.map((t) =>
    `<line x1="${x(t)}" x2="${x(t)}" y1="${plotTop}" y2="${plotBottom}" class="grid"/>` +
    `<line x1="${x(t)}" x2="${x(t)}" y1="${plotBottom}" y2="${plotBottom + 5}" class="axis"/>` +
    `<text x="${x(t)}" y="${plotBottom + 18}" text-anchor="middle">${
      escapeHtml(tickLabel(metric, t))
    }</text>`
  );
  const yTicks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((t) =>
    `<line x1="${left}" x2="${right}" y1="${y(t)}" y2="${y(t)}" class="grid"/>` +
    `<line x1="${left - 5}" x2="${left}" y1="${y(t)}" y2="${y(t)}" class="axis"/>` +
    `<text x="${left - 8}" y="${y(t) + 4}" text-anchor="end">${t}</text>`
  );
  const axes =
    `<line x1="${left}" x2="${right}" y1="${plotBottom}" y2="${plotBottom}" class="axis"/>
<line x1="${left}" x2="${left}" y1="${plotTop}" y2="${plotBottom}" class="axis"/>
<text x="${(left + right) / 2}" y="${plotBottom + 38}" text-anchor="middle">${
      metric === "cost" ? "mean cost per run (USD)" : "mean latency per run (seconds)"
    } — lower is better</text>
<text x="16" y="${(plotTop + plotBottom) / 2}" transform="rotate(-90 16 ${
      (plotTop + plotBottom) / 2
    })" text-anchor="middle">pass rate — higher is better</text>`;
  const frontPoints = plotted.filter((stats) => front.has(stats.variant))
    .sort((a, b) => a.metric(metric)! - b.metric(metric)!);
  const frontier = frontPoints.length > 1
    ? `<polyline class="frontier" points="${
      frontPoints.map((s) => `${x(s.metric(metric)!).toFixed(1)},${y(s.passRate!).toFixed(1)}`)
        .join(" ")
    }"/>`
    : "";
  const points = plotted.map((stats) => {
    const cx = x(stats.metric(metric)!);
    const cy = y(stats.passRate!);
    const onFront = front.has(stats.variant);
    const marker = onFront
      ? `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="6" class="front"/>`
      : `<rect x="${(cx - 5).toFixed(1)}" y="${
        (cy - 5).toFixed(1)
      }" width="10" height="10" class="dominated"/>`;
    return `<g><title>${
      escapeHtml(
        `${stats.variant}: pass rate ${formatPassRate(stats.passRate)}, ${metric} ${
          formatMetricValue(metric, stats.metric(metric))
        }${onFront ? " (Pareto front)" : " (dominated)"}`,
      )
    }</title>${marker}<text x="${cx.toFixed(1)}" y="${(cy - 10).toFixed(1)}" text-anchor="middle">${
      escapeHtml(stats.variant)
    }</text></g>`;
  });
  const ly = height - 22;
  const legend = `<g class="legend" aria-label="legend">
<circle cx="${left + 6}" cy="${ly - 4}" r="6" class="front"/><text x="${
    left + 18
  }" y="${ly}">on the Pareto front</text>
<line x1="${left + 170}" x2="${left + 200}" y1="${ly - 4}" y2="${
    ly - 4
  }" class="frontier"/><text x="${left + 206}" y="${ly}">the front, joined</text>
<rect x="${left + 340}" y="${ly - 9}" width="10" height="10" class="dominated"/><text x="${
    left + 356
  }" y="${ly}">dominated</text>
</g>`;
  const note = missing.length > 0
    ? `<p class="muted">Not plotted (${metric} unknown, counted as worst): ${
      missing.map((stats) => escapeHtml(stats.variant)).join(", ")
    }.</p>`
    : "";
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="pareto-title">
<title id="pareto-title">Pass rate against ${metric}, with the Pareto front</title>
${xTicks.join("")}${yTicks.join("")}
${axes}
${frontier}
${points.join("\n")}
${legend}
</svg>
${note}`;
}

/**
 * The comparison's sections (table, charts, pairs, notes), without the page
 * around them: `decide` shows them below its rules.
 *
 * @param comparison The comparison.
 * @returns The HTML.
 */
export function comparisonSections(comparison: Comparison): string {
  const k = comparison.k;
  const interval = (range: readonly [number, number] | null) =>
    range === null ? "unknown" : `[${formatPassRate(range[0])}, ${formatPassRate(range[1])}]`;
  const cells = (stats: VariantStats) =>
    [
      `<td class="num">${stats.n}</td>`,
      `<td class="num">${stats.tasks}</td>`,
      `<td class="num">${stats.passes}/${stats.n} = ${formatPassRate(stats.passRate)}</td>`,
      `<td>${interval(stats.interval)}</td>`,
      `<td>${interval(stats.clusteredInterval)}</td>`,
      `<td class="num">${
        stats.designEffect === null ? "unknown" : stats.designEffect.toFixed(2)
      }</td>`,
      `<td class="num">${stats.passHatK === null ? "unknown" : stats.passHatK.toFixed(2)}</td>`,
      `<td class="num">${escapeHtml(formatMetricValue("cost", stats.cost))}</td>`,
      `<td class="num">${escapeHtml(formatMetricValue("latency", stats.latency))}</td>`,
      `<td class="num">${stats.counts.error}</td>`,
    ].join("");
  const rows = comparison.variants.map((stats) =>
    `<tr><th scope="row">${escapeHtml(stats.variant)}</th>${cells(stats)}</tr>`
  );
  const pairs = comparison.pairs.map((pair) => {
    // "+20 points [+6, +33]": b − a with the 95% interval that answers the deciding question.
    const difference = escapeHtml(formatDifference(pair.difference, pair.differenceInterval));
    const paired = (pair.pairedPValue === null ? "" : ` p = ${formatPValue(pair.pairedPValue)}`) +
      (pair.adjust === "none" || pair.adjustedPValue === null
        ? ""
        : `, ${pair.adjust === "holm" ? "Holm" : "BH"} ${formatPValue(pair.adjustedPValue)}`);
    const reason = pair.testReason === ""
      ? ""
      : `<br><small>${escapeHtml(pair.testReason)}</small>`;
    return `<tr><th scope="row">${escapeHtml(pair.a)} vs ${
      escapeHtml(pair.b)
    }</th><td class="num">${difference}</td><td class="num">${formatPValue(pair.pValue)}</td><td>${
      pair.overlap ? "yes" : "no"
    }</td><td>${escapeHtml(pair.test)}${paired}</td><td><span class="badge ${
      pair.distinguishable ? "pass" : "unknown"
    }">${pair.distinguishable ? "called" : "not called"}</span> ${
      escapeHtml(pair.verdict)
    }${reason}</td></tr>`;
  });
  const notes = comparison.notes.map((note) => `<li>${escapeHtml(note)}</li>`);
  return `<table>
<caption>Variants</caption>
<thead><tr><th scope="col">variant</th><th scope="col" class="num">n</th><th scope="col" class="num">tasks</th><th scope="col" class="num">pass rate</th><th scope="col">95% interval</th><th scope="col">clustered 95%</th><th scope="col" class="num">deff</th><th scope="col" class="num">pass^${k}</th><th scope="col" class="num">cost</th><th scope="col" class="num">latency</th><th scope="col" class="num">errors</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<h2>Pass rates with 95% Wilson intervals</h2>
${intervalChart(comparison.variants)}
<h2>pass^${k}</h2>
${passHatKChart(comparison.variants, k)}
<h2>Cost and pass rate: the Pareto front</h2>
${scatter(comparison.variants)}
<h2>Pairs</h2>
${
    pairs.length === 0 ? "<p>No pairs to compare.</p>" : `<table>
<caption>Pair verdicts (alpha = ${comparison.alpha}, min_n = ${comparison.minN})</caption>
<thead><tr><th scope="col">pair</th><th scope="col" class="num">difference (b − a, 95%)</th><th scope="col" class="num">Fisher p</th><th scope="col">intervals overlap</th><th scope="col">test</th><th scope="col">verdict</th></tr></thead>
<tbody>
${pairs.join("\n")}
</tbody>
</table>`
  }
${notes.length > 0 ? `<h2>Notes</h2>\n<ul>\n${notes.join("\n")}\n</ul>` : ""}`;
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
 * import { comparisonHtml } from "./compare.ts";
 * import { compareRuns } from "../../stats/compare.ts";
 * import { Run } from "../../stats/runs.ts";
 * import assert from "node:assert/strict";
 *
 * const html = comparisonHtml(compareRuns([new Run("a<b", "t", "pass", { cost: 1 })]));
 * assert.match(html, /^<!doctype html>/);
 * assert.match(html, /a&lt;b/);
 * assert.doesNotMatch(html, /https?:|src=/);
 * ```
 */
export function comparisonHtml(comparison: Comparison, options: { title?: string } = {}): string {
  const title = options.title ?? "toolscore compare";
  const runs = comparison.variants.reduce((sum, stats) => sum + stats.n, 0);
  const called = comparison.pairs.filter((pair) => pair.distinguishable).length;
  const body = `<h1>${escapeHtml(title)}</h1>
<p class="summary">${comparison.variants.length} variants, ${runs} runs; ${called} of ${comparison.pairs.length} pair differences called.
k = ${comparison.k}, min_n = ${comparison.minN}, alpha = ${comparison.alpha}${
    comparison.baseline === null ? "" : `, baseline ${escapeHtml(comparison.baseline)}`
  }.</p>
${comparisonSections(comparison)}`;
  return htmlPage(title, body);
}
