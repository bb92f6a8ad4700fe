import assert from "node:assert/strict";
import fc from "fast-check";
import { matcherFromJson, type ToolCall } from "../mod.ts";
import { computeMetrics, levenshtein } from "../lib/scoring/metrics.ts";
import { matchedKeyCount, pairCalls } from "../lib/scoring/pairing.ts";

function naiveLevenshtein(a: string[], b: string[]): number {
  const table = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i]![j] = Math.min(
        table[i - 1]![j]! + 1,
        table[i]![j - 1]! + 1,
        table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  }
  return table[a.length]![b.length]!;
}

Deno.test("levenshtein() agrees with the textbook table (property)", () => {
  const tokens = fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 12 });
  fc.assert(
    fc.property(tokens, tokens, (a, b) => {
      assert.equal(levenshtein(a, b), naiveLevenshtein(a, b));
    }),
    { numRuns: 500 },
  );
});

Deno.test("levenshtein() counts only the differing middle of long sequences", () => {
  const a = Array.from({ length: 300 }, (_, i) => `t${i % 7}`);
  const b = [...a.slice(0, 150), "x", ...a.slice(150)];
  assert.equal(levenshtein(a, b), 1);
  assert.equal(levenshtein(a, a), 0);
  assert.equal(levenshtein([], a), 300);
});

// Values that exercise every comparison path: equal and unequal primitives, padded strings,
// numbers against strings, nested objects and arrays, and matchers on the expected side.
const value = fc.oneof(
  fc.constantFrom("x", " x", "x ", "y", "1", 1, 2, true, false, null),
  fc.constantFrom({ a: 1 }, { a: 1, b: 2 }, [1, 2], [" x"], { a: " x" }),
);
const expectedValue = fc.oneof(
  value,
  fc.constantFrom(
    { $regex: "^x" },
    { $one_of: ["x", 2] },
    { $approx: 1, $abs: 0.5 },
    { $type: "string" },
    { $any: true },
  ).map((operator) => matcherFromJson(operator)),
);
const keys = fc.constantFrom("p", "q", "r", "toString", "__proto__");
const actualCall = fc.record({
  tool: fc.constantFrom("a", "b"),
  args: fc.dictionary(keys, value, { maxKeys: 4 }),
});
const expectedCall = fc.record({
  tool: fc.constantFrom("a", "b"),
  args: fc.option(fc.dictionary(keys, expectedValue, { maxKeys: 4 }), { nil: undefined }),
});

Deno.test("pairCalls() reports matchedKeyCount() for every pair, lenient and strict (property)", () => {
  fc.assert(
    fc.property(
      fc.array(expectedCall, { maxLength: 6 }),
      fc.array(actualCall, { maxLength: 6 }),
      fc.boolean(),
      (gold: ToolCall[], actual: ToolCall[], strict) => {
        for (const pair of pairCalls(gold, actual, { strict })) {
          const want = matchedKeyCount(gold[pair.expected]!, actual[pair.actual]!, { strict });
          assert.equal(pair.matchedKeys, want);
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("computeMetrics() scores trajectory steps with matchedKeyCount() (property)", () => {
  fc.assert(
    fc.property(
      fc.array(expectedCall, { minLength: 1, maxLength: 6 }),
      fc.array(actualCall, { minLength: 1, maxLength: 6 }),
      (gold: ToolCall[], actual: ToolCall[]) => {
        let steps = 0;
        for (let i = 0; i < Math.min(gold.length, actual.length); i++) {
          const want = gold[i]!;
          const got = actual[i]!;
          if (want.tool !== got.tool) continue;
          if (want.args === undefined) steps++;
          else if (matchedKeyCount(want, got) === Object.keys(want.args!).length) steps++;
        }
        const expected = (steps / gold.length) * Math.min(1, gold.length / actual.length);
        assert.equal(computeMetrics(gold, actual).trajectory_accuracy, expected);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("computeMetrics() keeps a tool named __proto__ as a per-tool key", () => {
  const calls = [{ tool: "__proto__", durationS: 0.5 }, { tool: "toString" }];
  const metrics = computeMetrics([{ tool: "__proto__" }], calls);
  assert.equal(Object.getPrototypeOf(metrics.latency.per_tool), Object.prototype);
  assert.deepEqual(Object.keys(metrics.latency.per_tool), ["__proto__", "toString"]);
  const entry = Object.getOwnPropertyDescriptor(metrics.latency.per_tool, "__proto__")?.value;
  assert.deepEqual(entry, { total: 0.5, mean: 0.5, known: 1, calls: 1 });
  assert.deepEqual(metrics.extra_tools, ["toString"]);
  assert.equal(metrics.tool_correctness, 1);
});

Deno.test("computeMetrics() counts identical calls as a canonical-JSON comparison does (property)", () => {
  const canonical = (value: unknown): string =>
    JSON.stringify(
      value,
      (_, v) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : v,
    );
  fc.assert(
    fc.property(fc.array(actualCall, { maxLength: 40 }), (actual: ToolCall[]) => {
      const seen = new Set<string>();
      let identical = 0;
      for (const call of actual) {
        const key = `${call.tool}\u0000${canonical(call.args ?? {})}`;
        if (seen.has(key)) identical++;
        else seen.add(key);
      }
      const expected = actual.length === 0 ? 0 : identical / actual.length;
      assert.equal(computeMetrics([], actual).identical_rate, expected);
    }),
    { numRuns: 300 },
  );
});
