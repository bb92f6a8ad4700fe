// toolscore plan, and toolscore decide with a protocol that names its test.
import assert from "node:assert/strict";
import { runsNeeded } from "../lib/stats/runs_needed.ts";
import { runCollect } from "./_cli.ts";

const cli = (...args: string[]) => runCollect(args);

Deno.test("toolscore plan prints the runs needed per variant without runs", async () => {
  const { code, out, err } = await cli("plan", "--rate", "0.7", "--difference", "0.1");
  assert.equal(code, 0, err);
  assert.equal(
    out,
    "Runs needed per variant to tell a pass rate of 0.70 from 0.80: 292\n" +
      "  (two-sided alpha = 0.05, power = 0.8, Cohen's h = 0.232; independent runs)\n",
  );
  // statsmodels' NormalIndPower: 567.26 → 568 (see tests/stats_paired_test.ts).
  const strict = await cli("plan", "--rate", "0.9", "--difference", "0.05", "--power", "0.9");
  assert.match(strict.out, /from 0\.95: 568\n/);
  const down = await cli(
    "plan",
    "--rate",
    "0.6",
    "--difference=-0.05", // a negative value joins with =
    "--alpha",
    "0.1",
    "--power",
    "0.7",
  );
  assert.match(down.out, /from 0\.55: 919\n/);
});

Deno.test("toolscore plan with runs gives design effects, more runs and their cost; unknown stays unknown", async () => {
  const { code, out, err } = await cli(
    "plan",
    "--rate",
    "0.48",
    "--difference",
    "0.12",
    "testdata/runs/paired_example.jsonl",
  );
  assert.equal(code, 0, err);
  assert.match(out, /from 0\.60: 270\n/);
  assert.match(out, /^A +100 +20 +0\.48 +1\.80 +487 +98 +387 +\$0\.002 +\$0\.77$/m);
  assert.match(out, /^B +100 +20 +0\.60 +2\.63 +710 +142 +610 +\$0\.0035 +\$2\.1$/m);
  assert.match(out, /^Estimated cost of the more runs: \$2\.9$/m);

  const json = JSON.parse(
    (await cli(
      "plan",
      "--rate",
      "0.7",
      "--difference",
      "0.1",
      "--json",
      "testdata/runs/agent_runs.jsonl",
    )).out,
  );
  assert.equal(json.runs_needed, 292);
  const local = json.variants.find((v: { variant: string }) => v.variant === "local");
  assert.equal(local.mean_cost, null); // no run has a cost: unknown, not $0
  assert.equal(local.estimated_cost, null);
  assert.equal(json.estimated_cost_total, null);
  const mini = json.variants.find((v: { variant: string }) => v.variant === "mini");
  assert.equal(
    mini.runs_needed,
    runsNeeded(0.7, 0.8, { designEffect: mini.design_effect }),
  );
  assert.equal(mini.more_runs, Math.max(0, mini.runs_needed - mini.n));
  assert.ok(Math.abs(mini.estimated_cost - mini.more_runs * mini.mean_cost) < 1e-12);
  // Four near-identical tasks give mini a design effect below 1; the text says what that means.
  assert.ok(mini.design_effect < 1);
  const text = await cli(
    "plan",
    "--rate",
    "0.7",
    "--difference",
    "0.1",
    "testdata/runs/agent_runs.jsonl",
  );
  assert.match(
    text.out,
    /- mini: deff 0\.18 < 1 over 4 tasks is more likely noise than runs that help each other; with deff 1 it needs 292/,
  );
  assert.match(text.out, /- local: no run has a cost, so its cost is unknown/);
});

Deno.test("toolscore plan says why a design effect is unknown", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const rows = [
      ...Array.from(
        { length: 10 },
        (_, i) => ({ variant: "one", task: "t", outcome: i < 6 ? "pass" : "fail" }),
      ),
      ...Array.from(
        { length: 10 },
        (_, i) => ({ variant: "all", task: `t${i % 2}`, outcome: "pass" }),
      ),
    ];
    await Deno.writeTextFile(
      `${dir}/runs.jsonl`,
      rows.map((row) => JSON.stringify(row)).join("\n"),
    );
    const { code, out } = await cli(
      "plan",
      "--rate",
      "0.6",
      "--difference",
      "0.2",
      `${dir}/runs.jsonl`,
    );
    assert.equal(code, 0);
    assert.match(out, /^one +10 +1 +0\.60 +unknown +unknown +unknown +unknown +unknown +unknown$/m);
    assert.match(
      out,
      /- one: design effect unknown \(1 task; needs two or more\), so its runs needed are unknown/,
    );
    assert.match(out, /- all: design effect unknown \(pass rate of 0 or 1\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore plan rejects missing or impossible inputs with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--difference", "0.1"], /give --rate P; see toolscore plan --help/],
    [["--rate", "0.7"], /give --difference D/],
    [["--rate", "0.7", "--difference", "0"], /--difference 0: nothing to detect/],
    [["--rate", "0.95", "--difference", "0.1"], /P \+ D = 1\.05 is outside 0 to 1/],
    [["--rate", "1.5", "--difference", "0.1"], /--rate 1\.5: expected a number between 0 and 1/],
    [
      ["--rate", "0.5", "--difference", "0.1", "--power", "0.01"],
      /--power 0\.01: expected alpha < power < 1/,
    ],
    [["--rate", "0.5", "--difference", "0.1", "missing.jsonl"], /missing\.jsonl/],
  ];
  for (const [args, message] of cases) {
    const { code, out, err } = await cli("plan", ...args);
    assert.equal(code, 2, `${args.join(" ")}: ${err}`);
    assert.equal(out, "");
    assert.match(err, message);
    assert.doesNotMatch(err, /\n {4}at /); // no stack trace
  }
});

Deno.test("toolscore decide follows a protocol that names the paired test", async () => {
  const { code, out, err } = await cli(
    "decide",
    "testdata/runs/protocol_paired.yaml",
    "testdata/runs/paired_example.jsonl",
  );
  assert.equal(code, 0, err);
  assert.match(
    out,
    /^pass +passes-more-paired +pass_rate: B 0\.600 vs A 0\.480, better; mcnemar p = 0\.0018 over 20 tasks, alpha = 0\.05; pooled Fisher p = 0\.12$/m,
  );
  assert.match(out, /^Decision: adopt/m);
});

Deno.test("toolscore compare --html says which test decided each pair", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const html = `${dir}/compare.html`;
    const { code, err } = await cli(
      "compare",
      "testdata/runs/paired_example.jsonl",
      "--html",
      html,
    );
    assert.equal(code, 0, err);
    assert.match(
      await Deno.readTextFile(html),
      /<td>mcnemar p = 0\.0018<\/td><td><span class="badge pass">called<\/span> B beats A: .*<br><small>McNemar&#39;s exact test decided, on these tasks \(generalize: runs\): the runs match one to one by \(task, repeat\), 100 pairs on 20 tasks; on tasks like these, the sign-flip test over the 20 tasks gives p = 0\.0018 \(if the tasks are a random sample of them\)<\/small><\/td>/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
