// compareRuns() with paired tests and clustered intervals, on the README's worked examples
// (testdata/runs/paired_example.jsonl and clustered_example.jsonl, made by
// testdata/runs/generate_examples.ts) and on small hand-made designs.
import assert from "node:assert/strict";
import { compareRuns } from "../lib/stats/compare.ts";
import { evaluateProtocol } from "../lib/stats/evaluate_protocol.ts";
import { mcnemarExact } from "../lib/stats/mcnemar.ts";
import { loadProtocol, protocolFromJson } from "../lib/stats/protocol.ts";
import { loadRuns, Run, runFromRow } from "../lib/stats/runs.ts";
import { InputError } from "../lib/base/errors.ts";
import { runsFromTraces } from "../lib/stats/traces.ts";

const PAIRED = "testdata/runs/paired_example.jsonl";
const CLUSTERED = "testdata/runs/clustered_example.jsonl";

/** Runs of one variant: per task, the outcomes by repeat ("1" pass, "0" fail); repeat numbers optional. */
function design(variant: string, tasks: string[], repeats = true): Run[] {
  return tasks.flatMap((outcomes, task) =>
    [...outcomes].map((bit, repeat) =>
      new Run(variant, `t${task}`, bit === "1" ? "pass" : "fail", {
        repeat: repeats ? repeat : null,
      })
    )
  );
}

Deno.test("compareRuns() calls B better on the paired example that pooled Fisher cannot tell apart", async () => {
  const runs = await loadRuns([PAIRED]);
  const comparison = compareRuns(runs);
  const pair = comparison.pairs[0]!;
  assert.equal(pair.test, "mcnemar");
  assert.deepEqual(pair.discordant, [1, 13]);
  assert.equal(pair.pairedTasks, 20);
  assert.ok(Math.abs(pair.pairedPValue! - 30 / 16384) < 1e-15); // 2 · (1 + 14) / 2^14
  assert.equal(pair.pairedPValue, mcnemarExact(1, 13));
  assert.ok(pair.pValue > 0.1); // pooled Fisher, as the API reference defines p_value
  assert.equal(pair.overlap, true);
  assert.equal(pair.distinguishable, true);
  assert.equal(
    pair.verdict,
    "B beats A: 60/100 = 0.60 [0.50, 0.69] vs 48/100 = 0.48 [0.38, 0.58], McNemar p = 0.0018 over 100 matched runs (only B passed 13, only A 1); pooled Fisher p = 0.12",
  );
  assert.equal(
    pair.testReason,
    "McNemar's exact test decided, on these tasks (generalize: runs): the runs match one to one by (task, repeat), 100 pairs on 20 tasks; on tasks like these, the sign-flip test over the 20 tasks gives p = 0.0018 (if the tasks are a random sample of them)",
  );
  const fisher = compareRuns(runs, { test: "fisher" }).pairs[0]!;
  assert.equal(fisher.distinguishable, false);
  assert.equal(fisher.pairedPValue, null);
  assert.equal(
    fisher.verdict,
    "A and B are not distinguishable: 48/100 vs 60/100, p = 0.12, intervals overlap",
  );
});

Deno.test("compareRuns() does not call the clustered example that Wilson and Fisher find decisive", async () => {
  const runs = await loadRuns([CLUSTERED]);
  const comparison = compareRuns(runs);
  const [a, b] = comparison.variants;
  // All-or-nothing tasks: 100 runs carry the information of 20 tasks.
  assert.ok(Math.abs(a!.designEffect! - 100 / 19) < 1e-9, String(a!.designEffect));
  assert.ok(
    a!.clusteredInterval![1] - a!.clusteredInterval![0] > 2 * (a!.interval[1] - a!.interval[0]),
  );
  assert.ok(a!.clusteredInterval![1] > b!.clusteredInterval![0]); // the honest intervals overlap
  const pair = comparison.pairs[0]!;
  assert.equal(pair.test, "sign-flip");
  assert.equal(pair.pairedPValue, 112 / 1024); // 8 tasks won vs 2: |2k − 10| ≥ 6 of 2^10
  assert.equal(pair.distinguishable, false);
  assert.ok(pair.pValue < 1e-4);
  assert.equal(
    pair.verdict,
    "A and B are not distinguishable: 35/100 vs 65/100, sign-flip p = 0.11 over 20 tasks ≥ alpha = 0.05; pooled Fisher p = 3.6e-5",
  );
  // The old rule is fooled: the Wilson intervals do not overlap and Fisher's p is tiny.
  const fisher = compareRuns(runs, { test: "fisher" }).pairs[0]!;
  assert.equal(fisher.distinguishable, true);
  assert.match(fisher.verdict, /^B beats A: 65\/100 = 0\.65 \[0\.55, 0\.74\] vs 35\/100 = 0\.35/);
});

Deno.test("compareRuns() falls back to Fisher when no paired design can reach alpha, and says why", () => {
  const runs = [
    ...Array.from({ length: 100 }, (_, i) => new Run("a", "t", i < 90 ? "pass" : "fail")),
    ...Array.from({ length: 100 }, (_, i) => new Run("b", "t", i < 50 ? "pass" : "fail")),
  ];
  const pair = compareRuns(runs).pairs[0]!;
  assert.equal(pair.test, "fisher");
  assert.equal(pair.distinguishable, true);
  assert.equal(
    pair.testReason,
    "Fisher's exact test on the pooled runs and the Wilson intervals decided: a sign-flip test over 1 task cannot reach p < 0.05 (smallest possible p = 1)",
  );
  // Asked for, the paired test applies anyway, and one task can show nothing.
  const forced = compareRuns(runs, { test: "paired" }).pairs[0]!;
  assert.equal(forced.test, "sign-flip");
  assert.equal(forced.pairedPValue, 1);
  assert.equal(forced.distinguishable, false);
  // Four matched pairs: McNemar's smallest p is 2/16 = 0.125.
  const few = compareRuns([...design("a", ["0000"]), ...design("b", ["1111"])]).pairs[0]!;
  assert.equal(few.test, "fisher");
  assert.match(
    few.testReason,
    /McNemar's test over 4 matched runs cannot reach p < 0.05 \(smallest possible p = 0.13\)/,
  );
});

Deno.test("compareRuns() pairs only the tasks both variants ran, with a note", () => {
  const a = design("a", ["11110", "11000", "10000", "11100", "00000", "11111", "10100"], false);
  const b = design(
    "b",
    ["11111", "11100", "11000", "11110", "10000", "11111", "11110", "1"],
    false,
  );
  const extra = new Run("a", "solo", "pass");
  const comparison = compareRuns([...a, extra, ...b], { minN: 5 });
  const pair = comparison.pairs[0]!;
  assert.equal(pair.test, "sign-flip");
  assert.equal(pair.pairedTasks, 7);
  assert.match(pair.testReason, /7 tasks run by both.*; 2 tasks run by only one variant left out/);
  assert.deepEqual(comparison.notes.filter((note) => note.startsWith("a vs b")), [
    "a vs b: 1 task only a ran (solo) left out of the paired test",
    "a vs b: 1 task only b ran (t7) left out of the paired test",
  ]);
  assert.equal(pair.distinguishable, true); // 6 tasks better, 1 tied: p = 2/64
  assert.equal(pair.pairedPValue, 2 / 64);
});

Deno.test("compareRuns() with test paired and no shared task cannot call a difference", () => {
  const runs = [
    ...design("a", ["1111111111"]),
    ...design("b", ["0000000000"]).map((run) =>
      new Run("b", "other", run.outcome, { repeat: run.repeat })
    ),
  ];
  const pair = compareRuns(runs, { test: "paired" }).pairs[0]!;
  assert.equal(pair.distinguishable, false);
  assert.equal(pair.test, "fisher");
  assert.equal(
    pair.verdict,
    "a and b are not distinguishable by a paired test: no task was run by both (10/10 vs 0/10, pooled Fisher p = 1.1e-5)",
  );
  assert.equal(compareRuns(runs).pairs[0]!.distinguishable, true); // auto: Fisher decides
});

Deno.test("compareRuns() matches runs by (task, repeat) only when every shared task's repeats agree", () => {
  const tasks = ["11110", "11000", "10000", "11100", "00000", "11111", "10100", "11000"];
  const better = ["11111", "11100", "11000", "11110", "10000", "11111", "11110", "11100"];
  assert.equal(
    compareRuns([...design("a", tasks), ...design("b", better)]).pairs[0]!.test,
    "mcnemar",
  );
  // One variant without repeat numbers: no one-to-one match, so the sign-flip test.
  const unnumbered = compareRuns([...design("a", tasks), ...design("b", better, false)]);
  assert.equal(unnumbered.pairs[0]!.test, "sign-flip");
  // A repeat number used twice in a task also breaks the match.
  const twice = [
    ...design("a", tasks),
    ...design("b", better),
    new Run("b", "t0", "pass", { repeat: 0 }),
  ];
  assert.equal(compareRuns(twice).pairs[0]!.test, "sign-flip");
});

Deno.test("compareRuns() warns when McNemar calls what the tasks do not support", () => {
  // All-or-nothing tasks with matched repeats: McNemar counts 50 discordant runs as independent.
  const a = Array.from({ length: 20 }, (_, i) => i < 7 ? "11111" : "00000");
  const b = Array.from({ length: 20 }, (_, i) => (i < 5 || (i >= 7 && i < 15)) ? "11111" : "00000");
  const pair = compareRuns([...design("a", a), ...design("b", b)]).pairs[0]!;
  assert.equal(pair.test, "mcnemar");
  assert.equal(pair.distinguishable, true);
  assert.match(
    pair.testReason,
    /; caution: the sign-flip test over the 20 tasks gives p = 0\.11 — McNemar counts matched runs as independent, and runs of one task may be alike$/,
  );
});

Deno.test("compareRuns() JSON carries the clustered interval and the paired fields in snake_case", async () => {
  const json = JSON.parse(JSON.stringify(compareRuns(await loadRuns([PAIRED]))));
  assert.equal(json.test, "auto");
  const a = json.variants[0];
  assert.equal(a.tasks, 20);
  assert.equal(a.clustered_interval.length, 2);
  assert.equal(typeof a.clustered_se, "number");
  assert.equal(typeof a.design_effect, "number");
  const pair = json.pairs[0];
  assert.equal(pair.test, "mcnemar");
  assert.deepEqual(pair.discordant, [1, 13]);
  assert.equal(pair.paired_tasks, 20);
  assert.ok(Math.abs(pair.paired_p_value - 30 / 16384) < 1e-15);
  assert.match(pair.test_reason, /^McNemar's exact test decided/);
  assert.throws(
    () => compareRuns([], { test: "bayes" as "auto" }),
    (error) =>
      error instanceof InputError &&
      /^test: unknown test "bayes"; use auto, paired, fisher$/.test(error.message),
  );
});

Deno.test("evaluateProtocol() decides a rule by its declared test; without one it stays Fisher", async () => {
  const runs = await loadRuns([PAIRED]);
  const protocol = await loadProtocol("testdata/runs/protocol_paired.yaml");
  const comparison = compareRuns(runs, { baseline: "A", minN: 50 });
  const paired = evaluateProtocol(protocol, comparison);
  assert.equal(paired.decision, "adopt");
  assert.equal(paired.rules[0]!.test, "mcnemar");
  assert.ok(Math.abs(paired.rules[0]!.pValue! - 30 / 16384) < 1e-15);
  assert.equal(
    paired.rules[0]!.detail,
    "pass_rate: B 0.600 vs A 0.480, better; mcnemar p = 0.0018 over 20 tasks, alpha = 0.05; pooled Fisher p = 0.12",
  );
  const { test: _dropped, ...plain } = protocol.rules[0]!;
  const fisher = evaluateProtocol({ ...protocol, rules: [plain] }, comparison);
  assert.equal(fisher.decision, "reject");
  assert.equal(fisher.rules[0]!.test, "fisher");
  assert.match(
    fisher.rules[0]!.detail,
    /not shown better; p = 0\.12, alpha = 0\.05, intervals overlap$/,
  );
});

Deno.test("protocolFromJson() checks a rule's test", () => {
  const base = { protocol_version: 1, baseline: "a", candidate: "b" };
  const rule = { id: "r", metric: "pass_rate", expect: "candidate_better" };
  assert.equal(
    protocolFromJson({ ...base, rules: [{ ...rule, test: "auto" }] }).rules[0]!.test,
    "auto",
  );
  assert.throws(
    () => protocolFromJson({ ...base, rules: [{ ...rule, test: "t-test" }] }),
    /rules\[0\]\.test: unknown test "t-test"; use auto, paired, fisher/,
  );
  assert.throws(
    () =>
      protocolFromJson({ ...base, rules: [{ id: "c", metric: "cost", max: 1, test: "paired" }] }),
    /rules\[0\]\.test: test applies to pass_rate candidate_better rules only/,
  );
});

Deno.test("runFromRow() reads repeat, and rejects one that is not a non-negative integer", () => {
  assert.equal(runFromRow({ variant: "a", task: "t", repeat: 3 }).repeat, 3);
  assert.equal(runFromRow({ variant: "a", task: "t" }).repeat, null);
  assert.equal(runFromRow({ variant: "a", task: "t", repeat: null }).repeat, null);
  assert.throws(
    () => runFromRow({ variant: "a", repeat: "3" }),
    /repeat: expected a non-negative integer or null, got a string/,
  );
  assert.throws(
    () => runFromRow({ variant: "a", repeat: -1 }),
    /repeat: expected a non-negative integer/,
  );
  assert.throws(() => new Run("a", "t", "pass", { repeat: 1.5 }), InputError);
});

Deno.test("runsFromTraces() reads the repeat from the task pattern's repeat group", async () => {
  const dir = "testdata/runs/traces";
  const runs = await runsFromTraces("new", `${dir}/new`, `${dir}/gold.json`);
  assert.deepEqual(runs.map((run) => [run.task, run.repeat]), [["refund", 1], ["refund", 2]]);
  const custom = await runsFromTraces("new", `${dir}/new`, `${dir}/gold.json`, {
    taskPattern: "^(?<task>[a-z]+)",
  });
  assert.deepEqual(custom.map((run) => run.repeat), [null, null]);
});
