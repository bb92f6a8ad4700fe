/**
 * The `non-consuming` matching of a contract (issue 44): τ²-bench's action
 * check, ported rule for rule from `tau2-bench`
 * (`src/tau2/evaluator/evaluator_action.py` `_check_actions` and
 * `src/tau2/data_model/tasks.py` `Action.compare_with_tool_call`, unchanged
 * since the 2025-06-10 release; read at a2c02472).
 *
 * - **Non-consuming:** each expected call is matched by the first actual
 *   call, in trace order, that satisfies it; an actual call may satisfy
 *   several expected calls (τ² loops over every predicted call for each gold
 *   action and never removes one). Unlike the one-to-one pairing
 *   (`pairing.ts`), two identical expected calls are both matched by one
 *   actual call.
 * - **Tool name:** equal, exactly (`self.name != tool_call.name`).
 * - **Requestor is not compared:** τ² collects the calls of every assistant
 *   and user message (`extract_tool_calls`) and compares name and arguments
 *   only, so an expected `actor: "user"` call is satisfied by the agent's
 *   call of that tool too, and the other way round. This matcher does the
 *   same; the actor still keeps the two apart in the composite score
 *   (`actors.ts`).
 * - **Arguments:** `compare_args`, read from the expected call's
 *   `metadata.compare_args` (a list of argument names):
 *   - absent or `null`: the names the *actual* call sent (τ²:
 *     `compare_args = tool_call.arguments.keys()`): every argument the call
 *     sent must be in the expected arguments with an equal value; expected
 *     arguments the call left out are not compared; a call with no arguments
 *     matches on the name alone;
 *   - `[]`: the name alone;
 *   - a list: exactly those names: for each, present in both with equal
 *     values, or absent from both; the call's other arguments are ignored.
 *   An expected call with `args: null` (unchecked) and no `compare_args`
 *   matches on the name alone.
 * - **Equality** is Python's `==` on the JSON values: numbers by value
 *   (`1 == 1.0`; a kept big-integer literal by its digits), and — as in
 *   Python, where `bool` is an `int` — `true == 1` and `false == 0`; lists
 *   in order; objects by their key set and values; strings exactly (no
 *   trimming, unlike the lenient argument comparison). An expected value
 *   written `{"$eq": v}` compares `v`; other `$` operators decide for
 *   themselves (lenient).
 * - A malformed actual call (issue 30) never matches; an actual call whose
 *   arguments did not parse matches only when no argument is compared.
 *
 * Size limit: like the pairing, the expected × actual calls of one tool are
 * at most `MAX_PAIRING_CELLS`; more is an `InputError` naming the tool.
 *
 * @module
 */

import { isJsonObject, type ToolCall } from "./calls.ts";
import { InputError } from "../base/errors.ts";
import { exactNumbersEqual, isNumberText } from "../base/lossless_json.ts";
import { isMatcher } from "./matcher.ts";
import { Eq } from "./matcher_classes.ts";
import { MAX_PAIRING_CELLS } from "./hungarian.ts";

/** The expected call's metadata key that names the compared arguments. */
export const COMPARE_ARGS_KEY = "compare_args";

// Nesting deeper than this compares as unequal rather than recursing on (input-controlled depth).
const MAX_DEPTH = 1000;

function asNumber(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function isNumeric(value: unknown): boolean {
  return typeof value === "number" || typeof value === "boolean" || isNumberText(value);
}

/**
 * Python's `==` on two JSON values (see the module doc).
 *
 * @param a A value.
 * @param b A value.
 * @returns `true` when Python would say they are equal.
 *
 * @example Usage
 * ```ts
 * import { pythonEqual } from "./non_consuming.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pythonEqual({ a: [1, true] }, { a: [1.0, 1] }), true);
 * assert.equal(pythonEqual("1", 1), false);
 * assert.equal(pythonEqual(" x", "x"), false);
 * ```
 */
export function pythonEqual(a: unknown, b: unknown): boolean {
  return equalAt(a, b, 0);
}

function equalAt(a: unknown, b: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isNumeric(a) || isNumeric(b)) {
    if (!isNumeric(a) || !isNumeric(b)) return false;
    const x = asNumber(a);
    const y = asNumber(b);
    return x === y || exactNumbersEqual(x, y);
  }
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalAt(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(b, key) || !equalAt(a[key], b[key], depth + 1)) return false;
    }
    return true;
  }
  return a === b;
}

function expectedEqual(want: unknown, got: unknown): boolean {
  if (want instanceof Eq) return pythonEqual(want.value, got);
  if (isMatcher(want)) return want.matches(got, false);
  return pythonEqual(want, got);
}

/**
 * The argument names an expected call compares under `non-consuming`: its
 * `metadata.compare_args` list, or `null` when it names none (τ²'s `None`).
 *
 * @param expected The expected call.
 * @returns The names, or `null`.
 *
 * @example Usage
 * ```ts
 * import { compareArgsOf } from "./non_consuming.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(compareArgsOf({ tool: "a", metadata: { compare_args: ["x"] } }), ["x"]);
 * assert.equal(compareArgsOf({ tool: "a" }), null);
 * ```
 */
export function compareArgsOf(expected: ToolCall): readonly string[] | null {
  const value = expected.metadata?.[COMPARE_ARGS_KEY];
  if (!Array.isArray(value)) return null;
  return value.filter((name): name is string => typeof name === "string");
}

/**
 * Whether one actual call satisfies one expected call under τ²'s rule
 * (`Action.compare_with_tool_call`; see the module doc).
 *
 * @param expected The expected call (its `metadata.compare_args`, if any).
 * @param actual The actual call.
 * @returns `true` on a match.
 *
 * @example Usage
 * ```ts
 * import { tau2CallMatches } from "./non_consuming.ts";
 * import assert from "node:assert/strict";
 *
 * const action = { tool: "get_order", args: { order_id: "#W1", reason: "x" } };
 * // No compare_args: the arguments the call sent are compared.
 * assert.equal(tau2CallMatches(action, { tool: "get_order", args: { order_id: "#W1" } }), true);
 * assert.equal(tau2CallMatches(action, { tool: "get_order", args: { order_id: "#W1", n: 1 } }), false);
 * const named = { ...action, metadata: { compare_args: ["order_id"] } };
 * assert.equal(tau2CallMatches(named, { tool: "get_order", args: { order_id: "#W1", n: 1 } }), true);
 * ```
 */
export function tau2CallMatches(expected: ToolCall, actual: ToolCall): boolean {
  if (actual.malformed !== undefined || expected.tool !== actual.tool) return false;
  const named = compareArgsOf(expected);
  const want = expected.args;
  if (named === null && (want === undefined || want === null)) return true;
  if (named !== null && named.length === 0) return true;
  if (actual.argsError !== undefined) return false;
  const got = actual.args ?? {};
  const wanted = want ?? {};
  const names = named ?? Object.keys(got);
  for (const name of names) {
    const inGot = Object.hasOwn(got, name);
    if (inGot !== Object.hasOwn(wanted, name)) return false;
    if (inGot && !expectedEqual(wanted[name], got[name])) return false;
  }
  return true;
}

/**
 * Match expected calls to actual calls without consuming them: for each
 * expected call, the index of the first actual call that satisfies it, or
 * `null` (see the module doc).
 *
 * @param expected The expected calls.
 * @param actual The actual calls, in trace order (every actor's).
 * @returns One entry per expected call.
 * @throws {InputError} When one tool's expected × actual calls exceed `MAX_PAIRING_CELLS`.
 *
 * @example Usage
 * ```ts
 * import { nonConsumingMatches } from "./non_consuming.ts";
 * import assert from "node:assert/strict";
 *
 * const expected = [{ tool: "a", args: { x: 1 } }, { tool: "a", args: { x: 1 } }, { tool: "b" }];
 * assert.deepEqual(nonConsumingMatches(expected, [{ tool: "a", args: { x: 1 } }]), [0, 0, null]);
 * ```
 */
export function nonConsumingMatches(
  expected: readonly ToolCall[],
  actual: readonly ToolCall[],
): (number | null)[] {
  const byTool = new Map<string, number[]>();
  actual.forEach((call, j) => {
    const list = byTool.get(call.tool);
    if (list === undefined) byTool.set(call.tool, [j]);
    else list.push(j);
  });
  const wanted = new Map<string, number>();
  for (const call of expected) wanted.set(call.tool, (wanted.get(call.tool) ?? 0) + 1);
  for (const [tool, count] of wanted) {
    const calls = byTool.get(tool)?.length ?? 0;
    if (count * calls > MAX_PAIRING_CELLS) {
      throw new InputError(
        `${count} expected × ${calls} actual calls of ${
          JSON.stringify(tool)
        } is more than the ${MAX_PAIRING_CELLS} a matching compares; split the trace into smaller runs`,
      );
    }
  }
  return expected.map((call) => {
    for (const j of byTool.get(call.tool) ?? []) {
      if (tau2CallMatches(call, actual[j]!)) return j;
    }
    return null;
  });
}
