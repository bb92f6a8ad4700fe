/**
 * Properties of the `non-consuming` matching (issue 44, τ²'s action check):
 * it never matches fewer required calls than any one-to-one pairing could;
 * `compare_args` compares exactly the named arguments (a literal port of
 * τ²'s `compare_with_tool_call` is the reference); arguments outside
 * `compare_args` never change a match; more actual calls never unmatch; and
 * Python's `==` is an equivalence with `true == 1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import type { ToolCall } from "../lib/scoring/calls.ts";
import { nonConsumingMatches, pythonEqual, tau2CallMatches } from "../lib/scoring/non_consuming.ts";

const KEYS = ["a", "b", "c"];
const value = fc.oneof(
  fc.integer({ min: 0, max: 2 }),
  fc.constantFrom(0.5, 1.0, true, false, null, "x", "1"),
  fc.constantFrom([1], [true], { k: 1 }),
);
const args = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 3, noNullPrototype: true });
const tool = fc.constantFrom("t1", "t2");
const actual: fc.Arbitrary<ToolCall> = fc.record({ tool, args }, { noNullPrototype: true });
const expected: fc.Arbitrary<ToolCall> = fc.record({
  tool,
  args,
  compare: fc.option(fc.subarray(KEYS), { nil: undefined }),
}, { noNullPrototype: true }).map(({ tool, args, compare }) =>
  compare === undefined ? { tool, args } : { tool, args, metadata: { compare_args: compare } }
);

// τ²'s Action.compare_with_tool_call, line by line.
function reference(action: ToolCall, call: ToolCall): boolean {
  if (action.tool !== call.tool) return false;
  const callArgs = call.args ?? {};
  const named = action.metadata?.compare_args as string[] | undefined;
  const compareArgs = named ?? Object.keys(callArgs);
  if (compareArgs.length === 0) return true;
  const toolArgs = Object.entries(callArgs).filter(([k]) => compareArgs.includes(k));
  const actionArgs = Object.entries(action.args ?? {}).filter(([k]) => compareArgs.includes(k));
  if (toolArgs.length !== actionArgs.length) return false;
  const other = new Map(actionArgs);
  return toolArgs.every(([k, v]) => other.has(k) && pyScalarEqual(other.get(k), v));
}

// Python's == on JSON values, another way: booleans as the ints they are, keys sorted, then text.
function pyScalarEqual(x: unknown, y: unknown): boolean {
  const normal = (v: unknown): unknown =>
    typeof v === "boolean"
      ? Number(v)
      : Array.isArray(v)
      ? v.map(normal)
      : v !== null && typeof v === "object"
      ? Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1).map(([k, w]) => [k, normal(w)])
      : v;
  return JSON.stringify(normal(x)) === JSON.stringify(normal(y));
}

// The most required calls any one-to-one pairing can match (augmenting paths).
function maxOneToOne(want: ToolCall[], got: ToolCall[]): number {
  const owner = new Array<number>(got.length).fill(-1);
  const tryMatch = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < got.length; j++) {
      if (seen[j] || !tau2CallMatches(want[i]!, got[j]!)) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryMatch(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  let count = 0;
  for (let i = 0; i < want.length; i++) if (tryMatch(i, new Array(got.length).fill(false))) count++;
  return count;
}

Deno.test("nonConsumingMatches() never matches fewer required calls than a one-to-one pairing", () => {
  fc.assert(
    fc.property(
      fc.array(expected, { maxLength: 6 }),
      fc.array(actual, { maxLength: 6 }),
      (want, got) => {
        const matched = nonConsumingMatches(want, got).filter((m) => m !== null).length;
        assert.ok(matched >= maxOneToOne(want, got));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("tau2CallMatches() is τ²'s compare_with_tool_call: compare_args names what is compared", () => {
  fc.assert(
    fc.property(expected, actual, (want, got) => {
      assert.equal(tau2CallMatches(want, got), reference(want, got));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("tau2CallMatches() ignores every argument outside compare_args", () => {
  fc.assert(
    fc.property(
      expected.filter((c) => Array.isArray(c.metadata?.compare_args)),
      actual,
      value,
      (want, got, noise) => {
        const named = want.metadata!.compare_args as string[];
        const outside = ["d", ...KEYS.filter((k) => !named.includes(k))];
        for (const key of outside) {
          const noisy = { ...got, args: { ...got.args, [key]: noise } };
          assert.equal(tau2CallMatches(want, noisy), tau2CallMatches(want, got), key);
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("nonConsumingMatches() keeps every match when calls are appended; first match wins", () => {
  fc.assert(
    fc.property(
      fc.array(expected, { maxLength: 5 }),
      fc.array(actual, { maxLength: 5 }),
      fc.array(actual, { maxLength: 3 }),
      (want, got, more) => {
        const before = nonConsumingMatches(want, got);
        const after = nonConsumingMatches(want, [...got, ...more]);
        before.forEach((j, i) => {
          if (j !== null) assert.equal(after[i], j);
          const first = got.findIndex((call) => tau2CallMatches(want[i]!, call));
          assert.equal(j, first === -1 ? null : first);
        });
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("pythonEqual() is reflexive and symmetric, with Python's numbers", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (x, y) => {
      assert.ok(pythonEqual(x, x));
      assert.equal(pythonEqual(x, y), pythonEqual(y, x));
    }),
    { numRuns: 300 },
  );
  assert.ok(
    pythonEqual(true, 1) && pythonEqual(false, 0.0) &&
      pythonEqual([1, { a: 2.0 }], [true, { a: 2 }]),
  );
  assert.ok(!pythonEqual("1", 1) && !pythonEqual(null, 0) && !pythonEqual([1], [1, 1]));
  assert.ok(!pythonEqual({ a: 1 }, { a: 1, b: null }));
});
