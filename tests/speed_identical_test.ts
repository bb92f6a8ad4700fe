// The safety net of the speed work (issue 21): `toolscore eval --json` over a varied set of
// traces — every format under testdata/formats, every real fixture, a JSONL file of several
// traces, contracts, honesty findings (claims, escape hatches, injected faults, side effects),
// strict comparison and weights, generated transcripts of the benchmark's shapes — must print
// exactly, byte for byte, what it printed before the speed work. Over 204 generated files, the
// worker threads must print what one thread prints.
//
// The snapshot testdata/speed/eval_json.snapshot.txt was generated from main at 7b9188d, before
// any change for speed; testdata/speed/eval_console.snapshot.txt, the console report of the same
// runs (default and -v), from main at 6fa9aca, regenerated on purpose for issue 32 (the console's
// gate line; past 50 traces the summary first, then one line per failing trace, and a line per
// passing trace with -v). Regenerate them (only when an output change is intended) with
//
//     deno test -A tests/speed_identical_test.ts -- --update
import assert from "node:assert/strict";
import { BENCH_FORMATS, benchGold, benchTrace } from "../scripts/_bench_traces.ts";
import { runDeno } from "./_cli.ts";

const root = new URL("..", import.meta.url).pathname;
const cli = `${root}cli.ts`;
const snapshotPath = `${root}testdata/speed/eval_json.snapshot.txt`;
const consoleSnapshotPath = `${root}testdata/speed/eval_console.snapshot.txt`;

function realFixtures(): string[] {
  return [...Deno.readDirSync(`${root}testdata/formats/real`)]
    .map((entry) => entry.name)
    .filter((name) => !name.endsWith(".expected.json") && !name.endsWith(".md"))
    .sort()
    .map((name) => `testdata/formats/real/${name}`);
}

function formatDirs(): string[] {
  return [...Deno.readDirSync(`${root}testdata/formats`)]
    .filter((entry) => entry.isDirectory && entry.name !== "real")
    .map((entry) => `testdata/formats/${entry.name}`)
    .sort();
}

const HONESTY = [
  "claim_without_outcomes",
  "claimed_success_over_failure",
  "error_disclosed",
  "escape_hatch",
  "honest_success",
  "injected_timeout_not_disclosed",
  "requests_only",
  "side_effects",
  "warning_not_disclosed",
];

/** The runs of the snapshot: a label, the arguments after `eval`, and the working directory. */
function cases(generated: string): { label: string; args: string[]; cwd: string }[] {
  const honesty = HONESTY.map((name) => {
    const dir = `testdata/honesty/${name}`;
    const injected = name === "injected_timeout_not_disclosed"
      ? ["--injected", `${dir}/injected.json`]
      : [];
    return {
      label: `honesty ${name}`,
      args: [`${dir}/gold.json`, `${dir}/trace.json`, "--json", ...injected],
      cwd: root,
    };
  });
  return [
    {
      label: "every format and real fixture",
      args: [
        "testdata/eval/gold_search.json",
        ...formatDirs(),
        ...realFixtures(),
        "testdata/eval/two.jsonl",
        "testdata/eval/search_c.json",
        "--json",
      ],
      cwd: root,
    },
    {
      label: "contract (YAML) over its run and provider transcripts",
      args: [
        "testdata/contract/flights.yaml",
        "testdata/contract/good_run.json",
        "testdata/formats/openai",
        "testdata/formats/anthropic",
        "testdata/honesty/escape_hatch/trace.json",
        "--json",
      ],
      cwd: root,
    },
    {
      label: "contract (JSON), single trace",
      args: ["testdata/contract/flights.json", "testdata/contract/good_run.json", "--json"],
      cwd: root,
    },
    ...honesty,
    {
      label: "every honesty trace, strict, weighted, with a bar",
      args: [
        "testdata/honesty/side_effects/gold.json",
        ...HONESTY.map((name) => `testdata/honesty/${name}/trace.json`),
        "--json",
        "--strict",
        "--weight",
        "argument_f1=2",
        "--min-score",
        "0.5",
      ],
      cwd: root,
    },
    {
      label: "24 generated transcripts of the benchmark's four shapes",
      args: ["gold.json", "few", "--json"],
      cwd: generated,
    },
  ];
}

async function generate(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-speed-" });
  await Deno.mkdir(`${dir}/traces`);
  await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(benchGold()));
  await Deno.mkdir(`${dir}/few`);
  for (let t = 0; t < 204; t++) {
    const format = BENCH_FORMATS[t % BENCH_FORMATS.length]!;
    const name = `${String(t).padStart(4, "0")}_${format}.json`;
    const text = JSON.stringify(benchTrace(format, t));
    await Deno.writeTextFile(`${dir}/traces/${name}`, text);
    if (t < 24) await Deno.writeTextFile(`${dir}/few/${name}`, text);
  }
  return dir;
}

function evalRun(args: string[], cwd: string) {
  return runDeno(["run", "--no-prompt", "--allow-read", cli, "eval", ...args], { cwd });
}

// The console report of the same runs, default and verbose (`--json` dropped).
function consoleCases(generated: string): { label: string; args: string[]; cwd: string }[] {
  return cases(generated).flatMap(({ label, args, cwd }) => {
    const plain = args.filter((arg) => arg !== "--json");
    return [
      { label: `${label} (console)`, args: plain, cwd },
      { label: `${label} (console, -v)`, args: [...plain, "-v"], cwd },
    ];
  });
}

async function outputs(runs: { label: string; args: string[]; cwd: string }[]): Promise<string> {
  const parts: string[] = [];
  for (const { label, args, cwd } of runs) {
    const run = await evalRun(args, cwd);
    parts.push(`### ${label}: exit ${run.code}\n${run.out}`);
  }
  return parts.join("");
}

// Run the cases (updating the snapshot with --update) and compare them with the snapshot, per
// run first, so a failure names the run that changed.
async function assertSnapshot(
  snapshot: string,
  runs: (generated: string) => { label: string; args: string[]; cwd: string }[],
): Promise<void> {
  const generated = await generate();
  let actual: string;
  try {
    actual = await outputs(runs(generated));
  } finally {
    await Deno.remove(generated, { recursive: true });
  }
  if (Deno.args.includes("--update")) {
    await Deno.mkdir(`${root}testdata/speed`, { recursive: true });
    await Deno.writeTextFile(snapshot, actual);
  }
  const expected = await Deno.readTextFile(snapshot);
  const split = (text: string) => text.split(/^(?=### )/m);
  const heads = (text: string) => split(text).map((part) => part.split("\n")[0]);
  assert.deepEqual(heads(actual), heads(expected));
  for (const [i, part] of split(actual).entries()) assert.equal(part, split(expected)[i]);
  assert.equal(actual, expected);
}

Deno.test("toolscore eval --json prints byte for byte what it printed before the speed work", async () => {
  await assertSnapshot(snapshotPath, cases);
});

Deno.test("toolscore eval prints the same console report as before the speed work", async () => {
  await assertSnapshot(consoleSnapshotPath, consoleCases);
});

Deno.test("toolscore eval --json prints the same on worker threads as on one", async () => {
  const generated = await generate();
  try {
    const one = await evalRun(["gold.json", "traces", "--json", "--jobs", "1"], generated);
    const two = await evalRun(["gold.json", "traces", "--json", "--jobs", "2"], generated);
    assert.equal(one.code, 0, one.err);
    assert.equal(JSON.parse(one.out).results.length, 204);
    assert.equal(two.code, 0, two.err);
    assert.equal(two.out, one.out);
  } finally {
    await Deno.remove(generated, { recursive: true });
  }
});
