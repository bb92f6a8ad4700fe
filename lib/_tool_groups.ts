/**
 * Internal to pairing and the metrics: the calls of one evaluation grouped by
 * tool, the matched-key count of every expected × actual pair of a tool, and
 * the exact one-to-one pairing of each tool's calls (the rules are in
 * `pairing.ts`).
 *
 * `evaluate()` runs this for every trace, so it works on indexes and typed
 * arrays, computes each tool's matched-key matrix once (pairing and the
 * trajectory metric both read it), and reads each actual argument value once
 * per tool rather than once per expected × actual pair.
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";
import { InputError } from "./errors.ts";
import { hungarian, MAX_EXACT_COST } from "./hungarian.ts";
import { valuesMatch, type ValuesMatchOptions } from "./matchers.ts";
import { trimmedEqual } from "./_text.ts";

/** The calls of one tool. */
export interface ToolGroup {
  /** The tool name. */
  tool: string;
  /** Indexes of its expected calls, ascending. */
  gold: number[];
  /** Indexes of its actual calls, ascending. */
  actual: number[];
  /**
   * `matched[i * actual.length + j]`: expected keys of `gold[i]` that
   * `actual[j]` matches; filled by {@linkcode pairGroups}.
   */
  matched: number[];
}

/** Every call of an evaluation, grouped by tool. */
export interface ToolGroups {
  /** Expected tools in first-expected order, then the others in first-called order. */
  list: ToolGroup[];
  /** The group of each expected call. */
  goldGroup: number[];
  /** The position of each expected call within its group. */
  goldRank: number[];
  /** The group of each actual call. */
  actualGroup: number[];
  /** The position of each actual call within its group. */
  actualRank: number[];
  /** Argument keys of each expected call; -1 when its arguments are unchecked. */
  goldKeys: number[];
}

/** The pairing: for each expected call, its actual partner (-1 when none) and matched keys. */
export interface GroupPairing {
  /** The actual call paired with each expected call, or -1. */
  partner: number[];
  /** Matched keys of each pair (0 for unpaired expected calls). */
  matchedKeys: number[];
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
  const ids = new Map<string, number>();
  const list: ToolGroup[] = [];
  const groupOf = (tool: string): number => {
    let id = ids.get(tool);
    if (id === undefined) {
      ids.set(tool, id = list.length);
      list.push({ tool, gold: [], actual: [], matched: NONE });
    }
    return id;
  };
  const goldGroup: number[] = [];
  const goldRank: number[] = [];
  const goldKeys: number[] = [];
  for (let i = 0; i < expected.length; i++) {
    const call = expected[i]!;
    const id = groupOf(call.tool);
    const group = list[id]!;
    goldGroup.push(id);
    goldRank.push(group.gold.length);
    group.gold.push(i);
    goldKeys.push(call.args === undefined || call.args === null ? -1 : keyCount(call.args));
  }
  const actualGroup: number[] = [];
  const actualRank: number[] = [];
  for (let j = 0; j < actual.length; j++) {
    const id = groupOf(actual[j]!.tool);
    const group = list[id]!;
    actualGroup.push(id);
    actualRank.push(group.actual.length);
    group.actual.push(j);
  }
  return { list, goldGroup, goldRank, actualGroup, actualRank, goldKeys };
}

const NONE: number[] = [];
const MISSING = Symbol("missing");
const LENIENT: ValuesMatchOptions = { strict: false };
const STRICT: ValuesMatchOptions = { strict: true };

// Fill group.matched. The checked expected calls' keys are gathered into one
// list of slots; each actual call's value for each slot is read once.
function fillMatched(
  group: ToolGroup,
  expected: ToolCall[],
  actual: ToolCall[],
  strict: boolean,
): void {
  const g = group.gold.length;
  const t = group.actual.length;
  const matched: number[] = group.matched = new Array(g * t).fill(0);
  const slots: string[] = [];
  let slotIndex: Map<string, number> | undefined;
  const slotOf = (key: string): number => {
    if (slotIndex === undefined) {
      const found = slots.indexOf(key);
      if (found >= 0) return found;
      slots.push(key);
      if (slots.length > 16) slotIndex = new Map(slots.map((k, i) => [k, i]));
      return slots.length - 1;
    }
    let found = slotIndex.get(key);
    if (found === undefined) {
      slotIndex.set(key, found = slots.length);
      slots.push(key);
    }
    return found;
  };
  // Expected keys as (slot, value) runs: gold i owns entries from[i] .. from[i + 1].
  const from: number[] = [];
  const goldSlot: number[] = [];
  const goldValue: unknown[] = [];
  for (let i = 0; i < g; i++) {
    from.push(goldSlot.length);
    const args = expected[group.gold[i]!]!.args;
    if (args === undefined || args === null) continue;
    for (const key in args) {
      goldSlot.push(slotOf(key));
      goldValue.push(args[key]);
    }
  }
  from.push(goldSlot.length);
  if (goldSlot.length === 0) return;
  const width = slots.length;
  // values[j * width + s]: actual call j's value for slot s (MISSING when absent or when its
  // arguments did not parse).
  const values: unknown[] = [];
  for (let j = 0; j < t; j++) {
    const call = actual[group.actual[j]!]!;
    const args = call.argsError === undefined ? call.args : undefined;
    for (let s = 0; s < width; s++) {
      const key = slots[s]!;
      values.push(args && Object.hasOwn(args, key) ? args[key] : MISSING);
    }
  }
  const options = strict ? STRICT : LENIENT;
  for (let i = 0; i < g; i++) {
    const start = from[i]!;
    const end = from[i + 1]!;
    if (start === end) continue;
    for (let j = 0; j < t; j++) {
      const base = j * width;
      let count = 0;
      for (let q = start; q < end; q++) {
        const want = goldValue[q];
        const got = values[base + goldSlot[q]!];
        if (got === MISSING) continue;
        if (want === got) {
          if (typeof want !== "object" || valuesMatch(want, got, options)) count++;
        } else if (typeof want === "object") {
          if (valuesMatch(want, got, options)) count++;
        } else if (!strict && typeof want === "string" && typeof got === "string") {
          if (trimmedEqual(want, got)) count++;
        }
      }
      matched[i * t + j] = count;
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
 * @throws {InputError} When a tool has too many calls to pair exactly.
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
    fillMatched(group, expected, actual, strict);
    pairGroup(group, groups.goldKeys, actual, partner, matchedKeys);
  }
  return { partner, matchedKeys };
}

function pairGroup(
  group: ToolGroup,
  goldKeys: number[],
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
  if (g === t && inOrderIsOptimal(group, goldKeys)) {
    for (let k = 0; k < g; k++) link(k, k);
    return;
  }
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

// With as many actual calls as expected ones, every actual call is paired, so the "keys sent"
// total is the same for every assignment (when every expected call checks its arguments), and
// pairing in order minimizes the total distance. If each in-order pair also matches every
// expected key (the most any pair can), the in-order pairing is optimal.
function inOrderIsOptimal(group: ToolGroup, goldKeys: number[]): boolean {
  const n = group.gold.length;
  for (let k = 0; k < n; k++) {
    // An unchecked expected call makes "keys sent" depend on the assignment: no shortcut.
    const keys = goldKeys[group.gold[k]!]!;
    if (keys < 0 || group.matched[k * n + k] !== keys) return false;
  }
  return true;
}

// When every row's cheapest column is different, picking them is optimal: no assignment can
// cost less than the sum of the row minima. This exact shortcut covers the common case (each
// call has one clearly best partner) without running the O(n³) algorithm.
function rowMinimaAssignment(
  rows: number,
  columns: number,
  cost: number[],
): number[] | undefined {
  const taken: boolean[] = new Array(columns).fill(false);
  const assignment: number[] = new Array(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    let bestCost = Infinity;
    let tie = false;
    for (let c = 0; c < columns; c++) {
      const value = cost[r * columns + c]!;
      if (value < bestCost) {
        bestCost = value;
        best = c;
        tie = false;
      } else if (value === bestCost) tie = true;
    }
    // A tie would make the choice depend on scan order; leave those to the full algorithm.
    if (tie || taken[best]) return undefined;
    taken[best] = true;
    assignment[r] = best;
  }
  return assignment;
}
