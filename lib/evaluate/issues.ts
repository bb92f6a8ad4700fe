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

// Issues in report order, kept as drafts only while fewer than `limit` are kept: the rest are only
// counted, so a report that shows five issues of a trace with forty builds five records.
class Drafts {
  readonly kept: Draft[] = [];
  total = 0;
  constructor(readonly limit: number) {}

  /** Count one more issue: `true` when it is among the kept ones (then push its draft). */
  take(): boolean {
    this.total++;
    return this.kept.length < this.limit;
  }
}

function argumentDrafts(
  want: ToolCall,
  got: ToolCall,
  expected: number,
  actual: number,
  options: ValuesMatchOptions,
  out: Drafts,
): void {
  if (!argsChecked(want)) return;
  if (got.argsError !== undefined) {
    if (out.take()) out.kept.push({ what: "unparsed", expected, actual });
    return;
  }
  const wantArgs = want.args ?? {};
  const gotArgs = got.args ?? {};
  for (const key in wantArgs) {
    const value = Object.hasOwn(gotArgs, key) ? gotArgs[key] : undefined;
    if (value !== undefined && valuesMatch(wantArgs[key], value, options)) continue;
    if (!out.take()) continue;
    out.kept.push({
      what: "mismatch",
      expected,
      actual,
      key,
      expectedValue: wantArgs[key],
      actualValue: value,
    });
  }
  for (const key in gotArgs) {
    if (Object.hasOwn(wantArgs, key) || !out.take()) continue;
    out.kept.push({
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
  const limit = options.limit ?? Infinity;
  const drafts = issueDrafts(result, limit > 0 ? limit : 0); // NaN or below 0: none shown
  return { shown: drafts.kept.map((draft) => buildIssue(draft, result)), total: drafts.total };
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

// The issues in expected-call order (an unpaired expected call, or its pair's argument issues in
// key order), extras last.
function issueDrafts(result: EvaluationResult, limit: number): Drafts {
  const gold = result.goldCalls;
  const scored = result.scoredCalls;
  const pairOf: (EvaluationResult["metrics"]["pairs"][number] | undefined)[] = new Array(
    gold.length,
  );
  // Unpaired actual calls not yet reported as the other half of a wrong tool.
  const extraLeft: boolean[] = new Array(scored.length).fill(true);
  for (const pair of result.metrics.pairs) {
    pairOf[pair.expected] = pair;
    extraLeft[pair.actual] = false;
  }
  const out = new Drafts(limit);
  const options: ValuesMatchOptions = { strict: result.strict };
  for (let i = 0; i < gold.length; i++) {
    const pair = pairOf[i];
    if (pair === undefined) {
      // An unpaired actual call at the same position is the wrong tool, not a miss plus an
      // extra.
      const wrongTool = extraLeft[i] === true;
      if (wrongTool) extraLeft[i] = false;
      if (out.take()) {
        out.kept.push(
          wrongTool
            ? { what: "wrong_tool", expected: i, actual: i }
            : { what: "missing", expected: i },
        );
      }
      continue;
    }
    // A pair that matched every expected key and sent no other key has nothing to report.
    const want = gold[i]!;
    const got = scored[pair.actual]!;
    if (
      got.argsError === undefined && want.args && pair.matched_keys === keyCount(want.args) &&
      keyCount(got.args) === pair.matched_keys
    ) {
      continue;
    }
    argumentDrafts(want, got, i, pair.actual, options, out);
  }
  for (let j = 0; j < scored.length; j++) {
    if (extraLeft[j] && out.take()) out.kept.push({ what: "extra", actual: j });
  }
  return out;
}
