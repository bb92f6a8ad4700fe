/**
 * "Top issues to fix": what to change so an evaluation scores higher, in
 * words a person can act on: a missing call, a wrong tool, an argument whose
 * value did not match (with both values), an extra call.
 *
 * A missing expected call and an extra actual call at the same place in the
 * sequence are reported together as one wrong-tool issue.
 *
 * @module
 */

import type { ToolCall } from "../calls.ts";
import type { EvaluationResult } from "../evaluate.ts";
import { valuesMatch } from "../matchers.ts";
import { argsChecked } from "../pairing.ts";
import { redactSecrets } from "../security.ts";

/** One thing to fix. */
export interface Issue {
  /** What kind of problem. */
  kind: "missing" | "wrong_tool" | "argument" | "extra";
  /** A sentence for people. */
  message: string;
  /** Index in the expected calls, when there is one. */
  expected?: number;
  /** Index in the scored actual calls, when there is one. */
  actual?: number;
  /** The argument key, for argument issues. */
  key?: string;
  /** The expected value (matchers as their operator JSON), for argument issues. */
  expectedValue?: unknown;
  /** The actual value (`undefined` when the key was absent), for argument issues. */
  actualValue?: unknown;
}

/**
 * A value as short JSON for messages (long values are cut with `…`). A
 * credential in the value shows only as its preview (first 4 + `…` + last 2
 * characters), so a report never prints a secret.
 *
 * @param value Any value.
 * @param max The longest text to show.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { preview } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(preview({ a: 1 }), '{"a":1}');
 * assert.equal(preview(undefined), "(absent)");
 * assert.equal(preview({ token: "ghp_" + "aB3dE6gH9jK2".repeat(3) }), '{"token":"ghp_…K2"}');
 * ```
 */
export function preview(value: unknown, max = 60): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(redactSecrets(value)) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function argumentIssues(
  want: ToolCall,
  got: ToolCall,
  expected: number,
  actual: number,
  strict: boolean,
): Issue[] {
  if (!argsChecked(want)) return [];
  const step = `${want.tool} (expected call ${expected + 1})`;
  if (got.argsError !== undefined) {
    return [{
      kind: "argument",
      message: `${step}: arguments did not parse (${got.argsError}): ${preview(got.rawArgs)}`,
      expected,
      actual,
    }];
  }
  const issues: Issue[] = [];
  const wantArgs = want.args ?? {};
  const gotArgs = got.args ?? {};
  for (const key of Object.keys(wantArgs)) {
    const value = Object.hasOwn(gotArgs, key) ? gotArgs[key] : undefined;
    if (value !== undefined && valuesMatch(wantArgs[key], value, { strict })) continue;
    issues.push({
      kind: "argument",
      message: `${step}: argument ${key} expected ${preview(wantArgs[key])}, got ${preview(value)}`,
      expected,
      actual,
      key,
      expectedValue: wantArgs[key],
      actualValue: value,
    });
  }
  for (const key of Object.keys(gotArgs)) {
    if (Object.hasOwn(wantArgs, key)) continue;
    issues.push({
      kind: "argument",
      message: `${step}: unexpected argument ${key} = ${preview(gotArgs[key])}`,
      expected,
      actual,
      key,
      actualValue: gotArgs[key],
    });
  }
  return issues;
}

/**
 * The issues of an evaluation, in expected-call order, extras last.
 *
 * @param result The evaluation.
 * @returns The issues.
 *
 * @example Usage
 * ```ts
 * import { evaluate, topIssues } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a", args: { x: 1 } }], [{ tool: "a", args: { x: 2 } }]);
 * assert.equal(topIssues(result)[0]?.message, "a (expected call 1): argument x expected 1, got 2");
 * ```
 */
export function topIssues(result: EvaluationResult): Issue[] {
  const strict = result.strict;
  const gold = result.goldCalls;
  const scored = result.scoredCalls;
  const pairs = result.metrics.pairs;
  const pairedGold = new Set(pairs.map((p) => p.expected));
  const pairedActual = new Set(pairs.map((p) => p.actual));
  const missing = gold.map((_, i) => i).filter((i) => !pairedGold.has(i));
  const extra = scored.map((_, j) => j).filter((j) => !pairedActual.has(j));
  const issues: { order: number; issue: Issue }[] = [];
  const extraLeft = new Set(extra);
  for (const i of missing) {
    const want = gold[i]!;
    // An unpaired actual call at the same position is the wrong tool, not a miss plus an extra.
    const j = extra.find((j) => extraLeft.has(j) && j === i);
    if (j !== undefined) {
      extraLeft.delete(j);
      issues.push({
        order: i,
        issue: {
          kind: "wrong_tool",
          message: `step ${i + 1}: expected ${want.tool}, got ${scored[j]!.tool}`,
          expected: i,
          actual: j,
        },
      });
      continue;
    }
    const args = argsChecked(want) ? ` with ${preview(want.args)}` : "";
    issues.push({
      order: i,
      issue: { kind: "missing", message: `missing call: ${want.tool}${args}`, expected: i },
    });
  }
  for (const pair of pairs) {
    for (
      const issue of argumentIssues(
        gold[pair.expected]!,
        scored[pair.actual]!,
        pair.expected,
        pair.actual,
        strict,
      )
    ) {
      issues.push({ order: pair.expected, issue });
    }
  }
  issues.sort((a, b) => a.order - b.order);
  for (const j of extraLeft) {
    const got = scored[j]!;
    // People count calls in the whole trace (as the optional and forbidden lines do), not among
    // the scored ones: with optional calls left out the two differ.
    const inTrace = result.traceCalls.indexOf(got);
    issues.push({
      order: Infinity,
      issue: {
        kind: "extra",
        message: `extra call ${(inTrace === -1 ? j : inTrace) + 1}: ${got.tool} ${
          preview(got.args ?? {})
        }`,
        actual: j,
      },
    });
  }
  return issues.map((entry) => entry.issue);
}
