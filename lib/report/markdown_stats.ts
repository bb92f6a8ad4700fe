/**
 * `compare` and `decide` as Markdown: the variant table (pass rate with its
 * 95% Wilson interval, pass^k, cost, latency, errors), the pair verdicts and
 * the notes; for `decide` the decision, the protocol's hash and one row per
 * rule. Within {@linkcode MARKDOWN_LIMIT} bytes like the `eval` report;
 * variant names come from the runs and are escaped.
 *
 * @module
 */

import type { Comparison } from "../stats/comparison.ts";
import {
  formatMetricValue,
  formatPairDifference,
  formatPassRate,
  formatPValue,
} from "../stats/format.ts";
import type { ProtocolResult } from "../stats/protocol_result.ts";
import { escapeMarkdown } from "./escape.ts";
import type { MarkdownOptions } from "./markdown.ts";
import { MARKDOWN_LIMIT, MarkdownBudget } from "./markdown_budget.ts";

function variantTable(budget: MarkdownBudget, comparison: Comparison): void {
  budget.table(
    [
      `| variant | n | tasks | pass rate | 95% interval | clustered 95% | pass^${comparison.k} | cost | latency | errors |`,
      "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |",
    ],
    comparison.variants.map((stats) =>
      `| ${
        escapeMarkdown(stats.variant)
      } | ${stats.n} | ${stats.tasks} | ${stats.passes}/${stats.n} = ${
        formatPassRate(stats.passRate)
      } | [${formatPassRate(stats.interval[0])}, ${formatPassRate(stats.interval[1])}] | ${
        stats.clusteredInterval === null
          ? "unknown"
          : `[${formatPassRate(stats.clusteredInterval[0])}, ${
            formatPassRate(stats.clusteredInterval[1])
          }]`
      } | ${stats.passHatK === null ? "unknown" : stats.passHatK.toFixed(2)} | ${
        escapeMarkdown(formatMetricValue("cost", stats.cost)) // `$0.02` would start math on GitHub
      } | ${formatMetricValue("latency", stats.latency)} | ${stats.counts.error} |`
    ),
    "variant rows",
    0.6,
  );
}

function pairsAndNotes(budget: MarkdownBudget, comparison: Comparison): void {
  if (comparison.pairs.length > 0) {
    const against = comparison.baseline === null
      ? ""
      : ` against ${escapeMarkdown(comparison.baseline)}`;
    const items = comparison.pairs.map((pair) =>
      `- ${pair.distinguishable ? "**called**" : "not called"}: ${escapeMarkdown(pair.verdict)}; ${
        escapeMarkdown(formatPairDifference(pair))
      }${pair.testReason === "" ? "" : ` (${escapeMarkdown(pair.testReason)})`}`
    );
    budget.block(`Pairs${against} (alpha = ${comparison.alpha}, min_n = ${comparison.minN}):`);
    let i = 0;
    for (; i < items.length; i++) if (!budget.block(items[i]!)) break;
    budget.omit("pair verdicts", items.length - i);
  }
  if (comparison.notes.length > 0) {
    budget.block(
      `Notes:\n\n${comparison.notes.map((note) => `- ${escapeMarkdown(note)}`).join("\n")}`,
      "notes",
    );
  }
}

/**
 * A comparison as Markdown.
 *
 * @param comparison The comparison.
 * @param options The byte limit.
 * @returns The Markdown text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { compareMarkdown } from "./markdown_stats.ts";
 * import { compareRuns } from "../stats/compare.ts";
 * import { Run } from "../stats/runs.ts";
 * import assert from "node:assert/strict";
 *
 * const text = compareMarkdown(compareRuns([new Run("a|b", "t", "pass")]));
 * assert.match(text, /^### toolscore compare: 1 variant, 1 run/);
 * assert.match(text, /\| a\\\|b \| 1 \|/);
 * ```
 */
export function compareMarkdown(comparison: Comparison, options: MarkdownOptions = {}): string {
  const budget = new MarkdownBudget(options.limit ?? MARKDOWN_LIMIT);
  const runs = comparison.variants.reduce((sum, stats) => sum + stats.n, 0);
  const called = comparison.pairs.filter((pair) => pair.distinguishable).length;
  const count = comparison.variants.length;
  budget.block(
    `### toolscore compare: ${count} ${count === 1 ? "variant" : "variants"}, ${runs} ${
      runs === 1 ? "run" : "runs"
    }\n\n${called} of ${comparison.pairs.length} pair differences called (test ${comparison.test}, alpha ${comparison.alpha}, ` +
      `at least ${comparison.minN} runs each; each verdict says which test decided); k = ${comparison.k}.`,
  );
  variantTable(budget, comparison);
  pairsAndNotes(budget, comparison);
  return budget.text();
}

/**
 * A protocol decision as Markdown: the decision, the protocol's sha256, one
 * row per rule, then the comparison it was decided on.
 *
 * @param result The protocol result.
 * @param comparison The comparison.
 * @param options The byte limit.
 * @returns The Markdown text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { decideMarkdown } from "./markdown_stats.ts";
 * import { compareRuns } from "../stats/compare.ts";
 * import { evaluateProtocol } from "../stats/evaluate_protocol.ts";
 * import { Run } from "../stats/runs.ts";
 * import assert from "node:assert/strict";
 *
 * const comparison = compareRuns([new Run("a", "t", "pass"), new Run("b", "t", "pass")]);
 * const result = evaluateProtocol({
 *   protocol_version: 1, baseline: "a", candidate: "b",
 *   rules: [{ id: "r1", metric: "pass_rate", expect: "not_worse" }],
 * }, comparison);
 * assert.match(decideMarkdown(result, comparison), /^### toolscore decide: undecided/);
 * ```
 */
export function decideMarkdown(
  result: ProtocolResult,
  comparison: Comparison,
  options: MarkdownOptions = {},
): string {
  const budget = new MarkdownBudget(options.limit ?? MARKDOWN_LIMIT);
  const counts = { pass: 0, fail: 0, unknown: 0 };
  for (const rule of result.rules) counts[rule.status]++;
  budget.block(
    `### toolscore decide: ${result.decision}\n\n` +
      `${escapeMarkdown(result.title || "(untitled protocol)")}: candidate ${
        escapeMarkdown(result.candidate)
      } ` +
      `vs baseline ${
        escapeMarkdown(result.baseline)
      }; rules ${counts.pass} pass, ${counts.fail} fail, ` +
      `${counts.unknown} unknown (unknown is never a pass); alpha = ${result.alpha}, ` +
      `min_runs = ${result.minRuns}, k = ${result.k}\n\nProtocol sha256 ${result.protocolSha256}`,
  );
  budget.table(
    [
      "| status | rule | metric | baseline | candidate | p-value | detail |",
      "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ],
    result.rules.map((rule) =>
      `| ${rule.status === "pass" ? "pass" : `**${rule.status}**`} | ${escapeMarkdown(rule.id)} | ${
        escapeMarkdown(rule.metric)
      } | ${
        rule.rule.expect === undefined
          ? "—" // a bound on the candidate reads no baseline
          : escapeMarkdown(formatMetricValue(rule.metric, rule.baselineValue))
      } | ${escapeMarkdown(formatMetricValue(rule.metric, rule.candidateValue))} | ${
        rule.pValue === null ? "n/a" : formatPValue(rule.pValue)
      } | ${escapeMarkdown(rule.detail)} |`
    ),
    "rule rows",
    0.5,
  );
  variantTable(budget, comparison);
  pairsAndNotes(budget, comparison);
  return budget.text();
}
