/**
 * Internal to pairing and the metrics: the calls of one evaluation grouped by
 * tool, the matched-key count of every expected × actual pair of a tool, and
 * the exact one-to-one pairing of each tool's calls (the rules are in
 * `pairing.ts`).
 *
 * `evaluate()` runs this for every trace, so it works on indexes in plain
 * arrays (small typed arrays cost more to allocate than the work they hold),
 * computes each tool's matched-key matrix once (pairing and the trajectory
 * metric both read it), reads each actual argument value once per tool rather
 * than once per expected × actual pair, and prepares the expected side once
 * per frozen gold list (`goldFromJson`'s), which cannot change.
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";
import { isFrozenGold } from "./_frozen_gold.ts";
import { InputError } from "../base/errors.ts";
import {
  diagonalDominates,
  hungarian,
  MAX_EXACT_COST,
  pairingSizeError,
  rowMinimaAssignment,
} from "./hungarian.ts";
import { valuesMatch, type ValuesMatchOptions } from "./matchers.ts";
import { mayTrim } from "../base/_text.ts";

/** The calls of one tool. */
export interface ToolGroup {
  /** The tool name. */
  tool: string;
  /** Indexes of its expected calls, ascending (shared: never modify). */
  gold: readonly number[];
  /** Indexes of its actual calls, ascending. */
  actual: number[];
  /**
   * `matched[i * actual.length + j]`: expected keys of `gold[i]` that
   * `actual[j]` matches; filled by {@linkcode pairGroups}.
   */
  matched: number[];
  /** The expected side's argument keys and values, when the tool is expected. */
  side: GoldSide | undefined;
}

/** Every call of an evaluation, grouped by tool. */
export interface ToolGroups {
  /** Expected tools in first-expected order, then the others in first-called order. */
  list: ToolGroup[];
  /** The group of each expected call. */
  goldGroup: readonly number[];
  /** The position of each expected call within its group. */
  goldRank: readonly number[];
  /** The group of each actual call. */
  actualGroup: number[];
  /** The position of each actual call within its group. */
  actualRank: number[];
  /** Argument keys of each expected call; -1 when its arguments are unchecked. */
  goldKeys: readonly number[];
}

// The expected calls of one tool, ready for matching: the keys of its checked calls as slots,
// and each call's (slot, value) pairs as runs: call i owns entries from[i] .. from[i + 1].
interface GoldSide {
  slots: string[];
  /** Whether each slot's key is also a property of Object.prototype. */
  inherited: boolean[];
  from: number[];
  goldSlot: number[];
  goldValue: unknown[];
  /** How each expected value compares: PRIMITIVE, TEXT, PADDED_TEXT or VALUE. */
  goldKind: number[];
  /** Each PADDED_TEXT value trimmed. */
  goldTrimmed: (string | undefined)[];
}

// How an expected value compares with an actual one: a number, boolean or null by identity; a
// string by identity or (lenient) once trimmed — TEXT when trimming cannot change it, else
// PADDED_TEXT —; anything else (matchers, objects, arrays) through valuesMatch().
const PRIMITIVE = 0;
const TEXT = 1;
const VALUE = 2;
const PADDED_TEXT = 3;

// Everything about the expected calls that does not depend on the actual ones.
interface GoldPlan {
  ids: Map<string, number>;
  tools: string[];
  gold: number[][];
  sides: GoldSide[];
  goldGroup: number[];
  goldRank: number[];
  goldKeys: number[];
}

// Plans of frozen gold lists (goldFromJson's), which cannot change: scoring many traces
// against one gold list prepares its side once.
const PLANS = new WeakMap<readonly ToolCall[], GoldPlan>();

function planOf(expected: ToolCall[]): GoldPlan {
  if (!isFrozenGold(expected)) return buildPlan(expected);
  let plan = PLANS.get(expected);
  if (plan === undefined) PLANS.set(expected, plan = buildPlan(expected));
  return plan;
}

function buildPlan(expected: ToolCall[]): GoldPlan {
  const ids = new Map<string, number>();
  const tools: string[] = [];
  const gold: number[][] = [];
  const goldGroup: number[] = [];
  const goldRank: number[] = [];
  const goldKeys: number[] = [];
  for (let i = 0; i < expected.length; i++) {
    const call = expected[i]!;
    let id = ids.get(call.tool);
    if (id === undefined) {
      ids.set(call.tool, id = tools.length);
      tools.push(call.tool);
      gold.push([]);
    }
    goldGroup.push(id);
    goldRank.push(gold[id]!.length);
    gold[id]!.push(i);
    goldKeys.push(argsChecked(call) ? keyCount(call.args) : -1);
  }
  const sides = gold.map((indexes) => goldSide(indexes, expected));
  return { ids, tools, gold, sides, goldGroup, goldRank, goldKeys };
}

function goldSide(indexes: number[], expected: ToolCall[]): GoldSide {
  const slots: string[] = [];
  const slotIndex = new Map<string, number>();
  const from: number[] = [];
  const goldSlot: number[] = [];
  const goldValue: unknown[] = [];
  for (const index of indexes) {
    from.push(goldSlot.length);
    const args = expected[index]!.args;
    if (args === undefined || args === null) continue;
    for (const key in args) {
      let slot = slotIndex.get(key);
      if (slot === undefined) {
        slotIndex.set(key, slot = slots.length);
        slots.push(key);
      }
      goldSlot.push(slot);
      goldValue.push(args[key]);
    }
  }
  from.push(goldSlot.length);
  const goldKind = goldValue.map((value) =>
    typeof value === "string"
      ? (mayTrim(value) ? PADDED_TEXT : TEXT)
      : typeof value === "object" && value !== null || typeof value === "undefined" ||
          typeof value === "number" && !Number.isSafeInteger(value) // may equal a kept literal
      ? VALUE
      : PRIMITIVE
  );
  const goldTrimmed = goldValue.map((v, q) =>
    goldKind[q] === PADDED_TEXT ? (v as string).trim() : undefined
  );
  const inherited = slots.map((key) => key in Object.prototype);
  return { slots, inherited, from, goldSlot, goldValue, goldKind, goldTrimmed };
}

/** The pairing: for each expected call, its actual partner (-1 when none) and matched keys. */
export interface GroupPairing {
  /** The actual call paired with each expected call, or -1. */
  partner: number[];
  /** Matched keys of each pair (0 for unpaired expected calls). */
  matchedKeys: number[];
}

/**
 * Whether an expected call checks arguments (`args` present and not null).
 *
 * @param call An expected call.
 * @returns `true` when its arguments are checked.
 *
 * @example Usage
 * ```ts
 * import { argsChecked } from "./_tool_groups.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(argsChecked({ tool: "a" }), false);
 * assert.equal(argsChecked({ tool: "a", args: {} }), true);
 * ```
 */
export function argsChecked(call: ToolCall): boolean {
  return call.args !== undefined && call.args !== null;
}

/** The argument-key sums of a pairing (what `ArgumentCounts` holds, but `bothEmpty`). */
export interface PairedArgumentCounts {
  /** Expected keys present in the paired actual call with a matching value. */
  correct: number;
  /** Expected keys of checked expected calls (paired or not). */
  expectedKeys: number;
  /** Keys sent in actual calls paired with a checked expected call. */
  actualKeys: number;
  /** Whether some pair matched vacuously (unchecked) or `{}` against `{}`. */
  anyPairMatched: boolean;
}

/**
 * Sum the argument keys of a pairing (scoring.md §3): matched, expected and
 * sent keys. Used by `computeMetrics` and by the contract combination scorer.
 *
 * @param actual The actual calls.
 * @param pairing The pairing of the expected calls.
 * @param goldKeys Argument keys of each expected call; -1 when unchecked.
 * @returns The sums.
 */
export function pairedArgumentCounts(
  actual: ToolCall[],
  pairing: GroupPairing,
  goldKeys: readonly number[],
): PairedArgumentCounts {
  let correct = 0;
  let expectedKeys = 0;
  let actualKeys = 0;
  let anyPairMatched = false;
  for (let i = 0; i < goldKeys.length; i++) {
    const wantKeys = goldKeys[i]!;
    const j = pairing.partner[i]!;
    if (j < 0) {
      if (wantKeys >= 0) expectedKeys += wantKeys;
      continue;
    }
    if (wantKeys < 0) {
      anyPairMatched = true; // a vacuous match
      continue;
    }
    const got = actual[j]!;
    const gotKeys = got.argsError === undefined ? keyCount(got.args) : 0;
    correct += pairing.matchedKeys[i]!;
    expectedKeys += wantKeys;
    actualKeys += gotKeys;
    if (wantKeys === 0 && gotKeys === 0 && got.argsError === undefined) anyPairMatched = true;
  }
  return { correct, expectedKeys, actualKeys, anyPairMatched };
}

/**
 * Count an argument object's own keys.
 *
 * @param args The arguments.
 * @returns The count (0 for none).
 */
export function keyCount(args: ToolCall["args"]): number {
  if (!args) return 0;
  let n = 0;
  for (const _ in args) n++;
  return n;
}

/**
 * Group expected and actual calls by tool.
 *
 * @param expected The expected calls.
 * @param actual The actual calls.
 * @returns The groups and each call's place in them.
 */
export function groupCalls(expected: ToolCall[], actual: ToolCall[]): ToolGroups {
  const plan = planOf(expected);
  const list: ToolGroup[] = [];
  for (let id = 0; id < plan.tools.length; id++) {
    list.push({
      tool: plan.tools[id]!,
      gold: plan.gold[id]!,
      actual: [],
      matched: NONE,
      side: plan.sides[id],
    });
  }
  let others: Map<string, number> | undefined; // tools not expected
  const actualGroup: number[] = [];
  const actualRank: number[] = [];
  for (let j = 0; j < actual.length; j++) {
    const call = actual[j]!;
    const tool = call.tool;
    // A malformed call (issue 30) is in a group of its own kind: it never pairs with gold.
    let id = call.malformed === undefined ? plan.ids.get(tool) : undefined;
    if (id === undefined) {
      others ??= new Map();
      const key = call.malformed === undefined ? tool : `\u0000${call.malformed}\u0000${tool}`;
      id = others.get(key);
      if (id === undefined) {
        others.set(key, id = list.length);
        list.push({ tool, gold: NONE, actual: [], matched: NONE, side: undefined });
      }
    }
    const group = list[id]!;
    actualGroup.push(id);
    actualRank.push(group.actual.length);
    group.actual.push(j);
  }
  return {
    list,
    goldGroup: plan.goldGroup,
    goldRank: plan.goldRank,
    actualGroup,
    actualRank,
    goldKeys: plan.goldKeys,
  };
}

const NONE: number[] = [];
const MISSING = Symbol("missing");
const LENIENT: ValuesMatchOptions = { strict: false };
const STRICT: ValuesMatchOptions = { strict: true };

// Fill group.matched: the checked calls' keys become slots; each actual value is read once.
function fillMatched(
  group: ToolGroup,
  actual: ToolCall[],
  strict: boolean,
): void {
  const g = group.gold.length;
  const t = group.actual.length;
  const matched: number[] = group.matched = [];
  const { slots, inherited, from, goldSlot, goldValue, goldKind, goldTrimmed } = group.side!;
  if (goldSlot.length === 0) {
    for (let k = 0; k < g * t; k++) matched.push(0);
    return;
  }
  const width = slots.length;
  // values[j * width + s]: actual call j's value for slot s (MISSING when absent or when its
  // arguments did not parse); trimmed[j * width + s]: that value trimmed, for the (rare) strings
  // that trimming changes, when comparing leniently.
  const values: unknown[] = [];
  let trimmed: (string | undefined)[] | undefined;
  for (let j = 0; j < t; j++) {
    const call = actual[group.actual[j]!]!;
    const args = call.argsError === undefined ? call.args : undefined;
    if (!args) {
      for (let s = 0; s < width; s++) values.push(MISSING);
      continue;
    }
    // A plain object's own keys read directly; an absent key reads as undefined unless
    // Object.prototype has it (toString, __proto__…), and those slots ask hasOwn.
    const plain = Object.getPrototypeOf(args) === Object.prototype;
    for (let s = 0; s < width; s++) {
      const key = slots[s]!;
      let value = plain && !inherited[s] ? args[key] : undefined;
      if (value === undefined) value = Object.hasOwn(args, key) ? args[key] : MISSING;
      if (!strict && typeof value === "string" && mayTrim(value)) {
        (trimmed ??= [])[values.length] = value.trim();
      }
      values.push(value);
    }
  }
  const options = strict ? STRICT : LENIENT;
  for (let i = 0; i < g; i++) {
    const start = from[i]!;
    const end = from[i + 1]!;
    for (let j = 0; j < t; j++) {
      const base = j * width;
      let count = 0;
      for (let q = start; q < end; q++) {
        const at = base + goldSlot[q]!;
        const got = values[at];
        if (got === MISSING) continue;
        const want = goldValue[q];
        // Lenient strings are equal when equal trimmed (a string trimming leaves alone is itself).
        switch (goldKind[q]) {
          case PRIMITIVE:
            if (want === got) count++;
            break;
          case TEXT:
            if (want === got || !strict && trimmed !== undefined && trimmed[at] === want) count++;
            break;
          case PADDED_TEXT:
            if (
              want === got ||
              !strict && typeof got === "string" && (trimmed?.[at] ?? got) === goldTrimmed[q]
            ) {
              count++;
            }
            break;
          default:
            if (valuesMatch(want, got, options)) count++;
        }
      }
      matched.push(count);
    }
  }
}

/**
 * Fill every group's matched-key matrix and pair each group's calls.
 *
 * @param groups The groups of `expected` and `actual`.
 * @param expected The expected calls.
 * @param actual The actual calls.
 * @param strict Compare argument values exactly.
 * @returns The partner and matched keys of each expected call.
 * @throws {InputError} When a tool has more expected × actual calls than `MAX_PAIRING_CELLS`.
 */
export function pairGroups(
  groups: ToolGroups,
  expected: ToolCall[],
  actual: ToolCall[],
  strict: boolean,
): GroupPairing {
  const partner: number[] = new Array(expected.length).fill(-1);
  const matchedKeys: number[] = new Array(expected.length).fill(0);
  for (const group of groups.list) {
    if (group.gold.length === 0 || group.actual.length === 0) continue;
    const tooMany = pairingSizeError(group.tool, group.gold.length, group.actual.length);
    if (tooMany) throw tooMany; // before the g × t matrix is allocated
    fillMatched(group, actual, strict);
    pairGroup(group, groups.goldKeys, actual, partner, matchedKeys);
  }
  return { partner, matchedKeys };
}

function pairGroup(
  group: ToolGroup,
  goldKeys: readonly number[],
  actual: ToolCall[],
  partner: number[],
  matchedKeys: number[],
): void {
  const { gold, matched } = group;
  const calls = group.actual;
  const g = gold.length;
  const t = calls.length;
  const link = (i: number, j: number) => {
    partner[gold[i]!] = calls[j]!;
    matchedKeys[gold[i]!] = matched[i * t + j]!;
  };
  if (g === 1 && t === 1) return link(0, 0);
  if (g === t && inOrderIsOptimal(group, goldKeys)) return inOrder(g, link);
  const sent: number[] = new Array(t);
  let matchBound = 0;
  let sentBound = 0;
  for (let j = 0; j < t; j++) {
    sent[j] = keyCount(actual[calls[j]!]!.args);
    sentBound += sent[j]!;
  }
  for (let i = 0; i < g; i++) matchBound += Math.max(0, goldKeys[gold[i]!]!);
  // Indexes are ascending, so the largest distance is between opposite ends.
  const maxDistance = Math.max(
    Math.abs(gold[0]! - calls[t - 1]!),
    Math.abs(gold[g - 1]! - calls[0]!),
  );
  const k = Math.min(g, t);
  const sentScale = k * maxDistance + 1; // any distance total is below one unit of "sent"
  const matchScale = (sentBound + 1) * sentScale; // any sent total is below one unit of "match"
  if ((matchBound + 1) * matchScale > MAX_EXACT_COST) {
    throw new InputError(
      `${g} expected and ${t} actual calls of one tool are too many to pair exactly`,
      `tool ${group.tool}`,
    );
  }
  // One matched key outweighs any sent-key and distance difference in the folded cost: when each
  // in-order pair matches more keys than the rest of its row, rowMinimaAssignment() pairs in order.
  if (g === t && diagonalDominates(matched, g)) return inOrder(g, link);
  // Rows are the shorter side; cost[r * columns + c] is the folded cost of that pairing.
  const rowsAreGold = g <= t;
  const rows = rowsAreGold ? g : t;
  const columns = rowsAreGold ? t : g;
  const cost: number[] = new Array(rows * columns);
  for (let i = 0; i < g; i++) {
    const checked = goldKeys[gold[i]!]! >= 0;
    for (let j = 0; j < t; j++) {
      const value = -matched[i * t + j]! * matchScale + (checked ? sent[j]! : 0) * sentScale +
        Math.abs(gold[i]! - calls[j]!);
      cost[rowsAreGold ? i * t + j : j * g + i] = value;
    }
  }
  const assignment = rowMinimaAssignment(rows, columns, cost) ??
    hungarian(rows, columns, (r, c) => cost[r * columns + c]!);
  for (let r = 0; r < rows; r++) {
    const c = assignment[r]!;
    if (rowsAreGold) link(r, c);
    else link(c, r);
  }
}

function inOrder(n: number, link: (i: number, j: number) => void): void {
  for (let k = 0; k < n; k++) link(k, k);
}

// With as many actual calls as expected ones, every actual call is paired, so the "keys sent"
// total is the same for every assignment (when every expected call checks its arguments), and
// pairing in order minimizes the total distance. If each in-order pair also matches every
// expected key (the most any pair can), the in-order pairing is optimal.
function inOrderIsOptimal(group: ToolGroup, goldKeys: readonly number[]): boolean {
  const n = group.gold.length;
  for (let k = 0; k < n; k++) {
    // An unchecked expected call makes "keys sent" depend on the assignment: no shortcut.
    const keys = goldKeys[group.gold[k]!]!;
    if (keys < 0 || group.matched[k * n + k] !== keys) return false;
  }
  return true;
}
