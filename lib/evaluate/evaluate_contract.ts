/**
 * `evaluateContract()`: score a trace against every combination of a
 * contract's alternatives and keep the best.
 *
 * Each combination is scored on the metrics the score reads (selection,
 * arguments, sequence, redundancy, recall; see {@linkcode CombinationScorer})
 * after its own {@linkcode splitOptional}. The per-trace checks —
 * credentials, forbidden rules, honesty, side effects — run once, on the
 * winner, through `evaluateTrace`, whose score is the winner's combination
 * score. The winner is the highest score; a tie (within 1e-12) goes to the
 * earlier combination in declaration order.
 *
 * Forbidden rules are the contract's, followed by any given in the options
 * (a standalone `--forbidden` file); `rule` indexes count over that list.
 *
 * @module
 */

import type { FormatName } from "../scoring/calls.ts";
import { evaluateTrace, type EvaluationResult } from "./evaluate.ts";
import type { ForbiddenRule } from "../checks/forbidden.ts";
import { traceFromValue } from "../formats/detect.ts";
import { traceWithErrorText } from "../checks/error_text.ts";
import type { HonestyConfig } from "../checks/honesty_config.ts";
import { normalizeWeights } from "../scoring/score.ts";
import { CombinationScorer } from "./combination_score.ts";
import { Contract, CONTRACT_VERSION } from "../contract/model.ts";
import { contractFromMapping } from "../contract/parse.ts";
import { splitOptional } from "../contract/split.ts";
import { withContractBar } from "./result_bar.ts";
import { isUserCall, scoringCalls, scoringExpected } from "../scoring/actors.ts";
import { matchingMetrics } from "./matching_metrics.ts";
import { bfclVerdictOf } from "./bfcl_contract.ts";

/** Options for {@linkcode evaluateContract}. */
export interface EvaluateContractOptions {
  /**
   * Score weights; replace the contract's when given.
   * @default {undefined} (the contract's, else the defaults)
   */
  weights?: Record<string, number>;
  /**
   * Compare argument values exactly.
   * @default {false}
   */
  strict?: boolean;
  /**
   * The agent's final answer from outside the trace, for the honesty checks.
   * @default {undefined}
   */
  finalAnswer?: string;
  /**
   * Honesty-check configuration.
   * @default {undefined} (the shipped defaults)
   */
  honesty?: HonestyConfig;
  /**
   * How to read `actual`.
   * @default {"auto"}
   */
  format?: "auto" | FormatName;
  /**
   * Where relative `file_exists` side-effect paths resolve (the contract's folder).
   * @default {undefined} (the current directory)
   */
  baseDir?: string;
  /**
   * More forbidden rules, checked after the contract's.
   * @default {undefined}
   */
  forbidden?: ForbiddenRule[];
}

/** One combination of alternatives and its score. */
export interface CombinationScore {
  /** The option index chosen for each group, by group id. */
  chosen: Record<string, number>;
  /** The combination's score. */
  score: number;
}

/** `metrics.contract_metrics`. */
export interface ContractMetrics {
  /** The contract format version (2). */
  contract_version: number;
  /** The winning choice and every combination's score, in declaration order. */
  alternatives: {
    chosen: Record<string, number>;
    /** The tools of each group's chosen option (`[]` for an empty option: the step was skipped). */
    chosen_tools: Record<string, string[]>;
    combinations: CombinationScore[];
  };
  /** Indexes (in the trace) of the optional calls left out of the score. */
  optional_matched: number[];
  /** Required entries (a group counts once). */
  required_count: number;
  /** Optional entries. */
  optional_count: number;
  /** Forbidden rules of the contract. */
  forbidden_count: number;
}

// Ties within this are decided by declaration order.
const TIE = 1e-12;

/**
 * Evaluate tool calls against a contract: every combination of alternatives
 * is scored (after leaving out optional calls) and kept; the best wins, ties
 * going to declaration order.
 *
 * @param contract A {@linkcode Contract} or a contract mapping (parsed JSON).
 * @param actual The calls, or anything the format detector reads.
 * @param options Weights, strictness, final answer, honesty configuration, format.
 * @returns The evaluation of the best combination, with
 * `metrics.contract_metrics`; `traceCalls` keeps every call, optional ones
 * included, and `scoredCalls` holds the calls the score was computed on.
 * @throws {InputError} On a bad contract, weights or trace, or more than `MAX_COMBINATIONS` combinations.
 *
 * @example Usage
 * ```ts
 * import { evaluateContract } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const contract = {
 *   required: [
 *     { tool: "search_flights", args: { destination: "NYC" } },
 *     { id: "notify", alternatives: [[{ tool: "send_email" }], [{ tool: "send_sms" }], []] },
 *   ],
 *   optional: [{ tool: "get_weather" }],
 * };
 * const result = evaluateContract(contract, [
 *   { tool: "get_weather", args: { city: "NYC" } },
 *   { tool: "search_flights", args: { destination: "NYC" } },
 *   { tool: "send_sms", args: { to: "+1555" } },
 * ]);
 * assert.equal(result.score, 1);
 * const metrics = result.metrics.contract_metrics as { alternatives: { chosen: object } };
 * assert.deepEqual(metrics.alternatives.chosen, { notify: 1 });
 * assert.equal(result.traceCalls.length, 3);
 * ```
 */
export function evaluateContract(
  contract: Contract | Record<string, unknown>,
  actual: unknown,
  options: EvaluateContractOptions = {},
): EvaluationResult {
  const parsed = contract instanceof Contract ? contract : contractFromMapping(contract);
  // Errors written as text fail their calls before the best combination is chosen.
  const trace = traceWithErrorText(
    traceFromValue(actual, { format: options.format }),
    options.honesty,
  );
  const weightsGiven = options.weights ?? parsed.weights;
  const weights = normalizeWeights(weightsGiven);
  const strict = options.strict ?? false;

  const combinations: CombinationScore[] = [];
  let best = -1;
  let bestScore = -Infinity;
  let bestScored = trace.calls;
  let bestLeftOut: number[] = [];
  const expansions = parsed.expansions();
  const scorer = new CombinationScorer(trace.calls, weights, { strict });
  // Issue 34: a combination naming a user call scores the user's calls too (actors.ts).
  const views = [false, true].map((namesUser) => scoringCalls(trace.calls, namesUser));
  const optional = scoringExpected(parsed.optional);
  expansions.forEach((expansion, index) => {
    const view = views[expansion.calls.some(isUserCall) ? 1 : 0]!;
    const expected = scoringExpected(expansion.calls);
    const [scored, leftOut] = splitOptional(view.calls, expected, optional);
    const score = scorer.score(expected, scored);
    combinations.push({ chosen: expansion.chosen, score });
    if (score > bestScore + TIE) {
      best = index;
      bestScore = score;
      bestScored = scored.map(view.original);
      bestLeftOut = view.calls === trace.calls
        ? leftOut
        : leftOut.map((i) => trace.calls.indexOf(view.original(view.calls[i]!)));
    }
  });
  const winner = expansions[best]!;

  const contractMetrics: ContractMetrics = {
    contract_version: CONTRACT_VERSION,
    alternatives: {
      chosen: winner.chosen,
      chosen_tools: Object.fromEntries(
        parsed.groups.map((group) => [
          group.id,
          (group.options[winner.chosen[group.id]!] ?? []).map((call) => call.tool),
        ]),
      ),
      combinations,
    },
    optional_matched: bestLeftOut,
    required_count: parsed.required.length,
    optional_count: parsed.optional.length,
    forbidden_count: parsed.forbidden.length,
  };
  const bfcl = parsed.matching === "bfcl-greedy"
    ? { bfcl: bfclVerdictOf(parsed, views[0]!.calls, trace) }
    : {};
  return withContractBar(
    evaluateTrace(winner.calls, trace, {
      weights: weightsGiven,
      strict,
      forbidden: [...parsed.forbidden, ...(options.forbidden ?? [])],
      finalAnswer: options.finalAnswer,
      honesty: options.honesty,
      baseDir: options.baseDir,
      scoredCalls: bestScored,
      // Issue 44: a matching mode other than the default reports what it matched; issue 43:
      // under bfcl-greedy, BFCL's verdict.
      extraMetrics: {
        contract_metrics: contractMetrics,
        ...matchingMetrics(parsed, winner.calls, trace.calls, trace.metadata),
        ...bfcl,
      },
      pass: parsed.pass,
    }),
    parsed.minScore,
  );
}
