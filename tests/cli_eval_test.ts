import assert from "node:assert/strict";
import { runCollect, runDeno } from "./_cli.ts";

const run = (args: string[], stdin?: string) => runCollect(args, stdin);

const GOLD = "data/demo/gold.json";

Deno.test("toolscore eval prints the report of a good trace and exits 0", async () => {
  const { code, out, err } = await run(["eval", GOLD, "data/demo/good.json"]);
  assert.equal(code, 0, err);
  assert.match(out, /data\/demo\/good\.json {2}score 1\.00 A {2}PASS/);
  assert.match(out, /selection 1\.00 {2}argument F1 1\.00/);
  assert.match(out, /pass, \d+ fail, \d+ unknown/);
});

Deno.test("toolscore eval shows top issues with expected and actual values", async () => {
  const { out } = await run(["eval", GOLD, "data/demo/wrong_argument.json"]);
  assert.match(out, /Top issues to fix:/);
  assert.match(
    out,
    /search_flights \(expected call 1\): argument date expected "2026-12-24", got "2026-12-25"/,
  );
  const missing = await run(["eval", GOLD, "data/demo/missing_call.json"]);
  assert.match(missing.out, /missing call: send_confirmation/);
});

Deno.test("toolscore eval --json prints one JSON document and nothing else", async () => {
  const { code, out } = await run(["eval", GOLD, "data/demo/good.json", "--json"]);
  assert.equal(code, 0);
  const doc = JSON.parse(out);
  assert.equal(doc.schema_version, "1");
  assert.equal(doc.score, 1);
  assert.equal(doc.grade, "A");
  assert.equal(doc.passed, true);
  assert.ok(Array.isArray(doc.evidence.checks));
  assert.equal(doc.calls.actual.length, 3);
});

Deno.test("toolscore eval --fail-under B exits 1 on a C", async () => {
  const failing = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
    "--fail-under",
    "B",
  ]);
  assert.equal(failing.code, 1);
  assert.match(failing.out, /score 0\.70 C {2}FAIL: below bar/);
  const reportOnly = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
  ]);
  assert.equal(reportOnly.code, 0);
  assert.match(reportOnly.out, /report only/);
  const passing = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
    "--fail-under",
    "C",
  ]);
  assert.equal(passing.code, 0);
  const minScore = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
    "--min-score",
    "0.71",
  ]);
  assert.equal(minScore.code, 1);
});

Deno.test("toolscore eval over a directory prints a summary with the mean", async () => {
  const { code, out, err } = await run(["eval", GOLD, "data/demo/"]);
  assert.equal(code, 0);
  assert.match(out, /trace +score +grade/);
  // Issue 32: gold.json in the directory is the run's gold file, left out with a note (it was
  // scored as a fourth trace, 0.900 A pass, and moved the mean to 0.908).
  assert.match(out, /3 traces: 1 passed, 2 failed, mean score 0\.910/);
  assert.doesNotMatch(out, /gold\.json +0\.900/);
  assert.match(err, /left data\/demo\/gold\.json out of the traces/);
});

Deno.test("toolscore eval reads a JSONL file line by line and stdin", async () => {
  const jsonl = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/two.jsonl",
    "--json",
  ]);
  const doc = JSON.parse(jsonl.out);
  assert.deepEqual(doc.results.map((r: { source: string }) => r.source), [
    "testdata/eval/two.jsonl[1]",
    "testdata/eval/two.jsonl[2]",
  ]);
  assert.deepEqual(doc.results.map((r: { score: number }) => r.score), [0.7, 1]);
  assert.equal(doc.summary.count, 2);
  const stdin = await run(
    ["eval", "testdata/eval/gold_search.json", "-", "--json"],
    '[{"tool": "search", "args": {}}]',
  );
  assert.equal(JSON.parse(stdin.out).score, 1);
});

Deno.test("toolscore eval --weight and --strict change the score", async () => {
  const weighted = await run([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
    "--json",
    "--weight",
    "argument_f1=0",
    "--weight",
    "selection_accuracy=1",
  ]);
  const doc = JSON.parse(weighted.out);
  assert.ok(Math.abs(doc.score - 1) < 1e-9);
  assert.ok(Math.abs(doc.weights.selection_accuracy - 1 / 1.3) < 1e-9);
});

const BAD: [string, string[], RegExp][] = [
  ["a missing file", ["eval", "nope.json", "data/demo/good.json"], /nope\.json: file not found/],
  [
    "malformed JSON",
    ["eval", "testdata/eval/broken.json", "data/demo/good.json"],
    /broken\.json:2:36: invalid JSON/,
  ],
  [
    "an unknown format",
    ["eval", GOLD, "data/demo/good.json", "--format", "gpt"],
    /unknown format gpt/,
  ],
  [
    "a bad weight",
    ["eval", GOLD, "data/demo/good.json", "--weight", "speed=1"],
    /--weight: unknown weight speed/,
  ],
  [
    "a weight without a number",
    ["eval", GOLD, "data/demo/good.json", "--weight", "argument_f1"],
    /expected NAME=NUMBER/,
  ],
  [
    "a gold item without tool",
    ["eval", "testdata/eval/no_tool.json", "data/demo/good.json"],
    /no_tool\.json: \[1\]\.tool: missing/,
  ],
  [
    "a bad matcher",
    ["eval", "testdata/eval/bad_matcher.json", "data/demo/good.json"],
    /\[0\]\.args\.q: unknown operator \$regexp \(did you mean \$regex\?\)/,
  ],
  [
    "an unrecognized trace",
    ["eval", GOLD, "testdata/eval/unknown_shape.json"],
    /unknown_shape\.json: not a trace in any known format/,
  ],
  ["an unknown flag", ["eval", GOLD, "data/demo/good.json", "--bogus"], /Unknown option '--bogus'/],
  ["a missing trace argument", ["eval", GOLD], /needs GOLD and at least one TRACE/],
  [
    "a bad --fail-under",
    ["eval", GOLD, "data/demo/good.json", "--fail-under", "Z"],
    /--fail-under Z/,
  ],
  ["an unknown command", ["evaluate"], /unknown command evaluate/],
];

for (const [what, args, pattern] of BAD) {
  Deno.test(`toolscore eval rejects ${what} with exit 2 and one line`, async () => {
    const { code, out, err } = await run(args);
    assert.equal(code, 2, err);
    assert.equal(out, "");
    assert.match(err, pattern);
    assert.ok(err.trim().split("\n").length <= 2, err);
    assert.doesNotMatch(err, /\n\s+at /);
  });
}

Deno.test("toolscore --version, --help and COMMAND --help", async () => {
  const version = await run(["--version"]);
  assert.match(version.out, /^toolscore \d+\.\d+\.\d+\ndeno \d/);
  const help = await run(["--help"]);
  assert.match(help.out, /Commands:/);
  assert.match(help.out, /eval +score traces/);
  const evalHelp = await run(["eval", "--help"]);
  assert.match(evalHelp.out, /Examples:/);
  const helpEval = await run(["help", "eval"]);
  assert.equal(helpEval.out, evalHelp.out);
});

Deno.test("toolscore demo runs on bundled data", async () => {
  const { code, out } = await run(["demo"]);
  assert.equal(code, 0);
  assert.match(out, /good\.json {2}score 1\.00 A/);
  assert.match(out, /What this shows/);
});

Deno.test("the toolscore process runs with only --allow-read and exits with the gate's code", async () => {
  const cli = new URL("../cli.ts", import.meta.url).pathname;
  const root = new URL("..", import.meta.url).pathname;
  const command = (args: string[]) =>
    runDeno(["run", "--no-prompt", `--allow-read=${root}`, cli, ...args], { cwd: root });
  const failing = await command([
    "eval",
    "testdata/eval/gold_search.json",
    "testdata/eval/search_c.json",
    "--fail-under",
    "B",
  ]);
  assert.equal(failing.code, 1);
  const bad = await command(["eval", "testdata/eval/broken.json", "data/demo/good.json"]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^toolscore: testdata\/eval\/broken\.json:2:36: invalid JSON/);
  assert.doesNotMatch(bad.err, /\n\s+at /);
});

Deno.test("toolscore eval --json stays one JSON document past its 32 MB buffer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-big-json-" });
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify([{ tool: "read", args: {} }]));
    // Each result carries 100 KB, so 600 traces print about 60 MB: the first 32 MB are
    // buffered, the rest is streamed in batches.
    const trace = [{ tool: "read", args: {}, result: "x".repeat(100_000) }];
    await Deno.writeTextFile(`${dir}/big.json`, JSON.stringify(trace));
    const paths = Array.from({ length: 600 }, () => `${dir}/big.json`);
    const { code, out, err } = await run(["eval", `${dir}/gold.json`, ...paths, "--json"]);
    assert.equal(code, 0, err);
    assert.ok(out.length > 48 * 1024 * 1024);
    const doc = JSON.parse(out);
    assert.equal(doc.results.length, 600);
    assert.deepEqual(doc.summary, { count: 600, passed: 600, failed: 0, mean_score: 1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) names.push(...await filesUnder(dir, `${name}/`));
    else names.push(name);
  }
  return names.sort();
}

/**
 * The bundle prints byte for byte what `deno run cli.ts` prints (stdout, stderr, exit code) for
 * demo, eval, compare and export, and writes the same files; only the `created_at` of the
 * export manifest and of receipts (and so a receipt's own hash) differ, as they would between
 * two runs of either.
 */
async function assertBundleRunsAsSource(bundle: string, root: string): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "toolscore-bundle-same-" });
  try {
    const [source, bundled] = [`${base}/source`, `${base}/bundle`];
    for (const dir of [source, bundled]) {
      await Deno.mkdir(`${dir}/demo`, { recursive: true });
      await Deno.mkdir(`${dir}/runs`);
      await Deno.mkdir(`${dir}/out`);
      for (const name of ["gold.json", "good.json", "missing_call.json", "wrong_argument.json"]) {
        await Deno.copyFile(`${root}data/demo/${name}`, `${dir}/demo/${name}`);
      }
      for (const name of ["flights.yaml", "good_run.json"]) {
        await Deno.copyFile(`${root}testdata/contract/${name}`, `${dir}/${name}`);
      }
      await Deno.copyFile(`${root}testdata/eval/broken.json`, `${dir}/broken.json`);
      await Deno.copyFile(`${root}testdata/runs/agent_runs.jsonl`, `${dir}/runs/agent_runs.jsonl`);
    }
    const demoRuns = ["demo/good.json", "demo/missing_call.json", "demo/wrong_argument.json"];
    const commands: [string[], number][] = [
      [["demo"], 0],
      [["eval", "demo/gold.json", ...demoRuns], 0],
      [["eval", "demo/gold.json", ...demoRuns, "--json"], 0],
      [["eval", "flights.yaml", "good_run.json", "-v"], 0],
      [["eval", "demo/gold.json", "demo/wrong_argument.json", "--fail-under", "A"], 1],
      [["eval", "demo/gold.json", "broken.json"], 2],
      [["eval", "demo/gold.json", ...demoRuns, "--receipt-dir", "receipts"], 0],
      // Each side's receipts check out (their receipt_sha256 covers created_at).
      [[
        "verify",
        "--root",
        ".",
        "receipts/good.receipt.json",
        "receipts/missing_call.receipt.json",
      ], 0],
      [["compare", "runs/agent_runs.jsonl"], 0],
      [["compare", "runs/agent_runs.jsonl", "--json", "--html", "compare.html"], 0],
      [["export", "runs/agent_runs.jsonl", "-o", "out/runs.jsonl"], 0],
      [["validate-export", "out/runs.jsonl"], 0],
    ];
    for (const [args, code] of commands) {
      const flags = ["--no-prompt", `--allow-read=${base}`, `--allow-write=${base}`];
      const fromSource = await runDeno(
        ["run", ...flags, "--config", `${root}deno.json`, `${root}cli.ts`, ...args],
        { cwd: source },
      );
      const fromBundle = await runDeno(["run", "--no-config", ...flags, bundle, ...args], {
        cwd: bundled,
      });
      assert.equal(fromSource.code, code, `${args.join(" ")}: ${fromSource.err}`);
      assert.ok(fromSource.out.length > 0 || fromSource.err.length > 0, args.join(" "));
      assert.deepEqual(fromBundle, fromSource, args.join(" "));
    }
    const written = await filesUnder(source);
    assert.deepEqual(await filesUnder(bundled), written);
    assert.ok(written.includes("out/runs.manifest.json") && written.includes("compare.html"));
    assert.equal(written.filter((name) => name.startsWith("receipts/")).length, 3);
    for (const name of written) {
      const [a, b] = [
        await Deno.readFile(`${source}/${name}`),
        await Deno.readFile(`${bundled}/${name}`),
      ];
      if (name.endsWith("manifest.json") || name.endsWith(".receipt.json")) {
        const [left, right] = [a, b].map((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
        assert.match(left.created_at, /^\d{4}-\d\d-\d\dT/);
        for (const doc of [left, right]) {
          delete doc.created_at;
          delete doc.receipt_sha256; // a receipt's hash covers its created_at
        }
        assert.deepEqual(right, left, name);
      } else {
        assert.deepEqual(b, a, name);
      }
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("the bundled CLI runs demo, eval, compare and export as deno run cli.ts does, and loads parsers and validators when eval's inputs need them", async () => {
  // In-process tests import mod.ts, which loads every package up front, and outside a bundle
  // a missing package is still found on first use. Only the single-file bundle (the offline
  // deliverable, README) shows that eval loads each package before it needs it.
  const dir = await Deno.makeTempDir({ prefix: "toolscore-lazy-" });
  try {
    const root = new URL("..", import.meta.url).pathname;
    for (const name of ["flights.yaml", "flights.jsonc", "good_run.json"]) {
      await Deno.copyFile(`${root}testdata/contract/${name}`, `${dir}/${name}`);
    }
    const schema = { type: "object", required: ["q"], properties: { q: { type: "string" } } };
    await Deno.writeTextFile(
      `${dir}/schema_gold.json`,
      JSON.stringify([{ tool: "search", args: { q: "x" }, metadata: { schema } }]),
    );
    await Deno.writeTextFile(`${dir}/gold.json`, '[{"tool": "search", "args": {"q": "x"}}]');
    await Deno.writeTextFile(`${dir}/wrong_type.json`, '[{"tool": "search", "args": {"q": 1}}]');
    await Deno.writeTextFile(`${dir}/broken.json`, '[{"tool": "search",}]');
    await Deno.writeTextFile(`${dir}/trace.yaml`, "- tool: search\n  args: {q: x}\n");
    const cli = `${dir}/toolscore.js`;
    // `deno task bundle`, writing to this folder instead of dist/.
    const task = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).tasks.bundle as string;
    assert.equal(task, "deno bundle --platform=deno -o dist/toolscore.js cli.ts");
    const bundled = await runDeno(
      ["bundle", "--quiet", "--platform=deno", "-o", cli, `${root}cli.ts`],
      { cwd: root },
    );
    assert.equal(bundled.code, 0, bundled.err);
    const run = (...args: string[]) =>
      runDeno([
        "run",
        "--no-config",
        "--no-prompt",
        `--allow-read=${dir}`,
        `--allow-write=${dir}`,
        cli,
        ...args,
      ], { cwd: dir });
    for (const contract of ["flights.yaml", "flights.jsonc"]) {
      const result = await run("eval", contract, "good_run.json");
      assert.equal(result.code, 0, result.err);
      assert.match(result.out, /score 1\.00 A/);
    }
    const schemaRun = await run("eval", "schema_gold.json", "wrong_type.json", "-v");
    assert.match(schemaRun.out, /schema compliance 0\.00/, schemaRun.err);
    // A plain JSON gold file loads nothing; the broken trace then needs jsonc-parser for the
    // position of its error, and the YAML trace needs js-yaml.
    const broken = await run("eval", "gold.json", "broken.json");
    assert.equal(broken.code, 2);
    assert.match(
      broken.err,
      /^toolscore: broken\.json:1:20: invalid JSON \(PropertyNameExpected\)/,
    );
    const yamlTrace = await run("eval", "gold.json", "trace.yaml");
    assert.equal(yamlTrace.code, 0, yamlTrace.err);
    const receipt = await run("eval", "flights.yaml", "good_run.json", "--receipt");
    assert.equal(receipt.code, 0, receipt.err);
    const verified = await run("verify", "good_run.receipt.json");
    assert.equal(verified.code, 0, verified.err);
    // Worker threads need their module beside the CLI; a bundle scores on one thread instead.
    await Deno.mkdir(`${dir}/runs`);
    for (let i = 0; i < 250; i++) {
      await Deno.writeTextFile(
        `${dir}/runs/r${i}.json`,
        '[{"tool": "search", "args": {"q": "x"}}]',
      );
    }
    const pooled = await run("eval", "gold.json", "runs", "-j", "2");
    assert.equal(pooled.code, 0, pooled.err);
    assert.match(pooled.out, /250 traces: 250 passed, 0 failed/);
    await assertBundleRunsAsSource(cli, root);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore eval stops quietly with 141 when the reader closes stdout early", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-pipe-" });
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify([{ tool: "a", args: { x: 1 } }]));
    await Deno.mkdir(`${dir}/runs`);
    for (let i = 0; i < 3000; i++) {
      const trace = [{ tool: "a", args: { x: i % 2 } }];
      await Deno.writeTextFile(`${dir}/runs/r${i}.json`, JSON.stringify(trace));
    }
    const cli = new URL("../cli.ts", import.meta.url).pathname;
    // A real pipe into head, which exits after the first line and closes it.
    const script = `"$0" run --no-prompt --allow-read="$1" "$2" eval "$1/gold.json" "$1/runs" ` +
      `| head -n 1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const output = await new Deno.Command("bash", {
      args: ["-c", script, Deno.execPath(), dir, cli],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const status = { code: Number(new TextDecoder().decode(output.stdout).trim()) };
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(status.code, 141);
    assert.equal(stderr, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore eval gives the same report on worker threads as on one thread", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-jobs-" });
  try {
    const gold = [{ tool: "search", args: { q: "x" } }, { tool: "open", args: { id: 1 } }];
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(gold));
    await Deno.mkdir(`${dir}/runs`);
    for (let i = 0; i < 450; i++) {
      const calls = [{ tool: "search", args: { q: i % 3 === 0 ? "y" : "x" } }];
      if (i % 5 !== 0) calls.push({ tool: "open", args: { id: 1 } } as never);
      await Deno.writeTextFile(
        `${dir}/runs/r${String(i).padStart(3, "0")}.json`,
        JSON.stringify(calls),
      );
    }
    for (const mode of [[], ["--json"]]) {
      const one = await run(["eval", `${dir}/gold.json`, `${dir}/runs`, "-j", "1", ...mode]);
      const two = await run(["eval", `${dir}/gold.json`, `${dir}/runs`, "-j", "2", ...mode]);
      assert.equal(one.code, 0, one.err);
      assert.equal(two.code, 0, two.err);
      assert.equal(two.out, one.out);
    }
    const gated = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/runs`,
      "-j",
      "2",
      "--min-score",
      "0.99",
    ]);
    assert.equal(gated.code, 1);
    assert.match(gated.out, /450 traces: 240 passed, 210 failed/);
    const bad = await run(["eval", `${dir}/gold.json`, `${dir}/runs`, "-j", "0"]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--jobs 0: expected a whole number/);
    // Issue 32: a folder's file that holds tool calls and cannot be read is unknown, and the run
    // goes on to a whole summary and exit 2, on worker threads as on one; one with no tool-call
    // content is no trace at all, skipped with a note.
    await Deno.writeTextFile(`${dir}/runs/r200.json`, '[{"tool": "search", "args": {');
    await Deno.writeTextFile(`${dir}/runs/r201.json`, "{ not json");
    for (const jobs of ["1", "2"]) {
      const broken = await run(["eval", `${dir}/gold.json`, `${dir}/runs`, "-j", jobs, "--json"]);
      assert.equal(broken.code, 2);
      assert.match(broken.err, /r200\.json: 1:\d+: invalid JSON/);
      assert.match(broken.err, /skipped 1 file that is not a trace .*r201\.json/);
      const summary = JSON.parse(broken.out).summary;
      assert.equal(summary.count, 448);
      assert.equal(summary.unknown, 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore eval --json documents validate against schemas/result.schema.json", async () => {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const schema = JSON.parse(await Deno.readTextFile("schemas/result.schema.json"));
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  for (const trace of ["good.json", "wrong_argument.json", "missing_call.json"]) {
    const { out } = await run(["eval", GOLD, `data/demo/${trace}`, "--json"]);
    const doc = JSON.parse(out);
    assert.ok(validate(doc), `${trace}: ${JSON.stringify(validate.errors)}`);
  }
  const contract = await run([
    "eval",
    "testdata/contract/flights.json",
    "testdata/contract/good_run.json",
    "--json",
  ]);
  assert.ok(validate(JSON.parse(contract.out)), JSON.stringify(validate.errors));
  const broken = { ...JSON.parse(contract.out), score: 1.5 };
  assert.equal(validate(broken), false);
});

Deno.test("toolscore eval --final-answer refuses several traces before scoring any", async () => {
  for (const traces of [["data/demo/"], ["testdata/eval/two.jsonl"]]) {
    const { code, out, err } = await run(["eval", GOLD, ...traces, "--final-answer", "done"]);
    assert.equal(code, 2);
    assert.equal(out, "");
    assert.match(err, /--final-answer applies to one trace; this run has several/);
  }
});

Deno.test("toolscore eval --json names every result by its source, and keeps what the reader said under trace", async () => {
  // A run file: every trace has a run envelope ({format, run, metadata}), which used to replace
  // the result's name, so results of several traces could not be told apart.
  const { out } = await run([
    "eval",
    GOLD,
    "data/demo/good.json",
    "testdata/formats/real/tau-bench-gpt-4o-airline.first4.json",
    "--json",
  ]);
  const doc = JSON.parse(out);
  const sources = doc.results.map((r: { source: string }) => r.source);
  assert.equal(sources[0], "data/demo/good.json");
  assert.ok(
    sources.length > 2 &&
      sources.slice(1).every((s: string) =>
        s.startsWith("testdata/formats/real/tau-bench-gpt-4o-airline.first4.json[")
      ),
    sources.join(", "),
  );
  assert.equal(new Set(sources).size, sources.length);
  assert.equal(doc.results[0].trace, undefined);
  for (const result of doc.results.slice(1)) {
    assert.equal(typeof result.trace?.format, "string");
    assert.equal(typeof result.trace?.run?.task, "string");
  }
  // One trace: its document alone, the envelope kept, no name.
  const single = JSON.parse(
    (await run(["eval", GOLD, "testdata/formats/real/openai-text.json", "--json"])).out,
  );
  assert.equal(single.source, undefined);
  assert.match(single.trace.notes[0], /^no tool calls/);
});
