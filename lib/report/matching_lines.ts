/**
 * The console lines of a contract's `matching` block (issue 44): how many
 * required calls the non-consuming matching matched, which were not, and the
 * note that a `tau2-actions` verdict is the action agreement only when the
 * task's reward has more than its actions (`lib/evaluate/matching_metrics.ts`).
 *
 * @module
 */

import type { EvaluationResult } from "../evaluate/evaluate.ts";
import type { MatchingBlock } from "../evaluate/matching_metrics.ts";

// At most this many unmatched calls are named on the line.
const NAMED = 5;

/**
 * The lines (indented two spaces), none when the contract used the default
 * pairing.
 *
 * @param result The evaluation.
 * @returns The lines.
 *
 * @example Usage
 * ```ts
 * import { evaluateContract } from "../evaluate/evaluate_contract.ts";
 * import { matchingLines } from "./matching_lines.ts";
 * import assert from "node:assert/strict";
 *
 * const contract = { required: [{ tool: "a" }, { tool: "b" }], matching: "non-consuming" };
 * const result = evaluateContract(contract, [{ tool: "a" }]);
 * assert.deepEqual(matchingLines(result), ["  non-consuming matching: 1 of 2 required calls matched; not matched: b (required 2)"]);
 * ```
 */
export function matchingLines(result: EvaluationResult): string[] {
  const block = result.metrics.matching as MatchingBlock | undefined;
  if (block?.mode !== "non-consuming") return [];
  const missing = block.matches.filter((m) => m.actual === null);
  const named = missing.slice(0, NAMED).map((m) =>
    `${result.goldCalls[m.expected]?.tool ?? "?"} (required ${m.expected + 1})`
  );
  if (missing.length > NAMED) named.push(`and ${missing.length - NAMED} more`);
  const lines = [
    `  non-consuming matching: ${block.matched_count} of ${block.expected_count} required calls matched${
      named.length > 0 ? `; not matched: ${named.join(", ")}` : ""
    }`,
  ];
  if (block.note !== undefined) lines.push(`  note: ${block.note}`);
  return lines;
}

/**
 * A failing trace's one-line reason under `pass: "tau2-actions"` (the quiet
 * and large consoles' line): the simulation ended early, or which required
 * calls were not matched; `undefined` under any other rule.
 *
 * @param result The evaluation.
 * @returns The reason.
 *
 * @example Usage
 * ```ts
 * import { evaluateContract } from "../evaluate/evaluate_contract.ts";
 * import { matchingReason } from "./matching_lines.ts";
 * import assert from "node:assert/strict";
 *
 * const contract = { required: [{ tool: "a" }, { tool: "b" }], matching: "non-consuming", pass: "tau2-actions" };
 * assert.equal(matchingReason(evaluateContract(contract, [{ tool: "a" }])), "tau2-actions: not matched: b (required 2)");
 * ```
 */
export function matchingReason(result: EvaluationResult): string | undefined {
  const block = result.metrics.matching as MatchingBlock | undefined;
  if (result.passRule.kind !== "tau2-actions" || block?.mode !== "non-consuming") return undefined;
  if (block.ended_early !== undefined) {
    return `tau2-actions: the simulation ended early (${block.ended_early})`;
  }
  const missing = block.matches.filter((m) => m.actual === null);
  const named = missing.slice(0, NAMED).map((m) =>
    `${result.goldCalls[m.expected]?.tool ?? "?"} (required ${m.expected + 1})`
  );
  if (missing.length > NAMED) named.push(`and ${missing.length - NAMED} more`);
  return named.length === 0 ? undefined : `tau2-actions: not matched: ${named.join(", ")}`;
}
