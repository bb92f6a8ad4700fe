/**
 * `metrics.matching`: what a contract's `matching` mode found, when it is not
 * the default one-to-one pairing (issue 44). Under `non-consuming` it lists,
 * for each required call of the winning combination, the index (in the
 * trace's calls, every actor's) of the first actual call that satisfies it,
 * or `null`:
 *
 * ```json
 * {"mode": "non-consuming", "matches": [{"expected": 0, "actual": 3}, {"expected": 1, "actual": null}],
 *  "matched_count": 1, "expected_count": 2}
 * ```
 *
 * Under `pass: "tau2-actions"`, a τ² simulation that ended early (its
 * `trace.metadata.termination_reason` is neither `agent_stop` nor
 * `user_stop`) gets `ended_early` and fails, as τ²'s `evaluate_simulation`
 * gives it reward 0 before any check; and the block carries a `note` when the
 * verdict is the action agreement only: the contract's `source.reward_basis` is not
 * exactly `["ACTION"]`, so τ²'s reward also multiplies checks toolscore
 * cannot replay (the database end state, communicated information, NL
 * assertions), or the basis is not known. `eval` prints the note under the
 * trace's block; `eval --json` has it in the result's `metrics.matching`.
 *
 * @module
 */

import type { JsonObject, ToolCall } from "../scoring/calls.ts";
import { nonConsumingMatches } from "../scoring/non_consuming.ts";
import type { Contract } from "../contract/model.ts";
import { clipEcho } from "../base/clip_input.ts";

/** `metrics.matching` under `non-consuming`. */
export interface MatchingBlock {
  /** The contract's mode. */
  mode: "non-consuming";
  /** Per required call: the first actual call (index in the trace) that satisfies it, or `null`. */
  matches: { expected: number; actual: number | null }[];
  /** Required calls matched. */
  matched_count: number;
  /** Required calls. */
  expected_count: number;
  /** How a τ² simulation that ended early ended (`pass: "tau2-actions"` then fails). */
  ended_early?: string;
  /** Why `passed` may differ from the benchmark's recorded reward, when it may. */
  note?: string;
}

// τ²'s evaluate_simulation grades only these endings; any other gets reward 0.
const NORMAL_ENDINGS = ["agent_stop", "user_stop"];

/**
 * The note of a `tau2-actions` verdict whose task is graded on more than its
 * actions, or `undefined` when the verdict is the whole reward.
 *
 * @param source The contract's `source` metadata.
 * @returns The note.
 *
 * @example Usage
 * ```ts
 * import { actionAgreementNote } from "./matching_metrics.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(actionAgreementNote({ reward_basis: ["ACTION"] }), undefined);
 * assert.match(actionAgreementNote({ reward_basis: ["DB", "COMMUNICATE"] })!, /^action agreement only/);
 * ```
 */
export function actionAgreementNote(source: JsonObject | undefined): string | undefined {
  const basis = source?.reward_basis;
  const names = Array.isArray(basis) && basis.every((b) => typeof b === "string")
    ? basis as string[]
    : undefined;
  const others = names?.filter((name) => name !== "ACTION");
  if (names !== undefined && names.length > 0 && others!.length === 0) return undefined;
  return names === undefined
    ? "action agreement only: the task's reward_basis is not known, so passed is the action checks alone and may differ from the benchmark's reward"
    : names.length === 0
    ? "action agreement only: the task's reward_basis is empty, so the benchmark's reward is 1 whatever the actions; passed is the action checks alone"
    : `action agreement only: the task's reward_basis is ${
      names.join(", ")
    }; toolscore cannot replay ${
      others!.join(", ")
    }, so passed is the action checks alone and may differ from the benchmark's reward`;
}

/**
 * The `matching` metrics block of a contract evaluation: `{}` under the
 * default mode, `{matching}` under `non-consuming`.
 *
 * @param contract The contract.
 * @param required The winning combination's required calls.
 * @param traceCalls Every call of the trace.
 * @param metadata The trace's metadata (`termination_reason`).
 * @returns The block to merge into the metrics.
 *
 * @example Usage
 * ```ts
 * import { contractFromMapping } from "../contract/parse.ts";
 * import { matchingMetrics } from "./matching_metrics.ts";
 * import assert from "node:assert/strict";
 *
 * const contract = contractFromMapping({ required: [{ tool: "a" }, { tool: "a" }], matching: "non-consuming" });
 * const { matching } = matchingMetrics(contract, contract.required as [], [{ tool: "a" }]);
 * assert.equal(matching?.matched_count, 2);
 * ```
 */
export function matchingMetrics(
  contract: Contract,
  required: readonly ToolCall[],
  traceCalls: readonly ToolCall[],
  metadata?: JsonObject,
): { matching?: MatchingBlock } {
  if (contract.matching !== "non-consuming") return {};
  const found = nonConsumingMatches(required, traceCalls);
  const matching: MatchingBlock = {
    mode: "non-consuming",
    matches: found.map((actual, expected) => ({ expected, actual })),
    matched_count: found.filter((j) => j !== null).length,
    expected_count: found.length,
  };
  if (contract.pass.kind === "tau2-actions") {
    const ending = metadata?.termination_reason;
    const note = actionAgreementNote(contract.source);
    if (typeof ending === "string" && !NORMAL_ENDINGS.includes(ending)) {
      matching.ended_early = ending;
      matching.note = `the simulation ended early (termination_reason ${
        clipEcho(JSON.stringify(ending))
      }): τ² gives it reward 0 before any check, so it fails`;
    } else if (note !== undefined) matching.note = note;
  }
  return { matching };
}
