import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import type { CliIO } from "../lib/cli/command.ts";
import {
  AlternativeGroup,
  Contract,
  CONTRACT_SCHEMA,
  contractFromMapping,
  evaluate,
  evaluateContract,
  goldFromJson,
  InputError,
  isContract,
  loadContract,
  MAX_COMBINATIONS,
  OneOf,
  splitOptional,
  type ToolCall,
} from "../mod.ts";
import { parseDocument } from "../lib/base/load.ts";
import { runCli } from "../lib/cli/run.ts";
import { CombinationScorer } from "../lib/evaluate/combination_score.ts";
import { computeMetrics } from "../lib/scoring/metrics.ts";
import { compositeScore, normalizeWeights } from "../lib/scoring/score.ts";

const DATA = new URL("../testdata/contract/", import.meta.url).pathname;
// Inside the repository (tests run with --allow-read=.); *.tmp is ignored by git.
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".", suffix: ".tmp" };

interface ContractMetricsShape {
  contract_version: number;
  alternatives: {
    chosen: Record<string, number>;
    combinations: { chosen: Record<string, number>; score: number }[];
  };
  optional_matched: number[];
  required_count: number;
  optional_count: number;
  forbidden_count: number;
}

function contractMetrics(result: { metrics: Record<string, unknown> }): ContractMetricsShape {
  return result.metrics.contract_metrics as ContractMetricsShape;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-9;
}

// --- expansions -----------------------------------------------------------

Deno.test("Contract.expansions() lists every combination, the last group varying fastest", () => {
  const contract = contractFromMapping({
    required: [
      { id: "g1", alternatives: [[{ tool: "a" }], [{ tool: "b" }]] },
      { tool: "mid" },
      { id: "g2", alternatives: [[{ tool: "x" }], [], [{ tool: "y" }, { tool: "z" }]] },
    ],
  });
  deepEqual(
    contract.expansions().map((e) => [e.calls.map((c) => c.tool).join(" "), e.chosen]),
    [
      ["a mid x", { g1: 0, g2: 0 }],
      ["a mid", { g1: 0, g2: 1 }],
      ["a mid y z", { g1: 0, g2: 2 }],
      ["b mid x", { g1: 1, g2: 0 }],
      ["b mid", { g1: 1, g2: 1 }],
      ["b mid y z", { g1: 1, g2: 2 }],
    ],
  );
  equal(contract.combinationCount, 6);
  deepEqual(contract.groups.map((g) => g.id), ["g1", "g2"]);
});

Deno.test("AlternativeGroup needs at least one option", () => {
  throws(() => new AlternativeGroup("g", []), /group "g" needs at least one option/);
});

Deno.test("Contract.expansions() of a contract without groups is its required calls", () => {
  const contract = new Contract({ required: [{ tool: "a" }, { tool: "b" }] });
  deepEqual(contract.expansions(), [{ calls: [{ tool: "a" }, { tool: "b" }], chosen: {} }]);
  deepEqual(new Contract().expansions(), [{ calls: [], chosen: {} }]);
});

Deno.test("Contract.expansions() raises with the count above MAX_COMBINATIONS", () => {
  const group = (i: number) => new AlternativeGroup(`g${i}`, [[{ tool: "a" }], [{ tool: "b" }]]);
  const fine = new Contract({ required: Array.from({ length: 10 }, (_, i) => group(i)) });
  equal(fine.expansions().length, MAX_COMBINATIONS);
  const tooMany = new Contract({ required: Array.from({ length: 11 }, (_, i) => group(i)) });
  throws(
    () => tooMany.expansions(),
    (error: Error) =>
      error instanceof InputError && error.message.includes("2048 combinations") &&
      error.message.includes("MAX_COMBINATIONS (1024)"),
  );
  throws(() => evaluateContract(tooMany, []), /2048 combinations/);
});

Deno.test("loadContract() names the file of a contract with too many combinations", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const path = join(dir, "big.json");
    const required = Array.from({ length: 11 }, (_, i) => ({
      id: `g${i}`,
      alternatives: [[], [{ tool: "a" }]],
    }));
    await Deno.writeTextFile(path, JSON.stringify({ required }));
    await rejects(
      () => loadContract(path),
      (error: Error) =>
        error instanceof InputError &&
        error.message.startsWith(`${path}: required: the alternative groups expand to 2048`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- evaluateContract: alternatives ----------------------------------------

const NOTIFY = {
  required: [
    { tool: "search", args: { q: "flights" } },
    {
      id: "notify",
      alternatives: [
        [{ tool: "send_email", args: { to: { $contains: "@" } } }],
        [{ tool: "send_sms", args: { to: { $regex: "^\\+\\d+$" } } }],
        [],
      ],
    },
  ],
};

Deno.test("evaluateContract() picks the best alternative and keeps every combination's score", () => {
  const result = evaluateContract(NOTIFY, [
    { tool: "search", args: { q: "flights" } },
    { tool: "send_sms", args: { to: "+15550100" } },
  ]);
  const metrics = contractMetrics(result);
  deepEqual(metrics.alternatives.chosen, { notify: 1 });
  equal(result.score, 1);
  equal(metrics.alternatives.combinations.length, 3);
  deepEqual(metrics.alternatives.combinations.map((c) => c.chosen), [
    { notify: 0 },
    { notify: 1 },
    { notify: 2 },
  ]);
  const scores = metrics.alternatives.combinations.map((c) => c.score);
  equal(scores[1], result.score);
  ok(scores[0]! < 1 && scores[2]! < 1);
  // The other combinations' scores are what scoring them alone gives.
  const alone = evaluate(
    [{ tool: "search", args: { q: "flights" } }],
    [{ tool: "search", args: { q: "flights" } }, { tool: "send_sms", args: { to: "+15550100" } }],
  );
  ok(close(scores[2]!, alone.score));
  deepEqual(result.goldCalls.map((c) => c.tool), ["search", "send_sms"]);
});

Deno.test("evaluateContract() lets an empty option match an agent that skipped the step", () => {
  const result = evaluateContract(NOTIFY, [{ tool: "search", args: { q: "flights" } }]);
  equal(result.score, 1);
  deepEqual(contractMetrics(result).alternatives.chosen, { notify: 2 });
  equal(result.requiredCallRecall, 1);
  deepEqual(result.goldCalls.map((c) => c.tool), ["search"]);
});

Deno.test("evaluateContract() gives ties to the earliest combination in declaration order", () => {
  // Both options are a call of a tool the agent never made: equal scores.
  const contract = {
    required: [
      { tool: "search" },
      { id: "a", alternatives: [[{ tool: "x" }], [{ tool: "y" }]] },
      { id: "b", alternatives: [[{ tool: "p" }], [{ tool: "q" }]] },
    ],
  };
  const result = evaluateContract(contract, [{ tool: "search" }]);
  const metrics = contractMetrics(result);
  const scores = metrics.alternatives.combinations.map((c) => c.score);
  ok(scores.every((s) => s === scores[0]));
  deepEqual(metrics.alternatives.chosen, { a: 0, b: 0 });
  // With the order of options swapped, the first declared still wins.
  const swapped = evaluateContract({
    required: [
      { tool: "search" },
      { id: "a", alternatives: [[{ tool: "y" }], [{ tool: "x" }]] },
      { id: "b", alternatives: [[{ tool: "q" }], [{ tool: "p" }]] },
    ],
  }, [{ tool: "search" }]);
  deepEqual(swapped.goldCalls.map((c) => c.tool), ["search", "y", "q"]);
});

Deno.test("evaluateContract() prefers a later option only when it scores higher", () => {
  const contract = {
    required: [{ id: "g", alternatives: [[{ tool: "a" }], [{ tool: "b" }], [{ tool: "b" }]] }],
  };
  deepEqual(contractMetrics(evaluateContract(contract, [{ tool: "b" }])).alternatives.chosen, {
    g: 1,
  });
});

// --- optional calls --------------------------------------------------------

Deno.test("evaluateContract() leaves optional calls out of the score but keeps them in traceCalls", () => {
  const contract = {
    required: [{ tool: "search", args: { q: "x" } }],
    optional: [{ tool: "get_weather" }, { tool: "search", args: { q: "help" } }],
  };
  const calls = [
    { tool: "get_weather", args: { city: "Paris" } },
    { tool: "search", args: { q: "x" } },
    { tool: "search", args: { q: "help" } },
  ];
  const result = evaluateContract(contract, calls);
  equal(result.score, 1);
  equal(result.traceCalls.length, 3);
  deepEqual(result.scoredCalls.map((c) => c.args), [{ q: "x" }]);
  deepEqual(contractMetrics(result).optional_matched, [0, 2]);
  // Without the optional entries the same calls cost points.
  ok(evaluateContract({ required: contract.required }, calls).score < 1);
  deepEqual(result.toJSON().calls, {
    expected: [{ tool: "search", args: { q: "x" } }],
    actual: calls,
  });
});

Deno.test("splitOptional() keeps an optional call that fills a required one", () => {
  // search(q=help) matches an optional entry but comes first: it fills the required search.
  const [scored, leftOut] = splitOptional(
    [{ tool: "search", args: { q: "help" } }, { tool: "search", args: { q: "help" } }],
    [{ tool: "search", args: { q: "x" } }],
    [{ tool: "search", args: { q: "help" } }],
  );
  equal(scored.length, 1);
  deepEqual(leftOut, [1]);
});

Deno.test("splitOptional() counts every kept call of a tool toward filling it", () => {
  const [scored, leftOut] = splitOptional(
    [{ tool: "s", args: { q: "a" } }, { tool: "s", args: { q: "b" } }, {
      tool: "s",
      args: { q: "c" },
    }],
    [{ tool: "s" }, { tool: "s" }],
    [{ tool: "s", args: { q: "c" } }],
  );
  deepEqual(scored.map((c) => c.args?.q), ["a", "b"]);
  deepEqual(leftOut, [2]);
});

Deno.test("splitOptional() matches optional entries by listed args only, leniently", () => {
  const [scored, leftOut] = splitOptional(
    [
      { tool: "w", args: { city: " Paris ", units: "c" } },
      { tool: "w", args: { city: "Rome" } },
      { tool: "w", args: {}, rawArgs: "{", argsError: "bad" },
    ],
    [],
    [{ tool: "w", args: { city: new OneOf("Paris", "Oslo") } }],
  );
  deepEqual(scored.map((c) => c.args?.city), ["Rome", undefined]);
  deepEqual(leftOut, [0]);
  deepEqual(splitOptional([{ tool: "a" }], [], []), [[{ tool: "a" }], []]);
});

// --- forbidden and credentials --------------------------------------------

Deno.test("evaluateContract() reports a forbidden call without changing the score", () => {
  const required = [{ tool: "search" }];
  const calls = [{ tool: "search" }, { tool: "cancel_booking", args: { id: "B1" } }];
  const withRules = evaluateContract({
    required,
    forbidden: [{ tool: "delete" }, { tool: "cancel_booking", reason: "never cancel unasked" }],
  }, calls);
  const without = evaluateContract({ required }, calls);
  equal(withRules.score, without.score);
  deepEqual(withRules.metrics.policy_metrics, {
    violation_count: 1,
    rule_count: 2,
    violations: [{
      index: 1,
      tool: "cancel_booking",
      args: { id: "B1" },
      rule: 1,
      reason: "never cancel unasked",
    }],
  });
  equal(contractMetrics(withRules).forbidden_count, 2);
});

Deno.test("evaluateContract() checks forbidden rules on optional calls too", () => {
  const result = evaluateContract({
    required: [],
    optional: [{ tool: "shell" }],
    forbidden: [{ tool: "shell", args: { cmd: { $regex: "^rm " } } }],
  }, [{ tool: "shell", args: { cmd: "rm -rf /" } }]);
  deepEqual(contractMetrics(result).optional_matched, [0]);
  equal((result.metrics.policy_metrics as { violation_count: number }).violation_count, 1);
});

Deno.test("evaluateContract() adds standalone forbidden rules after the contract's", () => {
  const result = evaluateContract(
    { required: [{ tool: "a" }], forbidden: [{ tool: "x" }] },
    [{ tool: "a" }, { tool: "y" }],
    { forbidden: [{ tool: "y", reason: "extra rule" }] },
  );
  deepEqual(result.metrics.policy_metrics, {
    violation_count: 1,
    rule_count: 2,
    violations: [{ index: 1, tool: "y", args: {}, rule: 1, reason: "extra rule" }],
  });
});

Deno.test("evaluateContract() finds an API key inside a nested argument and not sk-aaaa… test data", () => {
  const key = "sk-proj-" + "Zx9Qw3Er7Ty1".repeat(4);
  const result = evaluateContract({ required: [{ tool: "http" }, { tool: "login" }] }, [
    {
      tool: "http",
      args: { request: { headers: [{ name: "Authorization", value: `Bearer ${key}` }] } },
    },
    { tool: "login", args: { api_key: "sk-" + "a".repeat(48) } },
  ]);
  deepEqual(result.metrics.security_metrics, {
    secret_count: 1,
    secrets: [{
      index: 0,
      tool: "http",
      path: "request.headers[0].value",
      kind: "openai_api_key",
      preview: `sk-p…${key.slice(-2)}`,
    }],
  });
  equal(result.score, 1);
  ok(!JSON.stringify(result.toJSON()).includes(key));
});

// --- metrics, weights, strict ----------------------------------------------

Deno.test("evaluateContract() reports contract_metrics with the counts of entries", () => {
  const result = evaluateContract(
    contractFromMapping(JSON.parse(Deno.readTextFileSync(join(DATA, "flights.json")))),
    JSON.parse(Deno.readTextFileSync(join(DATA, "good_run.json"))),
  );
  const metrics = contractMetrics(result);
  equal(metrics.contract_version, 2);
  deepEqual(metrics.alternatives.chosen, { notify: 1 });
  deepEqual(metrics.optional_matched, [0]);
  equal(metrics.required_count, 3);
  equal(metrics.optional_count, 1);
  equal(metrics.forbidden_count, 1);
  equal(result.score, 1);
  equal(result.finalAnswer?.startsWith("Booked FL-101"), true);
  deepEqual((result.metrics.policy_metrics as { violation_count: number }).violation_count, 0);
});

Deno.test("evaluateContract() uses the contract's weights unless weights are given", () => {
  const contract = {
    required: [{ tool: "a", args: { x: 1 } }],
    weights: { argument_f1: 1, selection_accuracy: 0, sequence_accuracy: 0, redundant_rate: 0 },
  };
  const calls = [{ tool: "a", args: { x: 2 } }];
  const byContract = evaluateContract(contract, calls);
  equal(byContract.score, 0);
  equal(byContract.weights.argument_f1, 1);
  const byOption = evaluateContract(contract, calls, { weights: { argument_f1: 0 } });
  ok(close(
    byOption.score,
    evaluate([{ tool: "a", args: { x: 1 } }], calls, {
      weights: { argument_f1: 0 },
    }).score,
  ));
  throws(
    () => evaluateContract(contract, calls, { weights: { bogus: 1 } }),
    /unknown weight bogus/,
  );
});

Deno.test("evaluateContract() compares strictly when asked", () => {
  const contract = { required: [{ tool: "a", args: { city: "NYC" } }] };
  const calls = [{ tool: "a", args: { city: " NYC " } }];
  equal(evaluateContract(contract, calls).score, 1);
  ok(close(evaluateContract(contract, calls, { strict: true }).score, 0.7));
});

Deno.test("evaluateContract() reads raw provider formats", () => {
  const openai = [
    { role: "user", content: "find flights" },
    {
      role: "assistant",
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "search", arguments: '{"q":"flights"}' },
      }],
    },
  ];
  const result = evaluateContract(NOTIFY, openai, { format: "auto" });
  equal(result.trace.format === "openai" || result.trace.format === "custom", true);
  deepEqual(result.traceCalls.map((c) => c.tool), ["search"]);
});

Deno.test("evaluateContract() gives the same score as evaluate() for a contract without groups or optional calls", () => {
  const gold = [
    { tool: "get_weather", args: { city: "NYC" } },
    { tool: "send_email", args: { to: "u" } },
  ];
  const calls = [
    { tool: "get_weather", args: { city: "New York" } },
    { tool: "send_email", args: { to: "u" } },
  ];
  const result = evaluateContract({ required: gold }, calls);
  ok(close(result.score, 0.85));
  equal(result.score, evaluate(gold, calls).score);
});

Deno.test("CombinationScorer property: its score equals compositeScore(computeMetrics())", () => {
  const tool = fc.constantFrom("a", "b", "c");
  const value = fc.oneof(fc.constantFrom(1, 2, "x", " x", true), fc.constant(null));
  const args = fc.option(fc.dictionary(fc.constantFrom("k", "m", "n"), value, { maxKeys: 2 }), {
    nil: undefined,
  });
  const call = fc.record({ tool, args, error: fc.constantFrom(undefined, "boom") }).map((c) => {
    const out: ToolCall = { tool: c.tool };
    if (c.args !== undefined) out.args = c.args;
    if (c.error !== undefined) out.error = c.error;
    return out;
  });
  const weightSets: (Record<string, number> | undefined)[] = [
    undefined,
    { required_call_recall: 0.5 },
    { argument_f1: 1, selection_accuracy: 0 },
  ];
  const weightSet = fc.constantFrom(...weightSets);
  // One scorer, many (required, scored) queries in a row, as evaluateContract makes
  // them: shared gold prefixes, scored subsets of the trace, repeats (cache hits).
  fc.assert(
    fc.property(
      fc.array(call, { maxLength: 7 }),
      fc.array(call, { maxLength: 4 }),
      fc.array(
        fc.record({
          tail: fc.array(call, { maxLength: 4 }),
          prefix: fc.nat({ max: 4 }),
          drop: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      fc.boolean(),
      weightSet,
      (trace, head, queries, strict, raw) => {
        const weights = normalizeWeights(raw);
        const scorer = new CombinationScorer(trace, weights, { strict });
        for (const query of [...queries, ...queries]) {
          const gold = [...head.slice(0, query.prefix), ...query.tail];
          const scored = trace.filter((_, i) => !query.drop[i]);
          const expected = compositeScore(computeMetrics(gold, scored, { strict }), weights);
          if (scorer.score(gold, scored) !== expected) return false;
        }
        return true;
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("evaluateContract() property: the winner's score is the best combination score", () => {
  const option = fc.array(fc.record({ tool: fc.constantFrom("a", "b", "c") }), { maxLength: 2 });
  const group = fc.array(option, { minLength: 1, maxLength: 3 });
  fc.assert(
    fc.property(
      fc.array(group, { maxLength: 3 }),
      fc.array(fc.record({ tool: fc.constantFrom("a", "b", "c", "d") }), { maxLength: 5 }),
      (groups, calls) => {
        const contract = {
          required: [
            { tool: "a" },
            ...groups.map((alternatives, i) => ({ id: `g${i}`, alternatives })),
          ],
          optional: [{ tool: "d" }],
        };
        const result = evaluateContract(contract, calls);
        const combos = contractMetrics(result).alternatives.combinations;
        const best = Math.max(...combos.map((c) => c.score));
        const first = combos.findIndex((c) => c.score >= best - 1e-12);
        return result.score === combos[first]!.score &&
          JSON.stringify(contractMetrics(result).alternatives.chosen) ===
            JSON.stringify(combos[first]!.chosen);
      },
    ),
    { numRuns: 200 },
  );
});

// --- loading ---------------------------------------------------------------

Deno.test("loadContract() reads YAML and JSONC contracts identically to the JSON one", async () => {
  const json = await loadContract(join(DATA, "flights.json"));
  const jsonc = await loadContract(join(DATA, "flights.jsonc"));
  const yaml = await loadContract(join(DATA, "flights.yaml"));
  equal(JSON.stringify(jsonc), JSON.stringify(json));
  equal(JSON.stringify(yaml), JSON.stringify(json));
  deepEqual(json.groups.map((g) => g.options.length), [3]);
  equal(json.minScore, 0.9);
  deepEqual(json.weights, { required_call_recall: 0.3 });
  const trace = JSON.parse(await Deno.readTextFile(join(DATA, "good_run.json")));
  equal(evaluateContract(yaml, trace).score, evaluateContract(json, trace).score);
});

Deno.test("loadContract() names the file, line and column of a syntax error", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const file = join(dir, "broken.json");
    await Deno.writeTextFile(file, '{\n  "required": [\n    {"tool": }\n  ]\n}\n');
    await rejects(loadContract(file), (error: Error) => error.message.startsWith(`${file}:3:`));
    const bad = join(dir, "bad.yaml");
    await Deno.writeTextFile(bad, "required:\n  - tool: a\n    args: {date: {$regexp: x}}\n");
    await rejects(
      loadContract(bad),
      { message: `${bad}: required[0].args.date: unknown operator $regexp (did you mean $regex?)` },
    );
    await rejects(loadContract(join(dir, "missing.json")), /file not found/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contractFromMapping() round-trips through toJSON()", () => {
  const contract = contractFromMapping(
    JSON.parse(Deno.readTextFileSync(join(DATA, "flights.json"))),
  );
  const again = contractFromMapping(JSON.parse(JSON.stringify(contract)));
  equal(JSON.stringify(again), JSON.stringify(contract));
  equal(contractFromMapping(contract), contract);
});

Deno.test("isContract() tells contracts from gold files", () => {
  equal(isContract({ contract_version: 2 }), true);
  equal(isContract({ optional: [] }), true);
  equal(isContract([{ tool: "a" }]), false);
  equal(isContract({ calls: [{ tool: "a" }] }), false);
  equal(isContract(null), false);
});

// --- bad contracts -------------------------------------------------------------

const BAD: [string, unknown, string][] = [
  [
    "a call without tool",
    { required: [{ tool: "a" }, { id: "n", alternatives: [[{ args: { x: 1 } }]] }] },
    "required[1].alternatives[0][0].tool: missing",
  ],
  [
    "an unknown key in a call",
    { required: [{ tool: "a", arguments: {} }] },
    'required[0].arguments: unknown key "arguments" (a call has tool, args, side_effects, description, metadata, actor)',
  ],
  [
    "an unknown top-level key",
    { required: [], minimum_score: 0.5 },
    'minimum_score: unknown key "minimum_score"',
  ],
  [
    "a duplicate group id",
    {
      required: [
        { id: "notify", alternatives: [[]] },
        { tool: "a" },
        { id: "notify", alternatives: [[{ tool: "b" }]] },
      ],
    },
    'required[2].id: duplicate group id "notify"',
  ],
  [
    "a bad regex",
    { required: [{ tool: "a", args: { date: { $regex: "([0-9]+" } } }] },
    'required[0].args.date: invalid $regex "([0-9]+"',
  ],
  [
    "an operator typo",
    {
      required: [{ tool: "a" }, {
        id: "g",
        alternatives: [[{ tool: "b", args: { date: { $regexp: "x" } } }]],
      }],
    },
    "required[1].alternatives[0][0].args.date: unknown operator $regexp (did you mean $regex?)",
  ],
  [
    "min_score 1.5",
    { required: [], min_score: 1.5 },
    "min_score: must be a number in [0, 1], got the number 1.5",
  ],
  [
    "an unknown contract_version",
    { contract_version: 3, required: [] },
    "contract_version: unsupported version 3; this toolscore reads contract_version 2",
  ],
  ["a group without id", { required: [{ alternatives: [[]] }] }, "required[0].id: missing"],
  [
    "an operator as the whole args",
    { required: [{ tool: "a", args: { $any: true } }] },
    "required[0].args: $any cannot stand for the whole arguments object",
  ],
  [
    "a group without options",
    { required: [{ id: "g", alternatives: [] }] },
    "required[0].alternatives: needs at least one option",
  ],
  [
    "an option that is not a list",
    { required: [{ id: "g", alternatives: [{ tool: "a" }] }] },
    "required[0].alternatives[0]: an option is a list of calls",
  ],
  [
    "a call and a group at once",
    { required: [{ tool: "a", id: "g", alternatives: [[]] }] },
    "required[0]: has both tool and id/alternatives",
  ],
  ["bad weights", { required: [], weights: { speed: 1 } }, "weights: unknown weight speed"],
  [
    "negative weights",
    { required: [], weights: { argument_f1: -1 } },
    "weights: weight argument_f1 must be a finite number >= 0",
  ],
  ["required not a list", { required: { tool: "a" } }, "required: must be a list"],
  [
    "a recorded call (a trace given as the contract)",
    { required: [{ tool: "a", args: {}, result: "ok" }] },
    'required[0].result: unknown key "result" (a call has tool, args, side_effects, description, metadata, actor); expected calls carry no outcomes: is this a trace? (eval takes GOLD first, then TRACE)',
  ],
  [
    "args that are a list",
    { required: [{ tool: "a", args: [1] }] },
    "required[0].args: must be an object (or null to leave the arguments unchecked), got an array of 1",
  ],
  [
    "a bad optional call",
    { optional: [{ tool: "" }] },
    "optional[0].tool: tool must be a non-empty string",
  ],
  [
    "a bad forbidden rule",
    { forbidden: [{ tool: "x", because: "y" }] },
    "forbidden[0].because: unknown key because",
  ],
  [
    "a bad operand",
    { required: [{ tool: "a", args: { n: { $type: "int" } } }] },
    'required[0].args.n: unknown $type "int" (did you mean integer?)',
  ],
];

for (const [what, data, message] of BAD) {
  Deno.test(`contractFromMapping() rejects ${what} with the path and the reason`, () => {
    throws(() => contractFromMapping(data), (error: Error) => {
      ok(error instanceof InputError, `${what}: ${error}`);
      ok(error.message.startsWith(message), `${what}: got "${error.message}"`);
      return true;
    });
  });
}

Deno.test("evaluate() and evaluateContract() take expected calls already in the TypeScript shape", () => {
  const declared: ToolCall = { tool: "http_post", sideEffects: { http_ok: true } };
  const actual = [{ tool: "http_post", result: { status: 503 } }];
  for (
    const result of [
      evaluate([declared], actual),
      evaluateContract({ required: [declared] }, actual),
      // What loadGold() returns goes back into evaluate() unchanged.
      evaluate(goldFromJson([{ tool: "http_post", side_effects: { http_ok: true } }]), actual),
    ]
  ) {
    const effects = result.metrics.side_effects as { passed: number; total: number };
    deepEqual([effects.passed, effects.total], [0, 1]);
  }
});

Deno.test("contractFromMapping() rejects a non-object", () => {
  throws(() => contractFromMapping([{ tool: "a" }]), /a contract is an object/);
});

// --- JSON Schema ------------------------------------------------------------------

Deno.test("CONTRACT_SCHEMA accepts the test contracts and rejects the bad ones", () => {
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(CONTRACT_SCHEMA);
  for (const file of ["flights.json", "flights.jsonc", "flights.yaml"]) {
    const data = parseDocument(Deno.readTextFileSync(join(DATA, file)), file);
    ok(validate(data), `${file}: ${JSON.stringify(validate.errors)}`);
  }
  // The keys contractFromMapping accepts besides the design's are accepted by the schema too.
  const described = {
    $schema: "x",
    description: "d",
    required: [{
      id: "g",
      description: "e",
      alternatives: [[{ tool: "a", description: "f", metadata: {} }]],
    }],
  };
  contractFromMapping(described);
  ok(validate(described), JSON.stringify(validate.errors));
  const rejectedBySchema = BAD.filter(([what]) =>
    !["a duplicate group id", "a bad regex"].includes(what)
  );
  for (const [what, data] of rejectedBySchema) ok(!validate(data), `schema accepted ${what}`);
});

// --- contract init -------------------------------------------------------------

interface Captured extends CliIO {
  out: string;
  err: string;
}

function captureIO(stdin = ""): Captured {
  const io: Captured = {
    out: "",
    err: "",
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    color: false,
    progress: false,
    stdin: () => Promise.resolve(stdin),
  };
  return io;
}

Deno.test("contract init writes a contract that scores its own trace 1.0", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const out = join(dir, "contract.json");
    const io = captureIO();
    equal(await runCli(["contract", "init", join(DATA, "good_run.json"), "-o", out], io), 0);
    ok(io.err.includes("4 required calls;"), io.err);
    const contract = await loadContract(out);
    equal(contract.required.length, 4);
    deepEqual(JSON.parse(await Deno.readTextFile(out)).required[0], {
      tool: "get_weather",
      args: { city: "New York" },
    });
    const trace = JSON.parse(await Deno.readTextFile(join(DATA, "good_run.json")));
    equal(evaluateContract(contract, trace).score, 1);
    // No temporary file is left beside it.
    deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["contract.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contract init prints to stdout without -o and writes YAML for .yaml", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const io = captureIO();
    equal(await runCli(["contract", "init", join(DATA, "good_run.json")], io), 0);
    equal(JSON.parse(io.out).contract_version, 2);
    const yaml = join(dir, "c.yaml");
    equal(
      await runCli(["contract", "init", join(DATA, "good_run.json"), "-o", yaml], captureIO()),
      0,
    );
    equal(
      JSON.stringify(await loadContract(yaml)),
      JSON.stringify(contractFromMapping(JSON.parse(io.out))),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contract init never overwrites an existing file without --force, nor on failure", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const out = join(dir, "contract.json");
    await Deno.writeTextFile(out, "hand-edited\n");
    const io = captureIO();
    equal(await runCli(["contract", "init", join(DATA, "good_run.json"), "-o", out], io), 2);
    ok(io.err.includes("already exists; choose another path or pass --force"));
    equal(await Deno.readTextFile(out), "hand-edited\n");
    // A trace that cannot be read fails before anything is written, even with --force.
    const broken = join(dir, "broken.json");
    await Deno.writeTextFile(broken, "{not json");
    equal(await runCli(["contract", "init", broken, "-o", out, "--force"], captureIO()), 2);
    equal(await Deno.readTextFile(out), "hand-edited\n");
    // --force replaces it.
    equal(
      await runCli(
        ["contract", "init", join(DATA, "good_run.json"), "-o", out, "--force"],
        captureIO(),
      ),
      0,
    );
    equal(JSON.parse(await Deno.readTextFile(out)).contract_version, 2);
    deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "broken.json",
      "contract.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contract init into a missing folder creates it (issue 32), and fails in one line under a file", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const io = captureIO();
    const out = join(dir, "nope", "contract.json");
    equal(await runCli(["contract", "init", join(DATA, "good_run.json"), "-o", out], io), 0);
    ok(Deno.statSync(out).isFile);
    Deno.writeTextFileSync(join(dir, "file"), "x");
    const under = captureIO();
    const blocked = join(dir, "file", "contract.json");
    equal(await runCli(["contract", "init", join(DATA, "good_run.json"), "-o", blocked], under), 2);
    equal(under.err.split("\n").length, 2, under.err);
    equal(
      under.err,
      `toolscore: ${join(dir, "file")}: -o: is a file, not a folder; choose another path\n`,
    );
    deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["file", "nope"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contract init keeps credentials out of the contract and escapes $ keys as $$", async () => {
  const key = "ghp_" + "aB3dE6gH9jK2".repeat(3);
  const trace = JSON.stringify([
    { tool: "clone", args: { token: key, repo: "a/b" } },
    { tool: "query", args: { filter: { $gt: 3 } } },
  ]);
  const io = captureIO(trace);
  equal(await runCli(["contract", "init", "-"], io), 0);
  ok(!io.out.includes(key));
  ok(
    io.err.includes(
      'warning: 1 credential in the trace\'s arguments was written as {"$any": true} (required[0].args.token)',
    ),
    io.err,
  );
  const document = JSON.parse(io.out);
  deepEqual(document.required, [
    {
      tool: "clone",
      args: { token: { $any: true }, repo: "a/b" },
      description: 'required[0].args.token held a credential, written as {"$any": true}; ' +
        "write the value to check (from a secret store, not in clear)",
    },
    { tool: "query", args: { filter: { $$gt: 3 } } },
  ]);
  equal(evaluateContract(document, JSON.parse(trace)).score, 1);
});

Deno.test("contract init notes failed calls, unparsed arguments and an empty trace", async () => {
  const trace = JSON.stringify([
    { tool: "search", args: { q: "x" }, result: "ok" },
    { tool: "deploy", args: { app: "web" }, error: "HTTP 503" },
    { tool: "lookup", args: {}, raw_args: '{"id": ', args_error: "unexpected end" },
  ]);
  const io = captureIO(trace);
  equal(await runCli(["contract", "init", "-"], io), 0);
  equal(
    io.err,
    "toolscore: note: 1 call failed in this trace (#2 deploy) yet is required; " +
      "check that the trace is a good run\n" +
      "toolscore: note: the arguments of #3 lookup did not parse, so they are required " +
      "without an argument check\n",
  );
  deepEqual(JSON.parse(io.out).required[2], { tool: "lookup" });
  const empty = captureIO("[]");
  equal(await runCli(["contract", "init", "-"], empty), 0);
  equal(empty.err, "toolscore: note: the trace has no tool calls, so the contract requires none\n");
  const clean = captureIO(JSON.stringify([{ tool: "search", args: { q: "x" }, result: "ok" }]));
  equal(await runCli(["contract", "init", "-"], clean), 0);
  equal(clean.err, "");
});

Deno.test("contract init rejects bad command lines", async () => {
  for (
    const args of [["contract"], ["contract", "bogus"], ["contract", "init"], [
      "contract",
      "init",
      "a",
      "b",
    ]]
  ) {
    const io = captureIO();
    equal(await runCli(args, io), 2, args.join(" "));
    ok(io.err.startsWith("toolscore: "), io.err);
  }
  const help = captureIO();
  equal(await runCli(["contract", "--help"], help), 0);
  ok(help.out.includes("toolscore contract init TRACE"));
});

Deno.test("evaluateContract() names the tools of each chosen option, [] for a skipped step", () => {
  const contract = {
    required: [
      { tool: "search" },
      { id: "notify", alternatives: [[{ tool: "send_email" }], [{ tool: "send_sms" }], []] },
    ],
  };
  const sms = evaluateContract(contract, [{ tool: "search" }, { tool: "send_sms" }]);
  const skipped = evaluateContract(contract, [{ tool: "search" }]);
  const tools = (r: typeof sms) =>
    (r.metrics.contract_metrics as { alternatives: { chosen_tools: Record<string, string[]> } })
      .alternatives.chosen_tools;
  deepEqual(tools(sms), { notify: ["send_sms"] });
  deepEqual(tools(skipped), { notify: [] });
});
