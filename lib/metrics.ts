/**
 * The core metrics of one evaluation (scoring.md §3): selection, invocation,
 * tool correctness, argument precision/recall/F1, sequence, trajectory,
 * redundancy, identical calls, errors, required-call recall, schema
 * compliance, latency and cost.
 *
 * Pure: nothing here reads a file, the clock or the environment.
 *
 * @module
 */

import { callFailed, hasOutcome, type ToolCall } from "./calls.ts";
import {
  argsChecked,
  type CallPair,
  matchedKeyCount,
  pairCalls,
  type PairingOptions,
} from "./pairing.ts";
import { schemaAccepts } from "./schema_check.ts";

/** Totals of one figure (seconds or USD) per tool; `null` when no call carries it. */
export interface FigureBlock {
  /** Sum over the calls that carry the figure, or `null` when none does. */
  total: number | null;
  /** Mean over the calls that carry it, or `null`. */
  mean: number | null;
  /** Calls that carry the figure. */
  known: number;
  /** Calls in all. */
  calls: number;
  /** The same, per tool. */
  per_tool: Record<
    string,
    { total: number | null; mean: number | null; known: number; calls: number }
  >;
}

/** The core metrics, with snake_case keys as in every file and report. */
export interface CoreMetrics {
  /** Share of actual calls whose tool is an expected tool. */
  selection_accuracy: number;
  /** Tool-name-set agreement with a penalty for extra and missing names. */
  invocation_accuracy: number;
  /** Share of expected tool names that were called. */
  tool_correctness: number;
  /** Expected tools never called, in first-expected order. */
  missing_tools: string[];
  /** Called tools never expected, in first-called order. */
  extra_tools: string[];
  /** Matched argument keys / argument keys sent. */
  argument_precision: number;
  /** Matched argument keys / expected argument keys. */
  argument_recall: number;
  /** Harmonic mean of precision and recall. */
  argument_f1: number;
  /** 1 − normalized Levenshtein distance of the tool-name sequences. */
  sequence_accuracy: number;
  /** Positional step matches, penalized for extra steps. */
  trajectory_accuracy: number;
  /** Calls beyond the expected count of their tool / actual calls. */
  redundant_rate: number;
  /** Calls repeating an earlier call exactly / actual calls. */
  identical_rate: number;
  /** Calls that failed. */
  error_count: number;
  /** Failed calls / actual calls; `null` when no call has a captured outcome. */
  error_rate: number | null;
  /** Calls repeating the immediately preceding failed call with the same args. */
  retry_after_error_count: number;
  /** Required calls made and not failed / required calls; `null` when nothing is required. */
  required_call_recall: number | null;
  /** Share of schema-bearing tools' calls whose args validate (only with `metadata.schema`). */
  schema_compliance?: number | null;
  /** Durations in seconds. */
  latency: FigureBlock;
  /** Costs in USD. */
  cost: FigureBlock;
  /** Counts of expected and actual calls. */
  counts: { expected: number; actual: number };
  /** The pairs: expected index, actual index, matched keys. */
  pairs: { expected: number; actual: number; matched_keys: number }[];
}

function countByTool(calls: ToolCall[], include: (call: ToolCall) => boolean = () => true) {
  const counts = new Map<string, number>();
  for (const call of calls) {
    if (include(call)) counts.set(call.tool, (counts.get(call.tool) ?? 0) + 1);
  }
  return counts;
}

/**
 * Levenshtein distance of two token sequences.
 *
 * @param a The first sequence.
 * @param b The second sequence.
 * @returns The number of insertions, deletions and substitutions.
 *
 * @example Usage
 * ```ts
 * import { levenshtein } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(levenshtein(["a", "b"], ["b"]), 1);
 * ```
 */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous: number[] = new Array(b.length + 1);
  let current: number[] = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (ai === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

function keyCount(args: ToolCall["args"]): number {
  if (!args) return 0;
  let n = 0;
  for (const _ in args) n++;
  return n;
}

function argumentScores(gold: ToolCall[], actual: ToolCall[], pairs: CallPair[]) {
  let correct = 0;
  let expectedKeys = 0;
  let actualKeys = 0;
  let anyPairMatched = false;
  const paired = new Uint8Array(gold.length);
  for (const pair of pairs) {
    paired[pair.expected] = 1;
    const want = gold[pair.expected]!;
    const got = actual[pair.actual]!;
    if (!argsChecked(want)) {
      anyPairMatched = true; // a vacuous match
      continue;
    }
    const wantKeys = keyCount(want.args);
    const gotKeys = got.argsError === undefined ? keyCount(got.args) : 0;
    correct += pair.matchedKeys;
    expectedKeys += wantKeys;
    actualKeys += gotKeys;
    if (wantKeys === 0 && gotKeys === 0 && got.argsError === undefined) anyPairMatched = true;
  }
  gold.forEach((call, i) => {
    if (!paired[i] && argsChecked(call)) expectedKeys += keyCount(call.args);
  });
  return argumentScoresFromCounts({
    correct,
    expectedKeys,
    actualKeys,
    anyPairMatched,
    bothEmpty: gold.length === 0 && actual.length === 0,
  });
}

/** The argument-key counts argument precision, recall and F1 are computed from. */
export interface ArgumentCounts {
  /** Expected keys present in the paired actual call with a matching value. */
  correct: number;
  /** Expected keys of checked expected calls (paired or not). */
  expectedKeys: number;
  /** Keys sent in actual calls paired with a checked expected call. */
  actualKeys: number;
  /** Whether some pair matched vacuously (unchecked) or `{}` against `{}`. */
  anyPairMatched: boolean;
  /** Whether there are no expected and no actual calls at all. */
  bothEmpty: boolean;
}

/**
 * Argument precision, recall and F1 from their counts, with scoring.md's edge values.
 *
 * @param counts The counts.
 * @returns Precision, recall and F1.
 *
 * @example Usage
 * ```ts
 * import { argumentScoresFromCounts } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const scores = argumentScoresFromCounts({
 *   correct: 1, expectedKeys: 2, actualKeys: 1, anyPairMatched: false, bothEmpty: false,
 * });
 * assert.deepEqual(scores, { precision: 1, recall: 0.5, f1: 2 / 3 });
 * ```
 */
export function argumentScoresFromCounts(
  counts: ArgumentCounts,
): { precision: number; recall: number; f1: number } {
  const { correct, expectedKeys, actualKeys } = counts;
  if (counts.bothEmpty) return { precision: 1, recall: 1, f1: 1 };
  if (expectedKeys === 0 && actualKeys === 0) {
    const value = counts.anyPairMatched ? 1 : 0;
    return { precision: value, recall: value, f1: value };
  }
  const precision = actualKeys === 0 ? 0 : correct / actualKeys;
  const recall = expectedKeys === 0 ? 0 : correct / expectedKeys;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function trajectory(gold: ToolCall[], actual: ToolCall[], options: PairingOptions): number {
  if (gold.length === 0) return actual.length === 0 ? 1 : 0;
  if (actual.length === 0) return 0;
  let matches = 0;
  const steps = Math.min(gold.length, actual.length);
  for (let i = 0; i < steps; i++) {
    const want = gold[i]!;
    const got = actual[i]!;
    if (want.tool !== got.tool) continue;
    if (!argsChecked(want)) {
      matches++;
      continue;
    }
    if (matchedKeyCount(want, got, options) === keyCount(want.args)) matches++;
  }
  return (matches / gold.length) * Math.min(1, gold.length / actual.length);
}

// A key for "the same call": object keys sorted, so key order does not matter.
function stableKey(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + stableKey(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += `${i > 0 ? "," : ""}${JSON.stringify(key)}:${stableKey(record[key])}`;
  }
  return `${out}}`;
}

function argsKey(call: ToolCall): string {
  const args = call.argsError !== undefined ? { $raw: call.rawArgs ?? "" } : call.args ?? {};
  return `${call.tool}\u0000${stableKey(args)}`;
}

// JSON equality of two values, object keys in any order (1 and 1.0 are one number).
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
    count++;
  }
  for (const _ in y) count--;
  return count === 0;
}

function sameArgs(a: ToolCall, b: ToolCall): boolean {
  if (a.argsError !== undefined || b.argsError !== undefined) {
    return a.argsError !== undefined && b.argsError !== undefined && a.rawArgs === b.rawArgs;
  }
  return sameJson(a.args ?? {}, b.args ?? {});
}

// The earlier calls of one tool: compared pairwise while few, by canonical key when many.
class RepeatIndex {
  #calls: ToolCall[] = [];
  #keys: Set<string> | undefined;

  seenBefore(call: ToolCall): boolean {
    if (this.#keys) {
      const key = argsKey(call);
      const seen = this.#keys.has(key);
      this.#keys.add(key);
      return seen;
    }
    const seen = this.#calls.some((earlier) => sameArgs(earlier, call));
    this.#calls.push(call);
    if (this.#calls.length > 32) this.#keys = new Set(this.#calls.map(argsKey));
    return seen;
  }
}

function figureBlock(calls: ToolCall[], pick: (call: ToolCall) => number | undefined): FigureBlock {
  const perTool: FigureBlock["per_tool"] = {};
  let total = 0;
  let known = 0;
  for (const call of calls) {
    const entry = perTool[call.tool] ??= { total: null, mean: null, known: 0, calls: 0 };
    entry.calls++;
    const value = pick(call);
    if (value === undefined || value === null) continue;
    entry.known++;
    entry.total = (entry.total ?? 0) + value;
    known++;
    total += value;
  }
  for (const entry of Object.values(perTool)) {
    entry.mean = entry.known > 0 ? entry.total! / entry.known : null;
  }
  return {
    total: known > 0 ? total : null,
    mean: known > 0 ? total / known : null,
    known,
    calls: calls.length,
    per_tool: perTool,
  };
}

function schemaCompliance(gold: ToolCall[], actual: ToolCall[]): number | null | undefined {
  const schemas = new Map<string, unknown>();
  for (const call of gold) {
    const schema = call.metadata?.schema;
    if (schema !== undefined && !schemas.has(call.tool)) schemas.set(call.tool, schema);
  }
  if (schemas.size === 0) return undefined;
  let total = 0;
  let valid = 0;
  for (const call of actual) {
    const schema = schemas.get(call.tool);
    if (schema === undefined) continue;
    total++;
    if (call.argsError === undefined && schemaAccepts(schema, call.args ?? {})) valid++;
  }
  return total === 0 ? null : valid / total;
}

/**
 * Compute the core metrics of actual calls against expected ones.
 *
 * @param gold The expected calls (every one is required).
 * @param actual The actual calls that are scored.
 * @param options Lenient or strict argument comparison.
 * @returns The metrics.
 *
 * @example Usage
 * ```ts
 * import { computeMetrics } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const m = computeMetrics([{ tool: "a", args: { x: 1 } }], [{ tool: "a", args: { x: 1 } }]);
 * assert.equal(m.argument_f1, 1);
 * assert.equal(m.error_rate, null); // no outcome captured
 * ```
 */
export function computeMetrics(
  gold: ToolCall[],
  actual: ToolCall[],
  options: PairingOptions = {},
): CoreMetrics {
  const pairs = pairCalls(gold, actual, options);
  // Per-tool counts; a Map keeps first-seen order, which the tool lists use.
  const goldCounts = countByTool(gold);
  const actualCounts = countByTool(actual);
  const goldNames = [...goldCounts.keys()];
  const actualNames = [...actualCounts.keys()];
  const common = goldNames.filter((name) => actualCounts.has(name)).length;
  const missingTools = goldNames.filter((name) => !actualCounts.has(name));
  const extraTools = actualNames.filter((name) => !goldCounts.has(name));
  const bothEmpty = gold.length === 0 && actual.length === 0;

  const selection = actual.length === 0
    ? (gold.length === 0 ? 1 : 0)
    : actual.filter((call) => goldCounts.has(call.tool)).length / actual.length;
  const invocation = bothEmpty ? 1 : goldNames.length === 0 ? 0 : Math.min(
    1,
    Math.max(0, (common - 0.5 * (extraTools.length + missingTools.length)) / goldNames.length),
  );
  const toolCorrectness = bothEmpty ? 1 : goldNames.length === 0 ? 0 : common / goldNames.length;
  const args = argumentScores(gold, actual, pairs);
  const longest = Math.max(gold.length, actual.length, 1);
  const sequence = 1 -
    levenshtein(gold.map((c) => c.tool), actual.map((c) => c.tool)) / longest;

  let redundant = 0;
  for (const [tool, count] of actualCounts) {
    redundant += Math.max(0, count - (goldCounts.get(tool) ?? 0));
  }

  let identical = 0;
  let retries = 0;
  let errors = 0;
  let withOutcome = 0;
  const earlier = new Map<string, RepeatIndex>();
  actual.forEach((call, i) => {
    let index = earlier.get(call.tool);
    if (!index) earlier.set(call.tool, index = new RepeatIndex());
    if (index.seenBefore(call)) identical++;
    const previous = actual[i - 1];
    if (
      previous && callFailed(previous) && previous.tool === call.tool && sameArgs(previous, call)
    ) {
      retries++;
    }
    if (callFailed(call)) errors++;
    if (hasOutcome(call)) withOutcome++;
  });

  let required: number | null = null;
  if (gold.length > 0) {
    const succeeded = countByTool(actual, (call) => !callFailed(call));
    let made = 0;
    for (const [tool, count] of goldCounts) made += Math.min(count, succeeded.get(tool) ?? 0);
    required = made / gold.length;
  }

  const metrics: CoreMetrics = {
    selection_accuracy: selection,
    invocation_accuracy: invocation,
    tool_correctness: toolCorrectness,
    missing_tools: missingTools,
    extra_tools: extraTools,
    argument_precision: args.precision,
    argument_recall: args.recall,
    argument_f1: args.f1,
    sequence_accuracy: sequence,
    trajectory_accuracy: trajectory(gold, actual, options),
    redundant_rate: actual.length === 0 ? 0 : redundant / actual.length,
    identical_rate: actual.length === 0 ? 0 : identical / actual.length,
    error_count: errors,
    error_rate: withOutcome === 0 ? null : errors / actual.length,
    retry_after_error_count: retries,
    required_call_recall: required,
    latency: figureBlock(actual, (call) => call.durationS),
    cost: figureBlock(actual, (call) => call.costUsd),
    counts: { expected: gold.length, actual: actual.length },
    pairs: pairs.map((p) => ({
      expected: p.expected,
      actual: p.actual,
      matched_keys: p.matchedKeys,
    })),
  };
  const compliance = schemaCompliance(gold, actual);
  if (compliance !== undefined) metrics.schema_compliance = compliance;
  return metrics;
}
