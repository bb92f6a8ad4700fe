/**
 * `assertTools()`: an assertion for any test runner (Deno.test, node:test,
 * vitest). It throws `node:assert`'s `AssertionError`, so runners show it as
 * an ordinary failed assertion, with a message that reads as a diff: each
 * expected call against the actual call it was paired with, the failing
 * argument with both values, missing and extra calls, and the score.
 *
 * By default every call must match (`minScore` 1) and no evidence check of
 * the default passing rule may fail (issue 28: every check but `call-errors`;
 * before, only error-severity honesty findings counted); relax with `minScore`.
 *
 * @module
 */

import { AssertionError } from "node:assert";
import { evaluationEvidence } from "../checks/evidence.ts";
import { evaluate, type EvaluateOptions } from "./evaluate.ts";
import { preview, topIssues } from "./issues.ts";

/** Options for {@linkcode assertTools}. */
export interface AssertToolsOptions extends EvaluateOptions {
  /**
   * The lowest passing score.
   * @default {1}
   */
  minScore?: number;
  /**
   * A message prefix, e.g. the test case's name.
   * @default {undefined}
   */
  message?: string;
}

/**
 * Assert that actual tool calls match the expected ones.
 *
 * @param expected The expected calls (gold-file shape; `$` operators allowed).
 * @param actual The actual calls, or anything the format detector reads.
 * @param options The bar, a message, and `evaluate()`'s options.
 * @throws {AssertionError} With a readable diff when the score is under the bar
 *   or a check of the passing rule failed.
 *
 * @example Usage
 * ```ts
 * import { assertTools } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assertTools([{ tool: "search", args: { q: "deno" } }], [{ tool: "search", args: { q: "deno" } }]);
 * assert.throws(
 *   () => assertTools([{ tool: "search", args: { q: "deno" } }], [{ tool: "search", args: { q: "node" } }]),
 *   /argument q expected "deno", got "node"/,
 * );
 * ```
 */
export function assertTools(
  expected: unknown,
  actual: unknown,
  options: AssertToolsOptions = {},
): void {
  const { minScore = 1, message, ...evaluateOptions } = options;
  const result = evaluate(expected, actual, evaluateOptions);
  const evidence = evaluationEvidence(result);
  const verdict = result.verdict(minScore, evidence);
  if (verdict.passed) return;
  const lines: string[] = [];
  if (message) lines.push(message);
  lines.push(
    `tool calls do not match: score ${result.score.toFixed(3)} (${result.grade}), ` +
      `needed ${minScore}`,
  );
  const pairs = new Map(result.metrics.pairs.map((p) => [p.expected, p.actual]));
  result.goldCalls.forEach((want, i) => {
    const j = pairs.get(i);
    const got = j === undefined ? undefined : result.scoredCalls[j];
    const wantText = `${want.tool}${
      want.args == null ? "(args unchecked)" : preview(want.args, 200)
    }`;
    lines.push(`- expected #${i + 1}: ${wantText}`);
    lines.push(
      got
        ? `+ actual   #${j! + 1}: ${got.tool}${preview(got.args ?? {}, 200)}`
        : "+ actual     (missing)",
    );
  });
  const issues = topIssues(result);
  if (issues.length > 0) {
    lines.push("issues:");
    for (const issue of issues) lines.push(`  ${issue.message}`);
  }
  for (const check of evidence.checks) {
    if (verdict.failedChecks.includes(check.check)) {
      lines.push(`  failed ${check.check}: ${check.detail}`);
    }
  }
  const honesty = (result.metrics.honesty_metrics as {
    findings?: { severity: string; message: string }[];
  }).findings ?? [];
  for (const finding of honesty.filter((f) => f.severity === "error")) {
    lines.push(`  honesty: ${finding.message}`);
  }
  throw new AssertionError({
    message: lines.join("\n"),
    actual: result.scoredCalls.map((c) => ({ tool: c.tool, args: c.args })),
    expected: result.goldCalls.map((c) => ({ tool: c.tool, args: c.args })),
    operator: "assertTools",
  });
}
