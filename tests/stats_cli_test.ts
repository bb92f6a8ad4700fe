import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";

/** Run the CLI with a collecting CliIO. */
const cli = (...args: string[]) => runCollect(args);

const RUNS = "testdata/runs/agent_runs.jsonl";
const RECORDS = "testdata/runs/records.jsonl";

Deno.test("toolscore compare prints a table per variant and the verdicts", async () => {
  const { code, out, err } = await cli("compare", RUNS, RECORDS);
  assert.equal(code, 0, err);
  const lines = out.split("\n");
  assert.match(
    lines[0]!,
    /^variant +n +tasks +pass rate +95% interval +clustered 95% +deff +pass\^1 +cost +latency +errors$/,
  );
  assert.match(out, /^mini +60 +4 +44\/60 = 0\.73 +\[0\.61, 0\.83\] +\[0\.66, 0\.81\] +0\.45 /m);
  assert.match(out, /^local .* unknown /m); // no cost recorded: unknown, not $0
  // The rows carry task and repeat, so the variants' runs match one to one: McNemar decides.
  assert.match(
    out,
    /large beats mini: 57\/60 = 0\.95 \[0\.86, 0\.98\] vs 44\/60 = 0\.73 \[0\.61, 0\.83\], McNemar p = 0\.0044 over 60 matched runs \(only large passed 16, only mini 3\), Holm-adjusted p = 0\.0089 over 3 pairs; pooled Fisher p = 0\.002\n {4}large − mini: \+22 points \[\+8, \+35\] \(95%, Newcombe's paired interval over the matched runs\)\n {4}McNemar's exact test decided, on these tasks \(generalize: runs\): the runs match one to one by \(task, repeat\), 60 pairs on 4 tasks; on tasks like these, the sign-flip test over tasks cannot reach p < 0\.05: 4 tasks differ \(smallest possible p = 2 \/ 2\^4 = 0\.125; at least 6 are needed\), so the verdict speaks for these tasks only\n/,
  );
  // Pooled Fisher with overlapping intervals could not tell these apart; the matched runs can.
  assert.match(
    out,
    /mini beats local: 44\/60 = 0\.73 \[0\.61, 0\.83\] vs 32\/60 = 0\.53 \[0\.41, 0\.65\], McNemar p = 0\.029 over 60 matched runs \(only mini passed 19, only local 7\), Holm-adjusted p = 0\.029 over 3 pairs; pooled Fisher p = 0\.037/,
  );
  assert.match(out, /variant local: cost unknown for every run; it counts as worst/);
});

Deno.test("toolscore compare --test fisher keeps the pooled Fisher rule and says so", async () => {
  const { code, out, err } = await cli("compare", RUNS, RECORDS, "--test", "fisher");
  assert.equal(code, 0, err);
  assert.match(
    out,
    /large beats mini: 57\/60 = 0\.95 \[0\.86, 0\.98\] vs 44\/60 = 0\.73 \[0\.61, 0\.83\], p = 0\.002, Holm-adjusted p = 0\.004 over 3 pairs\n {4}large − mini: \+22 points \[\+9, \+34\] \(95%, Newcombe's hybrid score interval over the pooled runs\)\n {4}Fisher's exact test on the pooled runs and the Wilson intervals decided \(test = fisher\)\n/,
  );
  assert.match(
    out,
    /mini and local are not distinguishable: 44\/60 vs 32\/60, p = 0\.037, Holm-adjusted p = 0\.037 over 3 pairs < alpha = 0\.05, intervals overlap/,
  );
  const bad = await cli("compare", RUNS, "--test", "bayes");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--test bayes: expected auto, paired, fisher/);
});

Deno.test("toolscore compare --json prints one JSON document", async () => {
  const { code, out } = await cli(
    "compare",
    RUNS,
    "--baseline",
    "mini",
    "-k",
    "3",
    "--min-n",
    "20",
    "--alpha",
    "0.01",
    "--json",
  );
  assert.equal(code, 0);
  const json = JSON.parse(out);
  assert.equal(json.k, 3);
  assert.equal(json.min_n, 20);
  assert.equal(json.alpha, 0.01);
  assert.equal(json.baseline, "mini");
  assert.deepEqual(json.variants.map((v: { variant: string }) => v.variant), [
    "mini",
    "large",
    "local",
  ]);
  assert.equal(json.variants[2].cost, null);
  assert.equal(json.variants[2].cost_known, 0);
  assert.deepEqual(json.pairs.map((p: { a: string; b: string }) => [p.a, p.b]), [
    ["mini", "large"],
    ["mini", "local"],
  ]);
});

Deno.test("toolscore compare names a bad line's file and line and exits 2", async () => {
  const { code, out, err } = await cli("compare", RUNS, "testdata/runs/bad.jsonl");
  assert.equal(code, 2);
  assert.equal(out, "");
  assert.match(err, /^toolscore: testdata\/runs\/bad\.jsonl:3: not valid JSON/);
});

Deno.test("toolscore compare rejects bad flags and an unknown baseline", async () => {
  assert.match((await cli("compare")).err, /give RUNS\.jsonl files or --traces VARIANT=DIR/);
  assert.match(
    (await cli("compare", RUNS, "-k", "0")).err,
    /^toolscore: -k 0: expected a whole number >= 1\n$/,
  );
  assert.match(
    (await cli("compare", RUNS, "-k", "1.5")).err,
    /-k 1\.5: expected a whole number >= 1/,
  );
  assert.match(
    (await cli("compare", RUNS, "--min-n", "x")).err,
    /--min-n x: expected a whole number >= 0/,
  );
  const dashed = await cli("compare", RUNS, "-k", "-1");
  assert.equal(dashed.code, 2);
  assert.match(dashed.err, /-k -1: a value that starts with - must be joined with =: --k=-1/);
  assert.match(
    (await cli("compare", RUNS, "--alpha", "1")).err,
    /--alpha 1: expected 0 < alpha < 1/,
  );
  assert.match((await cli("compare", RUNS, "--bogus")).err, /Unknown option '--bogus'/);
  const unknown = await cli("compare", RUNS, "--baseline", "huge");
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /baseline: unknown variant huge; the runs have mini, large, local/);
  assert.match((await cli("compare", RUNS, "--traces", "a=dir")).err, /--traces needs --gold/);
  assert.match(
    (await cli("compare", RUNS, "--gold", "g.json")).err,
    /--gold applies to --traces only/,
  );
});

Deno.test("toolscore compare --variant-key groups by another key", async () => {
  const { code, out } = await cli("compare", RUNS, "--variant-key", "model", "--json");
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(out).variants.map((v: { variant: string }) => v.variant), [
    "gpt-4.1-mini",
    "gpt-4.1",
    "llama3.1:8b",
  ]);
});

Deno.test("toolscore select --policy pareto picks from the front and says why", async () => {
  const { code, out, err } = await cli(
    "select",
    RUNS,
    "--policy",
    "pareto",
    "--objective",
    "pass_rate",
    "--objective",
    "cost",
  );
  assert.equal(code, 0, err);
  assert.match(out, /^Policy: pareto; objectives: max pass_rate, min cost$/m);
  assert.match(out, /^ +1 +large +0\.950 +\$0\.023 +yes$/m);
  assert.match(out, /^ +3 +local +0\.500 +unknown +no$/m);
  assert.match(
    out,
    /^Chosen: large \(large is on the Pareto front of max pass_rate, min cost with mini; it beats mini on pass_rate \(0\.950 vs 0\.750\); unknown cost of local counted as worst\)$/m,
  );
});

Deno.test("toolscore select --json with weights", async () => {
  const { code, out } = await cli(
    "select",
    RUNS,
    "--policy",
    "weighted",
    "--objective",
    "pass_rate",
    "--objective",
    "cost",
    "--weight",
    "pass_rate=3",
    "--json",
  );
  assert.equal(code, 0);
  const json = JSON.parse(out);
  assert.equal(json.policy, "weighted");
  assert.equal(json.chosen, "large");
  assert.equal(json.scores.local, 0); // worst pass rate, unknown cost
  assert.deepEqual(json.unknown, { local: ["cost"] });
  assert.equal(json.comparison.variants.length, 3);
});

Deno.test("toolscore select takes a flipped objective joined with = and explains the split form", async () => {
  const joined = await cli("select", RUNS, "--json", "--objective=-pass_rate");
  assert.equal(joined.code, 0);
  assert.deepEqual(JSON.parse(joined.out).objectives, [{ metric: "pass_rate", goal: "min" }]);
  assert.equal(JSON.parse(joined.out).chosen, "local");
  const split = await cli("select", RUNS, "--objective", "pass_rate", "--objective", "-latency");
  assert.equal(split.code, 2);
  assert.equal(
    split.err,
    "toolscore: --objective -latency: a value that starts with - must be joined with =: --objective=-latency\n",
  );
});

Deno.test("toolscore select names an unknown policy, metric or weight", async () => {
  assert.match((await cli("select", RUNS, "--policy", "best")).err, /policy: unknown policy best/);
  assert.match((await cli("select", RUNS, "--objective", "speed")).err, /unknown metric speed/);
  assert.match(
    (await cli("select", RUNS, "--policy", "weighted", "--weight", "cost")).err,
    /--weight cost: expected METRIC=NUMBER/,
  );
  const misplaced = await cli("select", RUNS, "--weight", "cost=2");
  assert.equal(misplaced.code, 2);
  assert.match(misplaced.err, /weights apply to the weighted policy only/);
});

Deno.test("toolscore decide exits 0 on adopt and prints each rule with its numbers", async () => {
  const { code, out, err } = await cli("decide", "testdata/runs/protocol.yaml", RUNS, RECORDS);
  assert.equal(code, 0, err);
  assert.match(out, /^Protocol: Switch the support agent from mini to large$/m);
  assert.match(out, /^ {2}sha256 [0-9a-f]{64}$/m);
  assert.match(
    out,
    /^pass +passes-more +pass_rate: large 0\.950 vs mini 0\.733, better; p = 0\.002, alpha = 0\.05, intervals do not overlap$/m,
  );
  assert.match(out, /^pass +cost-cap +cost: large \$0\.024, within max \$0\.05$/m);
  // A tolerance is shown in the metric's own units.
  assert.match(
    out,
    /^pass +latency-budget +latency: large [\d.]+ s vs mini [\d.]+ s, not worse \(tolerance 10 s\)$/m,
  );
  assert.match(out, /^Decision: adopt \(3 pass, 0 fail, 0 unknown\)$/m);
});

Deno.test("toolscore decide exits 1 on reject and 3 on undecided", async () => {
  const reject = await cli("decide", "testdata/runs/protocol_local.json", RUNS);
  assert.equal(reject.code, 1);
  assert.match(
    reject.out,
    /^fail +no-worse +pass_rate: local 0\.500 vs mini 0\.750, worse \(tolerance 0\.050\)$/m,
  );
  assert.match(reject.out, /^unknown +cheaper +cost of candidate local is unknown$/m);
  const undecided = await cli("decide", "testdata/runs/protocol_cost.json", RUNS);
  assert.equal(undecided.code, 3);
  assert.match(undecided.out, /^Decision: undecided \(1 pass, 0 fail, 1 unknown\)$/m);
});

Deno.test("toolscore decide uses min_runs: too few runs is undecided, not adopt", async () => {
  const protocol = "testdata/runs/protocol_min_runs.yaml";
  const short = await cli("decide", protocol, RUNS);
  assert.equal(short.code, 3);
  assert.match(
    short.out,
    /^unknown +passes-more +baseline mini has 40 runs, fewer than min_runs = 50; candidate large has 40 runs, fewer than min_runs = 50$/m,
  );
  const enough = await cli("decide", protocol, RUNS, RECORDS);
  assert.equal(enough.code, 0);
  assert.match(enough.out, /^pass +passes-more /m);
});

Deno.test("toolscore decide --json carries the protocol hash and the decision", async () => {
  const { code, out } = await cli("decide", "testdata/runs/protocol_cost.json", RUNS, "--json");
  assert.equal(code, 3);
  const json = JSON.parse(out);
  assert.equal(json.decision, "undecided");
  assert.match(json.protocol_sha256, /^[0-9a-f]{64}$/);
  assert.equal(json.rules[0].status, "unknown");
  assert.equal(json.comparison.baseline, "mini");
});

Deno.test("toolscore decide names a bad protocol and a missing argument", async () => {
  const missing = await cli("decide");
  assert.equal(missing.code, 2);
  assert.match(missing.err, /give a PROTOCOL file and RUNS\.jsonl files/);
  const notProtocol = await cli("decide", RUNS, RUNS);
  assert.equal(notProtocol.code, 2);
  const unknownVariant = await cli(
    "decide",
    "testdata/runs/protocol.yaml",
    "testdata/runs/agent_runs.jsonl",
    "--variant-key",
    "model",
  );
  assert.equal(unknownVariant.code, 2);
  assert.match(unknownVariant.err, /unknown variant mini; the runs have gpt-4\.1-mini/);
});

Deno.test("toolscore help lists compare, select and decide", async () => {
  const { out } = await cli("--help");
  for (const name of ["compare", "select", "decide"]) {
    assert.match(out, new RegExp(`^  ${name} `, "m"));
  }
  assert.match(
    (await cli("decide", "--help")).out,
    /Exit codes: 0 adopt, 1 reject, 2 usage or input error, 3 undecided/,
  );
});

const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".", suffix: ".tmp" };

Deno.test("toolscore compare --html writes a self-contained report", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const path = `${dir}/compare.html`;
    const { code, out, err } = await cli("compare", RUNS, RECORDS, "--html", path);
    assert.equal(code, 0, err);
    assert.match(out, /^variant/); // the console table still prints
    const html = await Deno.readTextFile(path);
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<title>mini: 44\/60 = 0\.73 \[0\.61, 0\.83\]<\/title>/);
    assert.match(html, /<circle [^>]*class="front"/);
    assert.match(html, /Not plotted \(cost unknown, counted as worst\): local\./);
    assert.match(html, /large beats mini: 57\/60/);
    assert.doesNotMatch(html, /<script|src=|href=/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["compare.html"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
