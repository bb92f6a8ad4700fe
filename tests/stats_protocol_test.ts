import assert from "node:assert/strict";
import {
  compareRuns,
  evaluateProtocol,
  InputError,
  jsonSha256,
  loadProtocol,
  loadRuns,
  type Protocol,
  Run,
} from "../mod.ts";

function variant(name: string, passes: number, n: number, cost: number | null = null): Run[] {
  return Array.from(
    { length: n },
    (_, i) => new Run(name, "t", i < passes ? "pass" : "fail", { cost, latency: 10 }),
  );
}

function protocol(rules: Protocol["rules"], extra: Partial<Protocol> = {}): Protocol {
  return { protocol_version: 1, title: "test", baseline: "old", candidate: "new", rules, ...extra };
}

const BETTER = { id: "better", metric: "pass_rate", expect: "candidate_better" } as const;

Deno.test("evaluateProtocol() adopts when every rule passes", () => {
  const comparison = compareRuns([
    ...variant("old", 50, 100, 0.01),
    ...variant("new", 90, 100, 0.012),
  ]);
  const result = evaluateProtocol(
    protocol([
      BETTER,
      { id: "cost", metric: "cost", expect: "not_worse", tolerance: 0.005 },
      { id: "floor", metric: "interval_low", min: 0.8 },
    ]),
    comparison,
  );
  assert.deepEqual(result.rules.map((rule) => rule.status), ["pass", "pass", "pass"]);
  assert.equal(result.decision, "adopt");
  assert.match(
    result.rules[0]!.detail,
    /^pass_rate: new 0\.900 vs old 0\.500, better; p = 5\.5e-10, alpha = 0\.05, intervals do not overlap$/,
  );
  assert.ok(result.rules[0]!.pValue! < 1e-9);
  assert.equal(
    result.rules[1]!.detail,
    "cost: new $0.012 vs old $0.01, not worse (tolerance $0.005)",
  );
});

Deno.test("evaluateProtocol() rejects when a rule fails", () => {
  const comparison = compareRuns([...variant("old", 9, 10), ...variant("new", 7, 10)]);
  const result = evaluateProtocol(protocol([BETTER]), comparison);
  assert.equal(result.rules[0]!.status, "fail");
  assert.match(result.rules[0]!.detail, /not shown better; p = 0\.58/);
  assert.equal(result.decision, "reject");
  // not_worse with a tolerance of 0.2 absorbs 9/10 → 7/10, but not 0.1.
  const slack = protocol([{ id: "nw", metric: "pass_rate", expect: "not_worse", tolerance: 0.2 }]);
  assert.equal(evaluateProtocol(slack, comparison).decision, "adopt");
  const tight = protocol([{ id: "nw", metric: "pass_rate", expect: "not_worse", tolerance: 0.1 }]);
  assert.equal(evaluateProtocol(tight, comparison).decision, "reject");
});

Deno.test("evaluateProtocol() makes a rule with too few runs unknown, never a pass", () => {
  const comparison = compareRuns([...variant("old", 0, 4), ...variant("new", 4, 4)]);
  const result = evaluateProtocol(
    protocol([BETTER, { id: "nw", metric: "pass_rate", expect: "not_worse" }, {
      id: "min",
      metric: "pass_rate",
      min: 0.5,
    }]),
    comparison,
  );
  assert.deepEqual(result.rules.map((rule) => rule.status), ["unknown", "unknown", "unknown"]);
  assert.equal(
    result.rules[1]!.detail,
    "baseline old has 4 runs, fewer than min_runs = 10; candidate new has 4 runs, fewer than min_runs = 10",
  );
  assert.equal(result.decision, "undecided");
  // min_runs in the protocol overrides the comparison's min_n.
  const lowered = evaluateProtocol(
    protocol([{ id: "min", metric: "pass_rate", min: 0.5 }], { min_runs: 4 }),
    comparison,
  );
  assert.equal(lowered.decision, "adopt");
});

Deno.test("evaluateProtocol() makes a rule on an unknown metric unknown", () => {
  const comparison = compareRuns([...variant("old", 5, 10, 0.01), ...variant("new", 5, 10)]);
  const result = evaluateProtocol(
    protocol([{ id: "cheaper", metric: "cost", expect: "candidate_better" }, {
      id: "cap",
      metric: "cost",
      max: 1,
    }]),
    comparison,
  );
  assert.deepEqual(result.rules.map((rule) => [rule.status, rule.detail]), [
    ["unknown", "cost of candidate new is unknown"],
    ["unknown", "cost of candidate new is unknown"],
  ]);
  assert.equal(result.rules[0]!.baselineValue, 0.01);
  assert.equal(result.rules[0]!.candidateValue, null);
  // A failing rule still rejects when another is unknown.
  const mixed = evaluateProtocol(
    protocol([{ id: "cap", metric: "cost", max: 1 }, {
      id: "floor",
      metric: "pass_rate",
      min: 0.9,
    }]),
    comparison,
  );
  assert.equal(mixed.decision, "reject");
});

Deno.test("evaluateProtocol() uses the protocol's alpha", () => {
  const comparison = compareRuns([...variant("old", 20, 40), ...variant("new", 38, 40)]);
  const p = comparison.pairs[0]!.pValue;
  assert.ok(p < 0.05 && p > 1e-6, `p = ${p}`);
  assert.equal(evaluateProtocol(protocol([BETTER]), comparison).rules[0]!.status, "pass");
  assert.equal(
    evaluateProtocol(protocol([BETTER], { alpha: 1e-6 }), comparison).rules[0]!.status,
    "fail",
  );
});

Deno.test("evaluateProtocol() checks pass_hat_k against the comparison's k", () => {
  const comparison = compareRuns([...variant("old", 5, 10), ...variant("new", 9, 10)], { k: 3 });
  const rule = { id: "k", metric: "pass_hat_k", expect: "not_worse" } as const;
  assert.equal(evaluateProtocol(protocol([rule], { k: 3 }), comparison).decision, "adopt");
  assert.throws(
    () => evaluateProtocol(protocol([rule]), comparison),
    /k: the protocol says k = 1 but the comparison was built with k = 3/,
  );
});

Deno.test("evaluateProtocol() hashes the protocol as declared, the same before and after the runs", async () => {
  const declared = await loadProtocol("testdata/runs/protocol.yaml");
  const before = jsonSha256(declared);
  const runs = await loadRuns(["testdata/runs/agent_runs.jsonl", "testdata/runs/records.jsonl"]);
  const result = evaluateProtocol(declared, compareRuns(runs, { baseline: "mini" }));
  assert.equal(result.protocolSha256, before);
  assert.equal(jsonSha256(await loadProtocol("testdata/runs/protocol.yaml")), before);
  assert.equal(result.toJSON().protocol_sha256, before);
  assert.equal(result.decision, "adopt");
  // Key order does not change the hash; a changed rule does.
  const reordered = Object.fromEntries(Object.entries(declared).reverse());
  assert.equal(evaluateProtocol(reordered, compareRuns(runs)).protocolSha256, before);
  const changed = { ...declared, rules: [...declared.rules, { id: "x", metric: "cost", max: 1 }] };
  assert.notEqual(evaluateProtocol(changed, compareRuns(runs)).protocolSha256, before);
});

Deno.test("loadProtocol() reads JSON and YAML and names bad keys with the file", async () => {
  const json = await loadProtocol("testdata/runs/protocol_local.json");
  assert.equal(json.candidate, "local");
  await assert.rejects(() => loadProtocol("testdata/runs/agent_runs.jsonl"), InputError);
  await assert.rejects(() => loadProtocol("testdata/runs/nope.yaml"), /nope\.yaml: file not found/);
});

Deno.test("evaluateProtocol() names an unknown key, variant or metric", () => {
  const comparison = compareRuns([...variant("old", 5, 10), ...variant("new", 9, 10)]);
  const cases: [unknown, RegExp][] = [
    [
      { ...protocol([BETTER]), seed: 7 },
      /^seed: unknown key seed; a protocol has protocol_version, title/,
    ],
    [
      protocol([{ ...BETTER, weight: 2 } as never]),
      /^rules\[0\]\.weight: unknown key weight; a rule has id, metric/,
    ],
    [protocol([{ id: "s", metric: "speed", min: 1 }]), /^rules\[0\]\.metric: unknown metric speed/],
    [
      protocol([BETTER], { candidate: "newer" }),
      /^candidate: unknown variant newer; the runs have old, new/,
    ],
    [protocol([BETTER], { baseline: "older" }), /^baseline: unknown variant older/],
    [
      { ...protocol([BETTER]), protocol_version: 2 },
      /^protocol_version: expected 1, got the number 2/,
    ],
    [protocol([]), /^rules: expected a non-empty array of rules/],
    [
      protocol([{ id: "x", metric: "cost" }]),
      /^rules\[0\]: a rule needs expect, or min and\/or max/,
    ],
    [
      protocol([{ id: "x", metric: "cost", expect: "better" as never }]),
      /^rules\[0\]\.expect: unknown expectation "better"/,
    ],
    [
      protocol([{ id: "x", metric: "cost", expect: "not_worse", max: 1 }]),
      /either expect or min\/max, not both/,
    ],
    [protocol([BETTER, BETTER]), /^rules\[1\]\.id: duplicate rule id better/],
    [protocol([{ ...BETTER, tolerance: -1 }]), /^rules\[0\]\.tolerance: expected a number ≥ 0/],
    [protocol([BETTER], { alpha: 5 }), /^alpha: expected a number between 0 and 1/],
    [
      protocol([BETTER], { candidate: "old" }),
      /^candidate: the candidate must differ from the baseline/,
    ],
    ["protocol", /expected a protocol object, got a string/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => evaluateProtocol(value, comparison), (error: Error) => {
      assert.ok(error instanceof InputError, `${error}`);
      assert.match(error.message, pattern);
      return true;
    });
  }
});

Deno.test("ProtocolResult.toJSON() is snake_case", () => {
  const comparison = compareRuns([...variant("old", 5, 10), ...variant("new", 9, 10)]);
  const json = JSON.parse(JSON.stringify(evaluateProtocol(protocol([BETTER]), comparison)));
  assert.deepEqual(Object.keys(json), [
    "title",
    "protocol_sha256",
    "baseline",
    "candidate",
    "alpha",
    "min_runs",
    "k",
    "decision",
    "summary",
    "rules",
  ]);
  assert.deepEqual(Object.keys(json.rules[0]), [
    "id",
    "metric",
    "status",
    "baseline_value",
    "candidate_value",
    "p_value",
    "test",
    "detail",
    "rule",
  ]);
  assert.equal(json.summary, "reject: 0 pass, 1 fail, 0 unknown");
});
