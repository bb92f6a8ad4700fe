import assert from "node:assert/strict";
import { evaluate } from "../mod.ts";
import { summarizeIssues, topIssues } from "../lib/evaluate/issues.ts";
import fc from "fast-check";

const gold = [
  { tool: "search", args: { q: "flights" } },
  { tool: "book", args: { id: 7 } },
  { tool: "pay", args: { amount: 100 } },
  { tool: "notify" },
];
const actual = [
  { tool: "search", args: { q: "trains", extra: true } },
  { tool: "cancel", args: {} },
  { tool: "pay", args: { amount: 100 } },
  { tool: "log", args: { text: "done" } },
];

Deno.test("topIssues() lists misses, wrong tools and arguments in step order, extras last", () => {
  const issues = topIssues(evaluate(gold, actual));
  assert.deepEqual(issues.map((i) => [i.kind, i.message]), [
    ["argument", 'search (expected call 1): argument q expected "flights", got "trains"'],
    ["argument", "search (expected call 1): unexpected argument extra = true"],
    ["wrong_tool", "step 2: expected book, got cancel"],
    ["wrong_tool", "step 4: expected notify, got log"],
  ]);
  const missing = topIssues(evaluate(gold, actual.slice(0, 1)));
  assert.deepEqual(missing.map((i) => i.message).slice(2), [
    'missing call: book with {"id":7}',
    'missing call: pay with {"amount":100}',
    "missing call: notify",
  ]);
  const extra = topIssues(
    evaluate(gold.slice(0, 1), [actual[2]!, { tool: "search", args: { q: "flights" } }]),
  );
  assert.deepEqual(extra.map((i) => i.message), ['extra call 1: pay {"amount":100}']);
});

Deno.test("summarizeIssues() builds only the issues shown and counts them all", () => {
  const result = evaluate(gold, actual);
  const all = topIssues(result);
  const { shown, total } = summarizeIssues(result, { limit: 2 });
  assert.equal(total, all.length);
  assert.deepEqual(shown, all.slice(0, 2));
  assert.deepEqual(summarizeIssues(result, { limit: 0 }), { shown: [], total: all.length });
  assert.deepEqual(summarizeIssues(result, { limit: NaN }), { shown: [], total: all.length });
  assert.deepEqual(summarizeIssues(result, { limit: 2.5 }).shown, all.slice(0, 3));
  assert.deepEqual(summarizeIssues(evaluate(gold, gold)), { shown: [], total: 0 });
});

Deno.test("summarizeIssues() with any limit shows a prefix of topIssues() and counts them all", () => {
  const tools = ["a", "b", "c"];
  const call = fc.record(
    {
      tool: fc.constantFrom(...tools),
      args: fc.dictionary(fc.constantFrom("x", "y", "z"), fc.constantFrom(1, 2, " 1", "1")),
    },
    { requiredKeys: ["tool"] },
  );
  fc.assert(
    fc.property(
      fc.array(call, { maxLength: 6 }),
      fc.array(call, { maxLength: 6 }),
      fc.nat(8),
      fc.boolean(),
      (want, got, limit, strict) => {
        const result = evaluate(want, got, { strict });
        const all = topIssues(result);
        const { shown, total } = summarizeIssues(result, { limit });
        assert.equal(total, all.length);
        assert.deepEqual(shown, all.slice(0, limit));
      },
    ),
    { numRuns: 300 },
  );
});
