import assert from "node:assert/strict";
import { evaluate, goldFromJson } from "../mod.ts";

Deno.test("goldFromJson() returns a frozen list that passes through unchanged", () => {
  const gold = goldFromJson([{ tool: "search", args: { q: "deno", tags: ["a"] } }]);
  assert.equal(goldFromJson(gold), gold);
  assert.ok(Object.isFrozen(gold) && Object.isFrozen(gold[0]));
  assert.throws(() => {
    (gold[0]!.args as Record<string, unknown>).q = "node";
  }, TypeError);
  assert.throws(() => {
    ((gold[0]!.args as Record<string, unknown>).tags as string[]).push("b");
  }, TypeError);
});

Deno.test("goldFromJson() converts a raw list once, and again after it changed", () => {
  const raw: { tool: string; args: Record<string, unknown> }[] = [
    { tool: "search", args: { q: "deno", page: { n: 1 } } },
  ];
  const first = goldFromJson(raw);
  assert.equal(goldFromJson(raw), first);
  raw[0]!.args.q = "node";
  assert.equal(goldFromJson(raw)[0]!.args!.q, "node");
  (raw[0]!.args.page as { n: number }).n = 2;
  assert.deepEqual(goldFromJson(raw)[0]!.args!.page, { n: 2 });
  raw[0]!.args.extra = true;
  assert.equal(goldFromJson(raw)[0]!.args!.extra, true);
  delete raw[0]!.args.extra;
  assert.equal(Object.hasOwn(goldFromJson(raw)[0]!.args!, "extra"), false);
  raw.push({ tool: "fetch", args: {} });
  assert.deepEqual(goldFromJson(raw).map((c) => c.tool), ["search", "fetch"]);
});

Deno.test("evaluate() sees an edit to the raw gold list between calls", () => {
  const gold = [{ tool: "get_weather", args: { city: "NYC" } }];
  const trace = [{ tool: "get_weather", args: { city: "Paris" } }];
  assert.equal(evaluate(gold, trace).argumentF1, 0);
  gold[0]!.args.city = "Paris";
  assert.equal(evaluate(gold, trace).argumentF1, 1);
  gold[0]!.args = { city: { $regex: "^Lon" } } as unknown as { city: string };
  assert.equal(evaluate(gold, trace).argumentF1, 0);
});
