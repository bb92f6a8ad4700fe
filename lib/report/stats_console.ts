/**
 * Console reports for comparisons, selections and protocol results: plain
 * text tables, colour only when asked. (Moved here from `lib/stats/report.ts`:
 * the statistics compute, the reports format.)
 *
 * @module
 */

import { maxOf, pushAll } from "../base/arrays.ts";
import type { Comparison } from "../stats/comparison.ts";
import type { VariantStats } from "../stats/variant_stats.ts";
import { formatPairDifference, formatPassRate } from "../stats/format.ts";
import type { ProtocolResult, RuleStatus } from "../stats/protocol_result.ts";
import { formatMetricValue } from "../stats/format.ts";
import type { Selection } from "../stats/select.ts";
import { ownSequence } from "../base/terminal_safe.ts";

/** Options for the console reports. */
export interface StatsReportOptions {
  /**
   * Use ANSI colours.
   * @default {false}
   */
  color?: boolean;
}

const STYLES = { bold: "1", green: "32", red: "31", yellow: "33", dim: "2" } as const;

function paint(text: string, style: keyof typeof STYLES, color: boolean): string {
  return color ? `${ownSequence(`\x1b[${STYLES[style]}m`)}${text}${ownSequence("\x1b[0m")}` : text;
}

/**
 * Lay rows out as a table: columns padded to their widest cell, the header
 * first; columns listed in `right` are right-aligned.
 *
 * @param header The column titles.
 * @param rows The cells.
 * @param right Indexes of right-aligned columns.
 * @returns The lines, without trailing newlines.
 *
 * @example Usage
 * ```ts
 * import { formatStatsTable } from "./stats_console.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(formatStatsTable(["a", "n"], [["xy", "3"]], [1]), ["a   n", "xy  3"]);
 * ```
 */
export function formatStatsTable(
  header: string[],
  rows: string[][],
  right: number[] = [],
): string[] {
  const widths = header.map((title, i) =>
    maxOf(rows.map((row) => (row[i] ?? "").length), title.length)
  );
  return [header, ...rows].map((row) =>
    row.map((cell, i) => right.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))
      .join("  ").trimEnd()
  );
}

function amount(metric: "cost" | "latency", stats: VariantStats): string {
  const value = metric === "cost" ? stats.cost : stats.latency;
  const known = metric === "cost" ? stats.costKnown : stats.latencyKnown;
  const text = formatMetricValue(metric, value);
  return value !== null && known < stats.n ? `${text} (${known}/${stats.n})` : text;
}

/** Flaky tasks shown per variant before "and N more". */
const FLAKY_SHOWN = 5;

/**
 * Per variant, the counts of each task class and its flaky tasks (capped);
 * nothing when no task has two runs.
 */
function taskClassLines(comparison: Comparison): string[] {
  const lines: string[] = [];
  if (!comparison.variants.some((stats) => stats.taskClasses.some((t) => t.class !== "single"))) {
    return lines;
  }
  for (const stats of comparison.variants) {
    const count = { stable_pass: 0, stable_fail: 0, flaky: 0, single: 0 };
    for (const task of stats.taskClasses) count[task.class]++;
    const flaky = stats.taskClasses.filter((task) => task.class === "flaky");
    const shown = flaky.slice(0, FLAKY_SHOWN).map((task) =>
      `${task.task} ${task.passes}/${task.n}`
    );
    if (flaky.length > FLAKY_SHOWN) shown.push(`and ${flaky.length - FLAKY_SHOWN} more`);
    lines.push(
      `  ${stats.variant}: ${count.stable_pass} stable pass, ${count.stable_fail} stable fail, ${count.flaky} flaky${
        count.single > 0 ? `, ${count.single} single` : ""
      }${shown.length > 0 ? ` (${shown.join(", ")})` : ""}`,
    );
  }
  return lines;
}

/**
 * A comparison as console text: a table per variant (n, tasks, pass rate
 * with its 95% Wilson interval, the task-clustered interval and design
 * effect "deff", pass^k, cost, latency, errors), each variant's task classes
 * over repeats (counts, and the flaky tasks, capped), the pair verdicts each
 * with the difference and its interval and the test that decided and why,
 * and the notes.
 *
 * @param comparison The comparison.
 * @param options Colour.
 * @returns The text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { formatComparison } from "./stats_console.ts";
 * import { compareRuns, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const text = formatComparison(compareRuns([new Run("a", "t", "pass"), new Run("b", "t", "fail")]));
 * assert.match(text, /^variant +n +tasks +pass rate/);
 * assert.match(text, /a and b cannot be compared yet/);
 * ```
 */
export function formatComparison(comparison: Comparison, options: StatsReportOptions = {}): string {
  const color = options.color ?? false;
  const k = comparison.k;
  const rows = comparison.variants.map((stats) => [
    stats.variant,
    String(stats.n),
    String(stats.tasks),
    `${stats.passes}/${stats.n} = ${formatPassRate(stats.passRate)}`,
    `[${formatPassRate(stats.interval[0])}, ${formatPassRate(stats.interval[1])}]`,
    stats.clusteredInterval === null
      ? "unknown"
      : `[${formatPassRate(stats.clusteredInterval[0])}, ${
        formatPassRate(stats.clusteredInterval[1])
      }]`,
    stats.designEffect === null ? "unknown" : stats.designEffect.toFixed(2),
    stats.passHatK === null ? "unknown" : stats.passHatK.toFixed(2),
    amount("cost", stats),
    amount("latency", stats),
    String(stats.counts.error),
  ]);
  const table = formatStatsTable(
    [
      "variant",
      "n",
      "tasks",
      "pass rate",
      "95% interval",
      "clustered 95%",
      "deff",
      `pass^${k}`,
      "cost",
      "latency",
      "errors",
    ],
    rows,
    [1, 2, 10],
  );
  const lines = [paint(table[0]!, "bold", color), ...table.slice(1), ""];
  const classes = taskClassLines(comparison);
  if (classes.length > 0) {
    lines.push(paint("Tasks over repeats (flaky: some runs pass, some fail):", "bold", color));
    pushAll(lines, classes);
    lines.push("");
  }
  if (comparison.pairs.length > 0) {
    const against = comparison.baseline === null ? "" : ` against ${comparison.baseline}`;
    lines.push(
      paint(
        `Pairs${against} (alpha = ${comparison.alpha}, min_n = ${comparison.minN}):`,
        "bold",
        color,
      ),
    );
    for (const pair of comparison.pairs) {
      lines.push(`  ${pair.distinguishable ? paint(pair.verdict, "green", color) : pair.verdict}`);
      lines.push(`    ${formatPairDifference(pair)}`);
      if (pair.testReason !== "") lines.push(paint(`    ${pair.testReason}`, "dim", color));
    }
    lines.push("");
  }
  if (comparison.notes.length > 0) {
    lines.push(paint("Notes:", "bold", color));
    for (const note of comparison.notes) lines.push(`  - ${note}`);
    lines.push("");
  }
  return lines.join("\n");
}

/**
 * A selection as console text: the ranking with each objective's value,
 * Pareto membership and weighted score, then the choice and its reason.
 *
 * @param selection The selection.
 * @param comparison The comparison it was made from (for the values).
 * @param options Colour.
 * @returns The text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { formatSelection } from "./stats_console.ts";
 * import { compareRuns, Run, selectVariant } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const comparison = compareRuns([new Run("a", "t", "pass", { cost: 1 }), new Run("b", "t", "pass", { cost: 2 })]);
 * const text = formatSelection(selectVariant(comparison), comparison);
 * assert.match(text, /Chosen: a \(a ties b on pass_rate/);
 * ```
 */
export function formatSelection(
  selection: Selection,
  comparison: Comparison,
  options: StatsReportOptions = {},
): string {
  const color = options.color ?? false;
  const byName = comparison.byName();
  const weighted = selection.policy === "weighted";
  const front = new Set(selection.paretoFront);
  const header = [
    "rank",
    "variant",
    ...selection.objectives.map((objective) => `${objective.metric} (${objective.goal})`),
    "pareto",
    ...(weighted ? ["score"] : []),
  ];
  const rows = selection.ranking.map((name, index) => {
    const stats = byName[name]!;
    return [
      String(index + 1),
      name,
      ...selection.objectives.map((objective) =>
        formatMetricValue(objective.metric, stats.metric(objective.metric))
      ),
      front.has(name) ? "yes" : "no",
      ...(weighted ? [selection.scores[name]!.toFixed(3)] : []),
    ];
  });
  const table = formatStatsTable(header, rows, [0]);
  return [
    `Policy: ${selection.policy}; objectives: ${
      selection.objectives.map((objective) => `${objective.goal} ${objective.metric}`).join(", ")
    }`,
    "",
    paint(table[0]!, "bold", color),
    ...table.slice(1),
    "",
    selection.chosen === null
      ? "Chosen: none (no variants)"
      : `Chosen: ${paint(selection.chosen, "bold", color)} (${selection.reason})`,
    "",
  ].join("\n");
}

const STATUS_STYLE: Record<RuleStatus, keyof typeof STYLES> = {
  pass: "green",
  fail: "red",
  unknown: "yellow",
};

/**
 * A protocol result as console text: each rule's outcome with its numbers,
 * then the decision.
 *
 * @param result The protocol result.
 * @param options Colour.
 * @returns The text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { formatProtocolResult } from "./stats_console.ts";
 * import { compareRuns, evaluateProtocol, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [new Run("a", "t", "pass"), new Run("b", "t", "pass")];
 * const result = evaluateProtocol({
 *   protocol_version: 1, baseline: "a", candidate: "b",
 *   rules: [{ id: "r1", metric: "pass_rate", expect: "not_worse" }],
 * }, compareRuns(runs));
 * assert.match(formatProtocolResult(result), /unknown +r1 +baseline a has 1 run/);
 * ```
 */
export function formatProtocolResult(
  result: ProtocolResult,
  options: StatsReportOptions = {},
): string {
  const color = options.color ?? false;
  const rows = result.rules.map((rule) => [rule.status, rule.id, rule.detail]);
  const table = formatStatsTable(["status", "rule", "detail"], rows);
  const body = table.slice(1).map((line, i) =>
    line.replace(/^\S+/, (status) => paint(status, STATUS_STYLE[result.rules[i]!.status], color))
  );
  const style = result.decision === "adopt"
    ? "green"
    : result.decision === "reject"
    ? "red"
    : "yellow";
  return [
    `Protocol: ${result.title || "(untitled)"}`,
    `  sha256 ${result.protocolSha256}`,
    `  candidate ${result.candidate} vs baseline ${result.baseline}; alpha = ${result.alpha}, min_runs = ${result.minRuns}, k = ${result.k}`,
    "",
    paint(table[0]!, "bold", color),
    ...body,
    "",
    `Decision: ${paint(result.decision, style, color)} (${
      result.summary.slice(result.decision.length + 2)
    })`,
    "",
  ].join("\n");
}
