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

import { keyCount } from "../scoring/_tool_groups.ts";
import type { ToolCall } from "../scoring/calls.ts";
import type { EvaluationResult } from "./evaluate.ts";
import { valuesMatch, type ValuesMatchOptions } from "../scoring/matchers.ts";
import { argsChecked } from "../scoring/pairing.ts";
import { redactSecrets } from "../checks/security.ts";

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
 * import { preview } from "./issues.ts";
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

// An issue found, its message not built yet: messages (with their value previews) are built
// only for the issues shown. Plain records, so finding issues allocates no closures.
interface Draft {
  order: number;
  what: "missing" | "wrong_tool" | "unparsed" | "mismatch" | "unexpected" | "extra";
  expected?: number;
  actual?: number;
  key?: string;
  expectedValue?: unknown;
  actualValue?: unknown;
}

function buildIssue(draft: Draft, result: EvaluationResult): Issue {
  const { expected, actual, key } = draft;
  const want = expected === undefined ? undefined : result.goldCalls[expected];
  const got = actual === undefined ? undefined : result.scoredCalls[actual];
  const step = `${want?.tool} (expected call ${(expected ?? 0) + 1})`;
  switch (draft.what) {
    case "missing":
      return {
        kind: "missing",
        message: `missing call: ${want!.tool}${
          argsChecked(want!) ? ` with ${preview(want!.args)}` : ""
        }`,
        expected,
      };
    case "wrong_tool":
      return {
        kind: "wrong_tool",
        message: `step ${expected! + 1}: expected ${want!.tool}, got ${got!.tool}`,
        expected,
        actual,
      };
    case "unparsed":
      return {
        kind: "argument",
        message: `${step}: arguments did not parse (${got!.argsError}): ${preview(got!.rawArgs)}`,
        expected,
        actual,
      };
    case "mismatch":
      return {
        kind: "argument",
        message: `${step}: argument ${key} expected ${preview(draft.expectedValue)}, got ${
          preview(draft.actualValue)
        }`,
        expected,
        actual,
        key,
        expectedValue: draft.expectedValue,
        actualValue: draft.actualValue,
      };
    case "unexpected":
      return {
        kind: "argument",
        message: `${step}: unexpected argument ${key} = ${preview(draft.actualValue)}`,
        expected,
        actual,
        key,
        actualValue: draft.actualValue,
      };
    case "extra": {
      // People count calls in the whole trace (as the optional and forbidden lines do), not
      // among the scored ones: with optional calls left out the two differ.
      const inTrace = result.traceCalls.indexOf(got!);
      return {
        kind: "extra",
        message: `extra call ${(inTrace === -1 ? actual! : inTrace) + 1}: ${got!.tool} ${
          preview(got!.args ?? {})
        }`,
        actual,
      };
    }
  }
}

function argumentDrafts(
  want: ToolCall,
  got: ToolCall,
  expected: number,
  actual: number,
  options: ValuesMatchOptions,
  out: Draft[],
): void {
  if (!argsChecked(want)) return;
  if (got.argsError !== undefined) {
    out.push({ order: expected, what: "unparsed", expected, actual });
    return;
  }
  const wantArgs = want.args ?? {};
  const gotArgs = got.args ?? {};
  for (const key in wantArgs) {
    const value = Object.hasOwn(gotArgs, key) ? gotArgs[key] : undefined;
    if (value !== undefined && valuesMatch(wantArgs[key], value, options)) continue;
    out.push({
      order: expected,
      what: "mismatch",
      expected,
      actual,
      key,
      expectedValue: wantArgs[key],
      actualValue: value,
    });
  }
  for (const key in gotArgs) {
    if (Object.hasOwn(wantArgs, key)) continue;
    out.push({
      order: expected,
      what: "unexpected",
      expected,
      actual,
      key,
      actualValue: gotArgs[key],
    });
  }
}

/** Options for {@linkcode summarizeIssues}. */
export interface SummarizeIssuesOptions {
  /**
   * Build at most this many issues (the first ones); the rest are only counted.
   * @default {Infinity}
   */
  limit?: number;
}

/**
 * The first issues of an evaluation (in the order of {@linkcode topIssues})
 * and how many there are in all: what a report that shows a few needs,
 * without building the messages of the rest.
 *
 * @param result The evaluation.
 * @param options How many issues to build.
 * @returns The issues shown and the total.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { summarizeIssues } from "./issues.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate(
 *   [{ tool: "a", args: { x: 1 } }, { tool: "b" }],
 *   [{ tool: "a", args: { x: 2 } }],
 * );
 * const { shown, total } = summarizeIssues(result, { limit: 1 });
 * assert.equal(total, 2);
 * assert.deepEqual(shown.map((i) => i.kind), ["argument"]);
 * ```
 */
export function summarizeIssues(
  result: EvaluationResult,
  options: SummarizeIssuesOptions = {},
): { shown: Issue[]; total: number } {
  const drafts = issueDrafts(result);
  const limit = Math.min(drafts.length, options.limit ?? Infinity);
  const shown: Issue[] = [];
  for (let i = 0; i < limit; i++) shown.push(buildIssue(drafts[i]!, result));
  return { shown, total: drafts.length };
}

/**
 * The issues of an evaluation, in expected-call order, extras last.
 *
 * @param result The evaluation.
 * @returns The issues.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { topIssues } from "./issues.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a", args: { x: 1 } }], [{ tool: "a", args: { x: 2 } }]);
 * assert.equal(topIssues(result)[0]?.message, "a (expected call 1): argument x expected 1, got 2");
 * ```
 */
export function topIssues(result: EvaluationResult): Issue[] {
  return summarizeIssues(result).shown;
}

function issueDrafts(result: EvaluationResult): Draft[] {
  const gold = result.goldCalls;
  const scored = result.scoredCalls;
  const pairs = result.metrics.pairs;
  const pairedGold: boolean[] = new Array(gold.length).fill(false);
  // Unpaired actual calls not yet reported as the other half of a wrong tool.
  const extraLeft: boolean[] = new Array(scored.length).fill(true);
  for (const pair of pairs) {
    pairedGold[pair.expected] = true;
    extraLeft[pair.actual] = false;
  }
  const drafts: Draft[] = [];
  for (let i = 0; i < gold.length; i++) {
    if (pairedGold[i]) continue;
    // An unpaired actual call at the same position is the wrong tool, not a miss plus an extra.
    if (extraLeft[i]) {
      extraLeft[i] = false;
      drafts.push({ order: i, what: "wrong_tool", expected: i, actual: i });
    } else {
      drafts.push({ order: i, what: "missing", expected: i });
    }
  }
  const options: ValuesMatchOptions = { strict: result.strict };
  for (const pair of pairs) {
    // A pair that matched every expected key and sent no other key has nothing to report.
    const want = gold[pair.expected]!;
    const got = scored[pair.actual]!;
    if (
      got.argsError === undefined && want.args && pair.matched_keys === keyCount(want.args) &&
      keyCount(got.args) === pair.matched_keys
    ) {
      continue;
    }
    argumentDrafts(want, got, pair.expected, pair.actual, options, drafts);
  }
  drafts.sort((a, b) => a.order - b.order);
  for (let j = 0; j < scored.length; j++) {
    if (extraLeft[j]) drafts.push({ order: Infinity, what: "extra", actual: j });
  }
  return drafts;
}
