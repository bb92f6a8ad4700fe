// compare, select, decide and plan over more than two variants (issue 41): adjusted pair
// verdicts, difference intervals, task classes, --errors fail | exclude and generalize.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { adjustPValues } from "../lib/stats/adjust.ts";
import { compareRuns } from "../lib/stats/compare.ts";
import { taskDifferenceInterval } from "../lib/stats/difference_interval.ts";
import { loadRuns } from "../lib/stats/runs.ts";
import { wilsonInterval } from "../lib/stats/wilson.ts";

const cli = (...args: string[]) => runCollect(args);

// Three variants (mini, large, local) on 4 tasks x 10 repeats; large has 2 error runs on refund.
const RUNS = "testdata/runs/agent_runs.jsonl";

interface Row {
  arm_id: string;
  task_id: string;
  outcome: string;
}

/** Per variant and task, the rows' passes and runs, counting or leaving out errors. */
async function tally(errors: "fail" | "exclude") {
  const rows: Row[] = (await Deno.readTextFile(RUNS)).trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  const byKey = new Map<string, { passes: number; n: number }>();
  for (const row of rows) {
    if (errors === "exclude" && row.outcome === "error") continue;
    const key = `${row.arm_id}/${row.task_id}`;
    const entry = byKey.get(key) ?? { passes: 0, n: 0 };
    entry.n++;
    if (row.outcome === "pass") entry.passes++;
    byKey.set(key, entry);
  }
  return byKey;
}

function classOf(passes: number, n: number): string {
  return n < 2 ? "single" : passes === n ? "stable_pass" : passes === 0 ? "stable_fail" : "flaky";
}

interface JsonPair {
  a: string;
  b: string;
  difference: number;
  p_value: number;
  paired_p_value: number | null;
  adjusted_p_value: number;
  adjust: string;
  difference_interval: [number, number];
  difference_method: string;
  distinguishable: boolean;
  verdict: string;
  discordant: [number, number] | null;
}

interface JsonVariant {
  variant: string;
  n: number;
  counts: Record<string, number>;
  pass_rate: number;
  pass_hat_k: number;
  interval: [number, number];
  task_classes: { task: string; passes: number; n: number; class: string }[];
}

Deno.test("compare --json on three variants: adjusted_p_value is Holm over its own pairs' deciding p-values", async () => {
  const { code, out, err } = await cli("compare", RUNS, "--json");
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  assert.equal(json.adjust, "holm");
  const pairs: JsonPair[] = json.pairs;
  assert.equal(pairs.length, 3); // k(k - 1)/2 without a baseline
  const deciding = pairs.map((pair) => pair.paired_p_value ?? pair.p_value);
  const holm = adjustPValues(deciding, { method: "holm" });
  const byName = Object.fromEntries(
    (json.variants as JsonVariant[]).map((stats) => [stats.variant, stats]),
  );
  pairs.forEach((pair, i) => {
    assert.equal(pair.adjusted_p_value, holm[i]);
    assert.equal(pair.adjust, "holm");
    assert.equal(pair.distinguishable, holm[i]! < 0.05);
    // difference keeps its meaning; the interval answers the deciding (run-level) question.
    assert.equal(pair.difference, byName[pair.b]!.pass_rate - byName[pair.a]!.pass_rate);
    assert.equal(pair.difference_method, "newcombe-paired");
    const [low, high] = pair.difference_interval;
    assert.ok(low <= pair.difference && pair.difference <= high);
  });
  // The README's example: Holm moves "large beats mini" from p = 0.039 to 0.077.
  assert.match(
    pairs[0]!.verdict,
    /^mini and large are not distinguishable: 30\/40 vs 38\/40, McNemar p = 0\.039 .*, Holm-adjusted p = 0\.077 over 3 pairs ≥ alpha = 0\.05/,
  );
  // Against a baseline the family is the k - 1 pairs reported.
  const based = JSON.parse((await cli("compare", RUNS, "--json", "--baseline", "local")).out);
  const basedPairs: JsonPair[] = based.pairs;
  assert.equal(basedPairs.length, 2);
  const basedHolm = adjustPValues(basedPairs.map((pair) => pair.paired_p_value ?? pair.p_value));
  basedPairs.forEach((pair, i) => assert.equal(pair.adjusted_p_value, basedHolm[i]));
});

Deno.test("compare --json task_classes match the fixture's rows per variant and task", async () => {
  for (const errors of ["fail", "exclude"] as const) {
    const { code, out } = await cli("compare", RUNS, "--json", "--errors", errors);
    assert.equal(code, 0);
    const expected = await tally(errors);
    const variants: JsonVariant[] = JSON.parse(out).variants;
    let seen = 0;
    for (const stats of variants) {
      for (const entry of stats.task_classes) {
        const rows = expected.get(`${stats.variant}/${entry.task}`)!;
        assert.deepEqual(
          entry,
          { task: entry.task, passes: rows.passes, n: rows.n, class: classOf(rows.passes, rows.n) },
        );
        seen++;
      }
    }
    assert.equal(seen, expected.size);
  }
  // large's refund: 8 passes and 2 errors in 10 runs is flaky as failures, stable without them.
  const text = (await cli("compare", RUNS)).out;
  assert.match(text, /^ {2}large: 3 stable pass, 0 stable fail, 1 flaky \(refund 8\/10\)$/m);
  const excluded = (await cli("compare", RUNS, "--errors", "exclude")).out;
  assert.match(excluded, /^ {2}large: 4 stable pass, 0 stable fail, 0 flaky$/m);
});

Deno.test("compare --errors exclude changes n, pass rates and pass^1 consistently; the errors column still counts them", async () => {
  const fail = JSON.parse((await cli("compare", RUNS, "--json")).out);
  const exclude = JSON.parse((await cli("compare", RUNS, "--json", "--errors", "exclude")).out);
  assert.equal(fail.errors, "fail");
  assert.equal(exclude.errors, "exclude");
  const large = (json: { variants: JsonVariant[] }) =>
    json.variants.find((stats) => stats.variant === "large")!;
  for (const [json, n] of [[fail, 40], [exclude, 38]] as const) {
    const stats = large(json);
    assert.equal(stats.n, n);
    assert.equal(stats.counts.error, 2); // counted either way
    assert.equal(stats.pass_rate, stats.counts.pass! / stats.n);
    assert.deepEqual(stats.interval, wilsonInterval(stats.counts.pass!, stats.n));
    // pass^1 is the mean over tasks of passes / n, with the same n as the task classes.
    const mean = stats.task_classes.reduce((sum, task) => sum + task.passes / task.n, 0) /
      stats.task_classes.length;
    assert.ok(Math.abs(stats.pass_hat_k - mean) < 1e-12);
    assert.equal(stats.task_classes.reduce((sum, task) => sum + task.n, 0), stats.n);
  }
  assert.equal(large(fail).pass_rate, 0.95);
  assert.equal(large(exclude).pass_rate, 1);
  assert.equal(large(exclude).pass_hat_k, 1);
  // The paired test leaves the errored runs' partners out too: 38 matched pairs, not 40.
  const pair = (exclude.pairs as JsonPair[]).find((p) => p.a === "mini" && p.b === "large")!;
  assert.match(pair.verdict, /McNemar p = \S+ over 38 matched runs/);
  const console = (await cli("compare", RUNS, "--errors", "exclude")).out;
  assert.match(console, /^large +38 +4 +38\/38 = 1\.00 .* 2$/m);
  assert.match(
    console,
    /variant large: 2 error runs left out of n, pass rates, pass\^k and the paired tests/,
  );
  assert.doesNotMatch(console, /count as not passing/);
});

Deno.test("compare --adjust bh words a call as a discovery at FDR q; bad --adjust and --errors exit 2", async () => {
  const { code, out } = await cli("compare", RUNS, "--adjust", "bh");
  assert.equal(code, 0);
  assert.match(
    out,
    /large over local is a discovery at FDR q = 0\.05: .*BH-adjusted p = 2\.3e-5 over 3 pairs/,
  );
  const none = await cli("compare", RUNS, "--adjust", "none", "--json");
  const pairs: JsonPair[] = JSON.parse(none.out).pairs;
  assert.ok(pairs.every((pair) => pair.adjust === "none"));
  assert.ok(pairs[0]!.distinguishable); // unadjusted, McNemar p = 0.039 calls it
  for (
    const [flag, value, message] of [
      ["--adjust", "bonferroni", /--adjust bonferroni: expected holm, bh, none/],
      ["--errors", "skip", /--errors skip: expected fail or exclude/],
    ] as const
  ) {
    const bad = await cli("compare", RUNS, flag, value);
    assert.equal(bad.code, 2);
    assert.match(bad.err, message);
  }
});

Deno.test("compareRuns() generalize: tasks decides by the sign-flip test over tasks with the t interval", async () => {
  const runs = await loadRuns(["testdata/runs/paired_example.jsonl"]);
  const byRuns = compareRuns(runs).pairs[0]!;
  assert.equal(byRuns.test, "mcnemar");
  const byTasks = compareRuns(runs, { generalize: "tasks" }).pairs[0]!;
  assert.equal(byTasks.test, "sign-flip");
  assert.equal(byTasks.differenceMethod, "task-t");
  assert.equal(byTasks.pairedPValue, byRuns.taskPValue);
  assert.match(byTasks.testReason, /on tasks like these \(generalize: tasks\)/);
  const { A: a, B: b } = compareRuns(runs).byName();
  const differences = [...a!.byTask.keys()].map((task) =>
    b!.byTask.get(task)!.passes / b!.byTask.get(task)!.n -
    a!.byTask.get(task)!.passes / a!.byTask.get(task)!.n
  );
  assert.deepEqual(byTasks.differenceInterval, taskDifferenceInterval(differences));
  // With 4 tasks no sign-flip test can reach 0.05: generalize tasks does not fall back to runs.
  const four = compareRuns(await loadRuns([RUNS]), { generalize: "tasks", adjust: "none" });
  for (const pair of four.pairs) {
    assert.equal(pair.test, "sign-flip");
    assert.equal(pair.distinguishable, false);
    assert.match(
      pair.testReason,
      /smallest possible p = 2 \/ 2\^4 = 0\.125; at least 6 are needed/,
    );
  }
});

Deno.test("select --exclude-flaky leaves flaky tasks out for every variant with a note; a winner's-curse note", async () => {
  const plain = await cli("select", RUNS, "--json");
  assert.equal(plain.code, 0);
  const json = JSON.parse(plain.out);
  assert.equal(json.chosen, "large");
  assert.match(json.notes[0], /^winner's curse: large is the best observed of 3 variants/);
  const flaky = await cli("select", RUNS, "--exclude-flaky");
  assert.equal(flaky.code, 0);
  assert.match(
    flaky.out,
    /--exclude-flaky: 4 tasks flaky under some variant left out for every variant \(cancel, escalate, lookup, refund\)/,
  );
  // Two variants: a pick between two is no winner's curse.
  const two = await runCollect(["select", "testdata/runs/paired_example.jsonl", "--json"]);
  assert.deepEqual(JSON.parse(two.out).notes, []);
});

Deno.test("decide: the family is the one pre-registered pair unless the protocol sets adjust; errors must match", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = {
      protocol_version: 1,
      baseline: "mini",
      candidate: "large",
      min_runs: 20,
      rules: [{ id: "better", metric: "pass_rate", expect: "candidate_better", test: "paired" }],
    };
    const write = async (name: string, value: unknown) => {
      const path = `${dir}/${name}`;
      await Deno.writeTextFile(path, JSON.stringify(value));
      return path;
    };
    const one = await cli("decide", await write("one.json", base), RUNS, "--json");
    assert.equal(one.code, 0, one.err); // McNemar p = 0.039 < 0.05: adopt
    const adjusted = await cli(
      "decide",
      await write("holm.json", { ...base, adjust: "holm" }),
      RUNS,
      "--json",
    );
    assert.equal(adjusted.code, 1); // over 2 pairs against mini, Holm: not shown better
    assert.match(JSON.parse(adjusted.out).rules[0].detail, /Holm-adjusted p = \S+ over 2 pairs/);
    const excluded = await cli(
      "decide",
      await write("exclude.json", { ...base, errors: "exclude" }),
      RUNS,
      "--json",
    );
    assert.equal(JSON.parse(excluded.out).comparison.errors, "exclude");
    const bad = await cli("decide", await write("bad.json", { ...base, errors: "ignore" }), RUNS);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /bad\.json: errors: expected fail, exclude, got "ignore"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan --json reports runs needed for generalize runs and tasks, and takes --errors", async () => {
  const { code, out, err } = await cli(
    "plan",
    "--rate",
    "0.7",
    "--difference",
    "0.1",
    RUNS,
    "--errors",
    "exclude",
    "--json",
  );
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  assert.equal(json.errors, "exclude");
  const local = json.variants.find((plan: { variant: string }) => plan.variant === "local");
  assert.deepEqual(local.runs_needed_by_generalize, { runs: 292, tasks: local.runs_needed });
  assert.equal(local.tasks_needed, Math.ceil(local.runs_needed / (local.n / local.tasks)));
  assert.equal(
    json.variants.find((plan: { variant: string }) => plan.variant === "large").n,
    38,
  );
});

Deno.test("export gives each record the task_class of its (variant, task) over the export's inputs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/export.jsonl`;
    const { code, err } = await cli("export", RUNS, "-o", out);
    assert.equal(code, 0, err);
    const records = (await Deno.readTextFile(out)).trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    const expected = await tally("fail");
    assert.equal(records.length, 120);
    for (const record of records) {
      const rows = expected.get(`${record.variant}/${record.task}`)!;
      assert.equal(record.task_class, classOf(rows.passes, rows.n), record.run_id);
    }
    // The classes match compare's over the same runs, and the records still validate.
    const check = await cli("validate-export", out);
    assert.equal(check.code, 0, check.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
