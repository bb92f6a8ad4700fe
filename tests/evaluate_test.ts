import assert from "node:assert/strict";
import fc from "fast-check";
import { evaluate, type EvaluateOptions } from "../lib/evaluate/evaluate.ts";
import { pairCalls } from "../lib/scoring/pairing.ts";
import { normalizeWeights } from "../lib/scoring/score.ts";
import { InputError } from "../lib/base/errors.ts";

const close = (actual: number | null, expected: number, message?: string) =>
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= 1e-9,
    `${message ?? ""} expected ${expected}, got ${actual}`,
  );

interface Row {
  name: string;
  expected: unknown[];
  actual: unknown[];
  score: number;
  grade: string;
  f1: number;
  options?: EvaluateOptions;
  extra?: Record<string, number>;
}

// scoring.md §3 reference values.
const ROWS: Row[] = [
  {
    name: "a city spelled differently costs half the argument F1",
    expected: [{ tool: "get_weather", args: { city: "NYC" } }, {
      tool: "send_email",
      args: { to: "u" },
    }],
    actual: [{ tool: "get_weather", args: { city: "New York" } }, {
      tool: "send_email",
      args: { to: "u" },
    }],
    score: 0.85,
    grade: "B",
    f1: 0.5,
  },
  {
    name: "an exact call scores 1",
    expected: [{ tool: "search", args: { q: "x" } }],
    actual: [{ tool: "search", args: { q: "x" } }],
    score: 1,
    grade: "A",
    f1: 1,
  },
  {
    name: "unchecked args match any arguments",
    expected: [{ tool: "search" }],
    actual: [{ tool: "search", args: { q: "python" } }],
    score: 1,
    grade: "A",
    f1: 1,
  },
  {
    name: "{} expects zero arguments",
    expected: [{ tool: "search", args: {} }],
    actual: [{ tool: "search", args: { q: "python" } }],
    score: 0.7,
    grade: "C",
    f1: 0,
  },
  {
    name: "a missed call halves recall and sequence",
    expected: [{ tool: "a", args: { x: 1 } }, { tool: "b", args: { y: 2 } }],
    actual: [{ tool: "b", args: { y: 2 } }],
    score: 0.8,
    grade: "B",
    f1: 2 / 3,
    extra: { argument_precision: 1, argument_recall: 0.5, sequence_accuracy: 0.5 },
  },
  {
    name: "swapped calls of one tool pair by arguments",
    expected: [{ tool: "s", args: { q: "a" } }, { tool: "s", args: { q: "b" } }],
    actual: [{ tool: "s", args: { q: "b" } }, { tool: "s", args: { q: "a" } }],
    score: 1,
    grade: "A",
    f1: 1,
  },
  {
    name: "a repeated call is redundant",
    expected: [{ tool: "s", args: { q: "a" } }],
    actual: [{ tool: "s", args: { q: "a" } }, { tool: "s", args: { q: "a" } }],
    score: 0.85,
    grade: "B",
    f1: 1,
    extra: { redundant_rate: 0.5, sequence_accuracy: 0.5 },
  },
  {
    name: "the wrong tool scores 0",
    expected: [{ tool: "a", args: { x: 1 } }],
    actual: [{ tool: "b", args: { x: 1 } }],
    score: 0,
    grade: "F",
    f1: 0,
  },
  {
    name: "no calls score only the redundancy part",
    expected: [{ tool: "a", args: { x: 1 } }],
    actual: [],
    score: 0.1,
    grade: "F",
    f1: 0,
  },
  {
    name: "1 and 1.0 are equal (lenient)",
    expected: [{ tool: "a", args: { x: 1 } }],
    actual: [{ tool: "a", args: { x: 1.0 } }],
    score: 1,
    grade: "A",
    f1: 1,
  },
  {
    name: "1 and 1.0 are equal (strict)",
    expected: [{ tool: "a", args: { x: 1 } }],
    actual: [{ tool: "a", args: { x: 1.0 } }],
    score: 1,
    grade: "A",
    f1: 1,
    options: { strict: true },
  },
  {
    name: "surrounding whitespace is ignored (lenient)",
    expected: [{ tool: "a", args: { x: "NYC" } }],
    actual: [{ tool: "a", args: { x: " NYC " } }],
    score: 1,
    grade: "A",
    f1: 1,
  },
  {
    name: "surrounding whitespace counts (strict)",
    expected: [{ tool: "a", args: { x: "NYC" } }],
    actual: [{ tool: "a", args: { x: " NYC " } }],
    score: 0.7,
    grade: "C",
    f1: 0,
    options: { strict: true },
  },
  {
    name: "nothing expected and nothing called scores 1",
    expected: [],
    actual: [],
    score: 1,
    grade: "A",
    f1: 1,
  },
];

for (const row of ROWS) {
  Deno.test(`evaluate() reference: ${row.name}`, () => {
    const result = evaluate(row.expected, row.actual, row.options);
    close(result.score, row.score, "score");
    assert.equal(result.grade, row.grade);
    close(result.argumentF1, row.f1, "argument_f1");
    for (const [key, value] of Object.entries(row.extra ?? {})) {
      close(result.metrics[key] as number, value, key);
    }
  });
}

Deno.test("evaluate() edge values when only one side is empty", () => {
  const onlyActual = evaluate([], [{ tool: "a" }]);
  assert.equal(onlyActual.metrics.selection_accuracy, 0);
  assert.equal(onlyActual.metrics.invocation_accuracy, 0);
  assert.equal(onlyActual.metrics.tool_correctness, 0);
  assert.equal(onlyActual.metrics.trajectory_accuracy, 0);
  assert.equal(onlyActual.metrics.required_call_recall, null);
  const onlyGold = evaluate([{ tool: "a" }], []);
  assert.equal(onlyGold.metrics.trajectory_accuracy, 0);
  assert.equal(onlyGold.metrics.required_call_recall, 0);
  const none = evaluate([], []);
  assert.equal(none.metrics.invocation_accuracy, 1);
  assert.equal(none.metrics.tool_correctness, 1);
  assert.equal(none.metrics.trajectory_accuracy, 1);
  assert.equal(none.metrics.error_rate, null);
});

Deno.test("evaluate() counts failures, retries and identical calls", () => {
  const result = evaluate([{ tool: "deploy", args: { env: "prod" } }], [
    { tool: "deploy", args: { env: "prod" }, error: "timeout" },
    { tool: "deploy", args: { env: "prod" }, result: "ok" },
  ]);
  assert.equal(result.metrics.error_count, 1);
  assert.equal(result.metrics.error_rate, 0.5);
  assert.equal(result.metrics.retry_after_error_count, 1);
  assert.equal(result.metrics.identical_rate, 0.5);
  assert.equal(result.metrics.required_call_recall, 1);
});

Deno.test("evaluate() keeps unknown durations and costs unknown", () => {
  const result = evaluate([{ tool: "a" }], [{ tool: "a" }, {
    tool: "a",
    duration_s: 0.5,
    cost_usd: 0,
  }]);
  assert.equal(result.metrics.latency.total, 0.5);
  assert.equal(result.metrics.latency.known, 1);
  assert.equal(result.metrics.cost.total, 0);
  const none = evaluate([{ tool: "a" }], [{ tool: "a" }]);
  assert.equal(none.metrics.latency.total, null);
  assert.equal(none.metrics.cost.mean, null);
  assert.equal(none.metrics.error_rate, null);
});

Deno.test("evaluate() counts unparsable arguments as wrong, never as {}", () => {
  const result = evaluate([{ tool: "a", args: {} }], [{
    tool: "a",
    raw_args: "{oops",
    args_error: "bad JSON",
    args: {},
  }]);
  assert.equal(result.argumentF1, 0);
});

Deno.test("evaluate() checks metadata.schema", () => {
  const schema = { type: "object", required: ["q"], properties: { q: { type: "string" } } };
  const result = evaluate([{ tool: "s", metadata: { schema } }], [
    { tool: "s", args: { q: "x" } },
    { tool: "s", args: { q: 3 } },
  ]);
  assert.equal(result.metrics.schema_compliance, 0.5);
});

Deno.test("evaluate() renormalizes weights and rejects bad ones", () => {
  const result = evaluate([{ tool: "a" }], [{ tool: "b" }], { weights: { redundant_rate: 0 } });
  assert.equal(result.score, 0);
  assert.throws(() => normalizeWeights({ speed: 1 }), InputError);
  assert.throws(() => normalizeWeights({ argument_f1: -1 }), /finite number >= 0/);
  assert.throws(
    () =>
      normalizeWeights({
        selection_accuracy: 0,
        argument_f1: 0,
        sequence_accuracy: 0,
        redundant_rate: 0,
      }),
    /sum to 0/,
  );
  assert.throws(() => normalizeWeights({ argument_f1: Infinity }), /finite/);
});

Deno.test("evaluate() uses $ operators in expected args", () => {
  const result = evaluate(
    [{ tool: "book", args: { id: { $regex: "^FL-\\d+$" }, seats: { $approx: 2 } } }],
    [{ tool: "book", args: { id: "FL-123", seats: 2.0000001 } }],
  );
  assert.equal(result.argumentF1, 1);
});

Deno.test("evaluate() rejects a gold item without tool, naming its index", () => {
  assert.throws(() => evaluate([{ tool: "a" }, { args: {} }], []), /\[1\]\.tool: missing/);
});

Deno.test("evaluate() toJSON() is snake_case with operator objects", () => {
  const result = evaluate([{ tool: "a", args: { x: { $any: true } } }], [
    { tool: "a", args: { x: 1 }, duration_s: 1, is_error: false },
  ]);
  const json = JSON.parse(JSON.stringify(result));
  assert.equal(json.schema_version, "1");
  assert.deepEqual(json.calls.expected, [{ tool: "a", args: { x: { $any: true } } }]);
  assert.deepEqual(json.calls.actual, [{
    tool: "a",
    args: { x: 1 },
    duration_s: 1,
    is_error: false,
  }]);
  assert.equal(json.final_answer, null);
  assert.equal(json.final_answer_source, null);
});

Deno.test("evaluate() marks an external final answer", () => {
  const result = evaluate([{ tool: "a" }], {
    format: "toolscore",
    calls: [{ tool: "a" }],
    final_answer: "t",
  }, {
    finalAnswer: "x",
  });
  assert.equal(result.finalAnswer, "x");
  assert.equal(result.finalAnswerSource, "external");
  const own = evaluate([{ tool: "a" }], {
    format: "toolscore",
    calls: [{ tool: "a" }],
    final_answer: "t",
  });
  assert.equal(own.finalAnswerSource, "trace");
});

Deno.test("pairCalls() pairs a repeated tool by arguments, then by position", () => {
  const gold = [{ tool: "s", args: { q: "a" } }, { tool: "s", args: { q: "b" } }];
  const actual = [
    { tool: "s", args: { q: "b" } },
    { tool: "s", args: { q: "z" } },
    { tool: "s", args: { q: "a" } },
  ];
  assert.deepEqual(pairCalls(gold, actual).map((p) => [p.expected, p.actual]), [[0, 2], [1, 0]]);
  // Fewer actual calls than expected: the best one is paired, the other is a miss.
  assert.deepEqual(
    pairCalls(gold, [{ tool: "s", args: { q: "b" } }]).map((p) => [p.expected, p.actual]),
    [[1, 0]],
  );
  // Equal matches: fewer keys sent wins, then the nearest position.
  const ties = pairCalls([{ tool: "s", args: { q: "a" } }], [
    { tool: "s", args: { q: "a", extra: 1 } },
    { tool: "s", args: { q: "a" } },
  ]);
  assert.deepEqual(ties.map((p) => p.actual), [1]);
  const near = pairCalls([{ tool: "x" }, { tool: "s" }], [{ tool: "s" }, { tool: "s" }]);
  assert.deepEqual(near.map((p) => p.actual), [1]);
});

Deno.test("pairCalls() finds the optimum a greedy pass misses", () => {
  // Greedy by position would pair gold 0 with actual 0 (1 key) and lose gold 1's 2 keys.
  const gold = [{ tool: "t", args: { a: 1 } }, { tool: "t", args: { a: 1, b: 2 } }];
  const actual = [{ tool: "t", args: { a: 1, b: 2 } }, { tool: "t", args: { a: 1 } }];
  const pairs = pairCalls(gold, actual);
  assert.deepEqual(pairs.map((p) => [p.expected, p.actual, p.matchedKeys]), [[0, 1, 1], [1, 0, 2]]);
});

Deno.test("pairCalls() agrees with brute force on small cases (property)", () => {
  const call = fc.record({
    tool: fc.constantFrom("a", "b"),
    args: fc.record({ x: fc.integer({ min: 0, max: 2 }), y: fc.integer({ min: 0, max: 2 }) }, {
      requiredKeys: [],
    }),
  });
  fc.assert(
    fc.property(
      fc.array(call, { maxLength: 5 }),
      fc.array(call, { maxLength: 5 }),
      (gold, actual) => {
        const pairs = pairCalls(gold, actual);
        const total = pairs.reduce((s, p) => s + p.matchedKeys, 0);
        assert.equal(total, bruteForceBest(gold, actual));
        for (const tool of ["a", "b"]) {
          const g = gold.filter((c) => c.tool === tool).length;
          const t = actual.filter((c) => c.tool === tool).length;
          assert.equal(pairs.filter((p) => gold[p.expected]!.tool === tool).length, Math.min(g, t));
        }
      },
    ),
  );
});

type SimpleCall = { tool: string; args: Record<string, number> };

function bruteForceBest(gold: SimpleCall[], actual: SimpleCall[]): number {
  const keys = (g: SimpleCall, a: SimpleCall) =>
    Object.keys(g.args).filter((k) => k in a.args && a.args[k] === g.args[k]).length;
  let best = 0;
  const used = new Set<number>();
  const walk = (i: number, sum: number) => {
    if (i === gold.length) {
      best = Math.max(best, sum);
      return;
    }
    const g = gold[i]!;
    // Skipping never helps (keys >= 0), so the best partial matching's total is the best
    // full matching's total.
    walk(i + 1, sum);
    actual.forEach((a, j) => {
      if (used.has(j) || a.tool !== g.tool) return;
      used.add(j);
      walk(i + 1, sum + keys(g, a));
      used.delete(j);
    });
  };
  walk(0, 0);
  return best;
}

Deno.test("pairCalls() prefers fewer keys sent when an expected call is unchecked", () => {
  const pairs = pairCalls([{ tool: "s", args: { q: "a" } }, { tool: "s" }], [
    { tool: "s", args: { q: "a", x: 1, y: 2 } },
    { tool: "s", args: { q: "a" } },
  ]);
  assert.deepEqual(pairs.map((p) => [p.expected, p.actual]), [[0, 1], [1, 0]]);
});

Deno.test("pairCalls() is optimal on (matched keys, keys sent, distance) (property)", () => {
  const call = fc.record({
    tool: fc.constantFrom("a", "b"),
    args: fc.option(
      fc.record({ x: fc.integer({ min: 0, max: 1 }), y: fc.integer({ min: 0, max: 1 }) }, {
        requiredKeys: [],
      }),
      { nil: undefined },
    ),
  });
  fc.assert(
    fc.property(
      fc.array(call, { maxLength: 6 }),
      fc.array(call, { maxLength: 6 }),
      (gold, actual) => {
        const ours = objective(
          gold,
          actual,
          pairCalls(gold, actual).map((p) => [p.expected, p.actual]),
        );
        assert.deepEqual(ours, bestObjective(gold, actual));
      },
    ),
    { numRuns: 300 },
  );
});

type LooseCall = { tool: string; args?: Record<string, number> };

function objective(gold: LooseCall[], actual: LooseCall[], pairs: number[][]): number[] {
  let matched = 0;
  let sent = 0;
  let distance = 0;
  for (const [i, j] of pairs) {
    const g = gold[i!]!;
    const a = actual[j!]!;
    if (g.args !== undefined) {
      matched += Object.keys(g.args).filter((k) =>
        a.args && k in a.args && a.args[k] === g.args![k]
      ).length;
      sent += Object.keys(a.args ?? {}).length;
    }
    distance += Math.abs(i! - j!);
  }
  return [matched, -sent, -distance];
}

function bestObjective(gold: LooseCall[], actual: LooseCall[]): number[] {
  let best: number[] | undefined;
  const better = (x: number[], y: number[]) =>
    x[0]! !== y[0]! ? x[0]! > y[0]! : x[1]! !== y[1]! ? x[1]! > y[1]! : x[2]! > y[2]!;
  const tools = [...new Set(gold.map((c) => c.tool))];
  const perTool = tools.map((tool) => {
    const gi = gold.flatMap((c, i) => (c.tool === tool ? [i] : []));
    const ai = actual.flatMap((c, j) => (c.tool === tool ? [j] : []));
    const out: number[][][] = [];
    const k = Math.min(gi.length, ai.length);
    const used = new Set<number>();
    const walk = (x: number, chosen: number[][]) => {
      if (chosen.length === k) return void out.push([...chosen]);
      if (x === gi.length) return;
      if (gi.length - x > k - chosen.length) walk(x + 1, chosen); // skip this gold call
      for (const j of ai) {
        if (used.has(j)) continue;
        used.add(j);
        walk(x + 1, [...chosen, [gi[x]!, j]]);
        used.delete(j);
      }
    };
    walk(0, []);
    return out;
  });
  const combine = (t: number, acc: number[][]) => {
    if (t === perTool.length) {
      const value = objective(gold, actual, acc);
      if (!best || better(value, best)) best = value;
      return;
    }
    for (const option of perTool[t]!) combine(t + 1, [...acc, ...option]);
  };
  combine(0, []);
  return best ?? [0, -0, -0];
}
