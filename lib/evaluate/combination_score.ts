/**
 * The score of one combination of a contract's alternatives, fast enough to
 * run for every combination (up to `MAX_COMBINATIONS`) of a long trace.
 *
 * The composite score reads five metrics: selection accuracy, argument F1,
 * sequence accuracy, redundant rate and required-call recall. All but
 * argument F1 are counts; argument F1 sums, per tool, the matched, expected
 * and sent argument keys of that tool's pairs (pairs never cross tools). So
 * the pairing of each tool — the costly part — is computed once per distinct
 * (expected calls, actual calls) of that tool and reused by every
 * combination that shares them. Pairing and the sums are the ones
 * `computeMetrics` uses (`_tool_groups.ts`); the contract tests check that
 * both give the same score.
 *
 * Sequence accuracy needs the edit distance of the tool-name sequences.
 * Combinations come in declaration order, so consecutive ones share most of
 * their required calls: the distance table's rows for the shared prefix are
 * kept and only the rest is recomputed.
 *
 * @module
 */

import { callFailed, type ToolCall } from "../scoring/calls.ts";
import {
  groupCalls,
  type PairedArgumentCounts,
  pairedArgumentCounts,
  pairGroups,
} from "../scoring/_tool_groups.ts";
import { argumentScoresFromCounts } from "../scoring/metrics.ts";
import { compositeScore } from "../scoring/score.ts";

/** Options for {@linkcode CombinationScorer}. */
export interface CombinationScorerOptions {
  /**
   * Compare argument values exactly.
   * @default {false}
   */
  strict?: boolean;
}

/**
 * Scores combinations of required calls against subsets of one trace's
 * calls, caching each tool's pairing.
 *
 * @example Usage
 * ```ts
 * import { CombinationScorer } from "./combination_score.ts";
 * import { computeMetrics } from "../scoring/metrics.ts";
 * import { compositeScore, normalizeWeights } from "../scoring/score.ts";
 * import assert from "node:assert/strict";
 *
 * const calls = [{ tool: "a", args: { x: 1 } }, { tool: "b", args: { y: 2 } }];
 * const gold = [{ tool: "a", args: { x: 1 } }, { tool: "c" }];
 * const weights = normalizeWeights();
 * const scorer = new CombinationScorer(calls, weights);
 * const expected = compositeScore(computeMetrics(gold, calls), weights);
 * assert.ok(Math.abs(scorer.score(gold, calls) - expected) < 1e-12);
 * ```
 */
export class CombinationScorer {
  readonly #weights: Record<string, number>;
  readonly #strict: boolean;
  // Every call seen (trace calls first), with a small integer id and its tool's id.
  readonly #callIds = new Map<ToolCall, number>();
  readonly #calls: ToolCall[] = [];
  readonly #toolOfCall: number[] = [];
  readonly #failed: boolean[] = [];
  readonly #toolIds = new Map<string, number>();
  readonly #cache = new Map<string, PairedArgumentCounts>();
  // Per-tool scratch, indexed by tool id; reset for the tools touched.
  #goldCount: number[] = [];
  #actualCount: number[] = [];
  #succeeded: number[] = [];
  #goldKey: string[] = [];
  #actualKey: string[] = [];
  // The edit-distance table of the previous call, kept for its shared prefix.
  #rows: Int32Array = new Int32Array(0);
  #rowGold: number[] = [];
  #rowActual: number[] = [];

  /**
   * Create a scorer for one trace.
   *
   * @param traceCalls Every call of the trace (scored calls are a subset of these).
   * @param weights Normalized weights.
   * @param options Lenient or strict comparison.
   */
  constructor(
    traceCalls: readonly ToolCall[],
    weights: Record<string, number>,
    options: CombinationScorerOptions = {},
  ) {
    for (const call of traceCalls) this.#id(call);
    this.#weights = weights;
    this.#strict = options.strict ?? false;
  }

  #id(call: ToolCall): number {
    let id = this.#callIds.get(call);
    if (id !== undefined) return id;
    id = this.#calls.length;
    this.#callIds.set(call, id);
    this.#calls.push(call);
    // A malformed call (issue 30) is a tool of its own kind: it never pairs with gold.
    const name = call.malformed === undefined
      ? call.tool
      : `\u0000${call.malformed}\u0000${call.tool}`;
    let tool = this.#toolIds.get(name);
    if (tool === undefined) {
      tool = this.#toolIds.size;
      this.#toolIds.set(name, tool);
      this.#goldCount.push(0);
      this.#actualCount.push(0);
      this.#succeeded.push(0);
      this.#goldKey.push("");
      this.#actualKey.push("");
    }
    this.#toolOfCall.push(tool);
    this.#failed.push(callFailed(call));
    return id;
  }

  #toolArguments(
    tool: number,
    key: string,
    goldIds: number[],
    actualIds: number[],
  ): PairedArgumentCounts {
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const gold = goldIds.filter((id) => this.#toolOfCall[id] === tool).map((id) =>
      this.#calls[id]!
    );
    const actual = actualIds.filter((id) => this.#toolOfCall[id] === tool).map((id) =>
      this.#calls[id]!
    );
    const groups = groupCalls(gold, actual);
    const pairing = pairGroups(groups, gold, actual, this.#strict);
    const sums = pairedArgumentCounts(actual, pairing, groups.goldKeys);
    this.#cache.set(key, sums);
    return sums;
  }

  // Levenshtein distance of the tool sequences, reusing the rows of the
  // previous call's table while the gold prefix and the actual sequence agree.
  #distance(gold: number[], actual: number[]): number {
    const g = gold.length;
    const t = actual.length;
    if (g === 0) return t;
    if (t === 0) return g;
    const width = t + 1;
    let shared = 0;
    const previousActual = this.#rowActual;
    let sameActual = previousActual.length === t;
    for (let j = 0; sameActual && j < t; j++) sameActual = previousActual[j] === actual[j];
    if (sameActual) {
      const previousGold = this.#rowGold;
      const limit = Math.min(previousGold.length, g);
      while (shared < limit && previousGold[shared] === gold[shared]) shared++;
    }
    if (this.#rows.length < (g + 1) * width) {
      this.#rows = new Int32Array(Math.max((g + 1) * width, this.#rows.length * 2));
      shared = 0; // a new table keeps nothing
    }
    const rows = this.#rows;
    if (shared === 0) {
      for (let j = 0; j <= t; j++) rows[j] = j;
    }
    for (let i = shared + 1; i <= g; i++) {
      const row = i * width;
      const above = row - width;
      const token = gold[i - 1];
      rows[row] = i;
      for (let j = 1; j <= t; j++) {
        const substitution = rows[above + j - 1]! + (token === actual[j - 1] ? 0 : 1);
        const deletion = rows[above + j]! + 1;
        const insertion = rows[row + j - 1]! + 1;
        rows[row + j] = Math.min(substitution, deletion, insertion);
      }
    }
    this.#rowGold = gold;
    this.#rowActual = actual;
    return rows[g * width + t]!;
  }

  /**
   * The composite score of actual calls against required calls — the same
   * number `compositeScore(computeMetrics(required, scored))` gives.
   *
   * @param required The required calls of one combination.
   * @param scored The actual calls that are scored (a subset of the trace's).
   * @returns The score in [0, 1].
   */
  score(required: readonly ToolCall[], scored: readonly ToolCall[]): number {
    const goldCount = this.#goldCount;
    const actualCount = this.#actualCount;
    const succeeded = this.#succeeded;
    const goldKey = this.#goldKey;
    const actualKey = this.#actualKey;
    const goldIds: number[] = new Array(required.length);
    const goldTools: number[] = new Array(required.length);
    const actualIds: number[] = new Array(scored.length);
    const actualTools: number[] = new Array(scored.length);
    for (let i = 0; i < required.length; i++) {
      const id = this.#id(required[i]!);
      goldIds[i] = id;
      goldTools[i] = this.#toolOfCall[id]!;
    }
    for (let j = 0; j < scored.length; j++) {
      const id = this.#id(scored[j]!);
      actualIds[j] = id;
      actualTools[j] = this.#toolOfCall[id]!;
    }
    // Reset the scratch of the tools involved (ids may be new since the last call).
    for (const tool of goldTools) {
      goldCount[tool] = actualCount[tool] = succeeded[tool] = 0;
      goldKey[tool] = actualKey[tool] = "";
    }
    for (const tool of actualTools) {
      goldCount[tool] = actualCount[tool] = succeeded[tool] = 0;
      goldKey[tool] = actualKey[tool] = "";
    }
    for (let i = 0; i < goldIds.length; i++) {
      const tool = goldTools[i]!;
      goldCount[tool]!++;
      goldKey[tool] += `${goldIds[i]},`;
    }
    for (let j = 0; j < actualIds.length; j++) {
      const tool = actualTools[j]!;
      actualCount[tool]!++;
      if (!this.#failed[actualIds[j]!]) succeeded[tool]!++;
      actualKey[tool] += `${actualIds[j]},`;
    }

    let correct = 0;
    let expectedKeys = 0;
    let actualKeys = 0;
    let anyPairMatched = false;
    let selected = 0;
    let redundant = 0;
    let made = 0;
    for (let i = 0; i < goldTools.length; i++) {
      const tool = goldTools[i]!;
      if (goldKey[tool] === "") continue; // this tool was summed already
      const sums = this.#toolArguments(
        tool,
        `${tool}:${goldKey[tool]}|${actualKey[tool]}`,
        goldIds,
        actualIds,
      );
      goldKey[tool] = "";
      correct += sums.correct;
      expectedKeys += sums.expectedKeys;
      actualKeys += sums.actualKeys;
      anyPairMatched ||= sums.anyPairMatched;
      selected += actualCount[tool]!;
      redundant += Math.max(0, actualCount[tool]! - goldCount[tool]!);
      made += Math.min(goldCount[tool]!, succeeded[tool]!);
    }
    for (const tool of actualTools) {
      if (goldCount[tool] === 0) redundant++;
    }

    const g = required.length;
    const t = scored.length;
    const argumentF1 = argumentScoresFromCounts({
      correct,
      expectedKeys,
      actualKeys,
      anyPairMatched,
      bothEmpty: g === 0 && t === 0,
    }).f1;
    const sequence = 1 - this.#distance(goldTools, actualTools) / Math.max(g, t, 1);
    return compositeScore({
      selection_accuracy: t === 0 ? (g === 0 ? 1 : 0) : selected / t,
      argument_f1: argumentF1,
      sequence_accuracy: sequence,
      redundant_rate: t === 0 ? 0 : redundant / t,
      required_call_recall: g === 0 ? null : made / g,
    }, this.#weights);
  }
}
