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
import { groupCalls, pairedArgumentCounts, pairGroups, type ToolGroups } from "./_tool_groups.ts";
import type { PairingOptions } from "./pairing.ts";
import { schemaAccepts } from "./schema_check.ts";
import { isFrozenGold } from "./_frozen_gold.ts";

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

/**
 * Levenshtein distance of two token sequences.
 *
 * @param a The first sequence.
 * @param b The second sequence.
 * @returns The number of insertions, deletions and substitutions.
 *
 * @example Usage
 * ```ts
 * import { levenshtein } from "./metrics.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(levenshtein(["a", "b"], ["b"]), 1);
 * ```
 */
export function levenshtein<T>(a: readonly T[], b: readonly T[]): number {
  // A common prefix and suffix cost nothing: only the middle needs the table.
  let start = 0;
  let endA = a.length;
  let endB = b.length;
  while (start < endA && start < endB && a[start] === b[start]) start++;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0) return m;
  if (m === 0) return n;
  let previous: number[] = [];
  let current: number[] = [];
  for (let j = 0; j <= m; j++) {
    previous.push(j);
    current.push(0);
  }
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    const ai = a[start + i - 1];
    for (let j = 1; j <= m; j++) {
      const substitution = previous[j - 1]! + (ai === b[start + j - 1] ? 0 : 1);
      const deletion = previous[j]! + 1;
      const insertion = current[j - 1]! + 1;
      current[j] = substitution < deletion
        ? (substitution < insertion ? substitution : insertion)
        : (deletion < insertion ? deletion : insertion);
    }
    [previous, current] = [current, previous];
  }
  return previous[m]!;
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
 * import { argumentScoresFromCounts } from "./metrics.ts";
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
    // Values first: calls of one tool usually differ in a value, which ends the comparison
    // before any key lookup. Equal values still need the key to be y's own.
    const xv = x[key];
    const yv = y[key];
    if (xv !== yv && !sameJson(xv, yv)) return false;
    if (!Object.hasOwn(y, key)) return false;
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

function figureBlock(
  calls: ToolCall[],
  groups: ToolGroups,
  pick: (call: ToolCall) => number | undefined,
): FigureBlock {
  const perTool: FigureBlock["per_tool"] = {};
  const entries: FigureBlock["per_tool"][string][] = [];
  let total = 0;
  let known = 0;
  for (let j = 0; j < calls.length; j++) {
    const call = calls[j]!;
    const id = groups.actualGroup[j]!;
    let entry = entries[id];
    if (entry === undefined) {
      entry = entries[id] = { total: null, mean: null, known: 0, calls: 0 };
      if (call.tool !== "__proto__") perTool[call.tool] = entry;
      else {
        // A tool named __proto__ is a key like any other, not the prototype.
        Object.defineProperty(perTool, call.tool, {
          value: entry,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    entry.calls++;
    const value = pick(call);
    if (value === undefined || value === null) continue;
    entry.known++;
    entry.total = (entry.total ?? 0) + value;
    known++;
    total += value;
  }
  for (const entry of entries) {
    if (entry === undefined) continue;
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

// The first schema of each expected tool, or null when none has one; a frozen gold list's once.
const GOLD_SCHEMAS = new WeakMap<readonly ToolCall[], Map<string, unknown> | null>();

function goldSchemas(gold: ToolCall[]): Map<string, unknown> | null {
  let schemas = GOLD_SCHEMAS.get(gold);
  if (schemas !== undefined) return schemas;
  schemas = null;
  for (const call of gold) {
    const schema = call.metadata === undefined ? undefined : call.metadata.schema;
    if (schema === undefined) continue;
    schemas ??= new Map();
    if (!schemas.has(call.tool)) schemas.set(call.tool, schema);
  }
  if (isFrozenGold(gold)) GOLD_SCHEMAS.set(gold, schemas);
  return schemas;
}

function schemaCompliance(gold: ToolCall[], actual: ToolCall[]): number | null | undefined {
  const schemas = goldSchemas(gold);
  if (schemas === null) return undefined;
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
 * import { computeMetrics } from "./metrics.ts";
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
  const groups = groupCalls(gold, actual);
  const { partner, matchedKeys } = pairGroups(groups, gold, actual, options.strict ?? false);
  const bothEmpty = gold.length === 0 && actual.length === 0;

  // Per-tool counts. Groups list the expected tools first (first-expected order), then the
  // others in first-called order, which is the order of the tool lists.
  let goldTools = 0;
  let common = 0;
  let selected = 0;
  let redundant = 0;
  let made = 0;
  const missingTools: string[] = [];
  const extraTools: string[] = [];
  for (const group of groups.list) {
    const g = group.gold.length;
    const t = group.actual.length;
    if (g > 0) {
      goldTools++;
      if (t > 0) common++;
      else missingTools.push(group.tool);
      selected += t;
    } else extraTools.push(group.tool);
    if (t > g) redundant += t - g;
    if (g > 0 && t > 0) {
      let succeeded = 0;
      for (const j of group.actual) if (!callFailed(actual[j]!)) succeeded++;
      made += Math.min(g, succeeded);
    }
  }

  const selection = actual.length === 0 ? (gold.length === 0 ? 1 : 0) : selected / actual.length;
  const invocation = bothEmpty ? 1 : goldTools === 0 ? 0 : Math.min(
    1,
    Math.max(0, (common - 0.5 * (extraTools.length + missingTools.length)) / goldTools),
  );
  const toolCorrectness = bothEmpty ? 1 : goldTools === 0 ? 0 : common / goldTools;
  const args = argumentScoresFromCounts({
    ...pairedArgumentCounts(actual, { partner, matchedKeys }, groups.goldKeys),
    bothEmpty,
  });
  const longest = Math.max(gold.length, actual.length, 1);
  const sequence = 1 - levenshtein(groups.goldGroup, groups.actualGroup) / longest;

  let identical = 0;
  for (const group of groups.list) identical += repeats(group.actual, actual);
  let retries = 0;
  let errors = 0;
  let withOutcome = 0;
  for (let i = 0; i < actual.length; i++) {
    const call = actual[i]!;
    const previous = actual[i - 1];
    if (
      previous && callFailed(previous) && previous.tool === call.tool && sameArgs(previous, call)
    ) {
      retries++;
    }
    if (callFailed(call)) errors++;
    if (hasOutcome(call)) withOutcome++;
  }

  const pairs: CoreMetrics["pairs"] = [];
  for (let i = 0; i < gold.length; i++) {
    if (partner[i]! >= 0) {
      pairs.push({ expected: i, actual: partner[i]!, matched_keys: matchedKeys[i]! });
    }
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
    trajectory_accuracy: trajectory(groups),
    redundant_rate: actual.length === 0 ? 0 : redundant / actual.length,
    identical_rate: actual.length === 0 ? 0 : identical / actual.length,
    error_count: errors,
    error_rate: withOutcome === 0 ? null : errors / actual.length,
    retry_after_error_count: retries,
    required_call_recall: gold.length === 0 ? null : made / gold.length,
    latency: figureBlock(actual, groups, (call) => call.durationS),
    cost: figureBlock(actual, groups, (call) => call.costUsd),
    counts: { expected: gold.length, actual: actual.length },
    pairs,
  };
  const compliance = schemaCompliance(gold, actual);
  if (compliance !== undefined) metrics.schema_compliance = compliance;
  return metrics;
}

// Positional step matches (same tool, every expected key matched), penalized for extra steps.
function trajectory(groups: ToolGroups): number {
  const g = groups.goldGroup.length;
  const t = groups.actualGroup.length;
  if (g === 0) return t === 0 ? 1 : 0;
  if (t === 0) return 0;
  let matches = 0;
  const steps = Math.min(g, t);
  for (let i = 0; i < steps; i++) {
    const id = groups.goldGroup[i]!;
    if (id !== groups.actualGroup[i]) continue;
    const keys = groups.goldKeys[i]!;
    if (keys < 0) {
      matches++;
      continue;
    }
    const group = groups.list[id]!;
    const cell = groups.goldRank[i]! * group.actual.length + groups.actualRank[i]!;
    if (group.matched[cell] === keys) matches++;
  }
  return (matches / g) * Math.min(1, g / t);
}

// Calls of one tool that repeat an earlier call of it exactly: compared pairwise while few,
// by canonical key when many.
function repeats(indexes: number[], actual: ToolCall[]): number {
  let count = 0;
  if (indexes.length > 32) {
    const keys = new Set<string>();
    for (const j of indexes) {
      const key = argsKey(actual[j]!);
      if (keys.has(key)) count++;
      else keys.add(key);
    }
    return count;
  }
  for (let b = 1; b < indexes.length; b++) {
    const call = actual[indexes[b]!]!;
    for (let a = 0; a < b; a++) {
      if (sameArgs(actual[indexes[a]!]!, call)) {
        count++;
        break;
      }
    }
  }
  return count;
}
