// Issues 43 and 44: `toolscore eval DIR RESULTS…`, a folder of contracts as the gold — each trace
// scored against its own contract, per-category figures, waivers and BFCL-shaped score files.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { contractIdOf, loadContractFolder } from "../lib/evaluate/contract_folder.ts";

const TAU = "testdata/formats/real/tau-bench-gpt-4o-airline.first4.json";
const TAU2 = "testdata/formats/real/tau2-bench-restaurant-dual-control.json";

type Json = Record<string, unknown>;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-gold-folder-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const write = (path: string, value: unknown) =>
  Deno.writeTextFile(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));

// A contract per τ-bench task, from the task's own expected actions in the results file.
async function tauFolder(dir: string, tasks: number[]): Promise<string> {
  const records = JSON.parse(await Deno.readTextFile(TAU)) as {
    task_id: number;
    info: { task: { actions: { name: string; kwargs: Json }[] } };
  }[];
  const gold = `${dir}/gold`;
  await Deno.mkdir(gold);
  const contracts = [];
  for (const record of records.filter((r) => tasks.includes(r.task_id))) {
    const id = String(record.task_id);
    await write(`${gold}/task-${id}.json`, {
      contract_version: 2,
      required: record.info.task.actions.map((a) => ({ tool: a.name, args: a.kwargs })),
      source: { benchmark: "tau-bench", id, category: "airline" },
    });
    contracts.push({ id, file: `task-${id}.json` });
  }
  await write(`${gold}/index.json`, { contracts });
  return gold;
}

// BFCL-like contracts (pass: exact) and toolscore-envelope result lines carrying `bfcl_id`.
async function bfclFolder(dir: string): Promise<{ gold: string; results: string }> {
  const gold = `${dir}/gold`;
  await Deno.mkdir(gold);
  const contract = (id: string, category: string, tool: string, args: Json) => ({
    contract_version: 2,
    required: [{ tool, args }],
    pass: "exact",
    source: { benchmark: "bfcl", id, category },
  });
  await write(
    `${gold}/simple_python_0.json`,
    contract("simple_python_0", "simple_python", "area", { r: 2 }),
  );
  await write(
    `${gold}/simple_python_1.json`,
    contract("simple_python_1", "simple_python", "sum", { a: 1 }),
  );
  await write(
    `${gold}/live_simple_2-1-0.json`,
    contract("live_simple_2-1-0", "live_simple", "get", { k: "x" }),
  );
  await write(`${gold}/multiple_9.json`, contract("multiple_9", "multiple", "pick", { n: 3 }));
  await write(`${gold}/index.json`, {
    contracts: ["simple_python_0", "simple_python_1", "live_simple_2-1-0", "multiple_9"]
      .map((id) => ({ id, file: `${id}.json`, benchmark: "bfcl" })),
  });
  const line = (bfclId: string, tool: string, args: Json) =>
    JSON.stringify({
      format: "toolscore",
      model: "gpt-test",
      calls: [{ tool, args }],
      metadata: { bfcl_id: bfclId },
    });
  const results = `${dir}/results.jsonl`;
  await write(
    results,
    [
      line("simple_python_0", "area", { r: 2 }),
      line("simple_python_1", "sum", { a: 2 }),
      line("simple_python_1#2", "sum", { a: 1 }),
      line("live_simple_2-1-0", "get", { k: "y" }),
    ].join("\n") + "\n",
  );
  return { gold, results };
}

Deno.test("eval DIR scores each run of a τ-bench results file against its task's own contract", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2, 3]);
    const { code, out, err } = await runCollect(["eval", gold, TAU, "--json"]);
    assert.equal(code, 1, err); // every contract has min_score 0.9: it gates
    assert.doesNotMatch(err, /all scored against the one expected file/);
    const doc = JSON.parse(out);
    const byTask = new Map<string, Json>(doc.results.map((r: Json) => [r.source, r]));
    // Task 1's contract requires cancel_reservation, task 0's book_reservation: each its own.
    const expectedTools = (name: string) =>
      (byTask.get(`${TAU}[${name}]`)!.calls as { expected: { tool: string }[] }).expected
        .map((c) => c.tool);
    assert.deepEqual(byTask.get(`${TAU}[1#0]`)!.contract, { id: "1", path: `${gold}/task-1.json` });
    assert.deepEqual(expectedTools("0#0"), ["book_reservation"]);
    assert.deepEqual(expectedTools("1#0"), ["cancel_reservation"]);
    assert.deepEqual(expectedTools("3#0"), [
      "update_reservation_flights",
      "update_reservation_baggages",
    ]);
    assert.deepEqual(doc.summary.categories, {
      "tau-bench": { airline: { accuracy: 0, correct_count: 0, total_count: 4 } },
    });
    assert.deepEqual(doc.summary.contracts_without_trace, []);
    assert.deepEqual(doc.summary.gold_folder, { path: gold, contracts: 4 });
  });
});

Deno.test("eval DIR stops with exit 2 on a trace whose contract is not in the folder", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2]);
    const { code, out, err } = await runCollect(["eval", gold, TAU, "--json"]);
    assert.equal(code, 2);
    assert.equal(out, ""); // nothing half-written
    assert.match(err, /first4\.json\[3#0\]: no contract "3" \(its task\) in the gold folder/);
  });
});

Deno.test("eval DIR lists the contracts without a trace, on the console and in --json", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2, 3]);
    const index = JSON.parse(await Deno.readTextFile(`${gold}/index.json`));
    index.contracts.push({ id: "later", file: "task-0.json" });
    await write(`${gold}/index.json`, index);
    const console = await runCollect(["eval", gold, TAU, "-q"]);
    assert.match(console.out, /gold folder .*: 5 contracts, 4 scored, 1 without a trace: later/);
    assert.match(console.out, /tau-bench airline: accuracy 0\.0000 \(0 of 4\)/);
    const json = await runCollect(["eval", gold, TAU, "--json"]);
    assert.deepEqual(JSON.parse(json.out).summary.contracts_without_trace, ["later"]);
  });
});

Deno.test("eval DIR scores τ²-bench simulations against contracts made from their tasks", async () => {
  await withDir(async (dir) => {
    const file = JSON.parse(await Deno.readTextFile(TAU2)) as {
      tasks: {
        id: string;
        evaluation_criteria?: { actions?: { name: string; arguments: Json }[] };
      }[];
      simulations: { task_id: string }[];
    };
    const gold = `${dir}/gold`;
    await Deno.mkdir(gold);
    // No index: every contract file is one, its id the file name's stem.
    for (const task of file.tasks) {
      await write(`${gold}/${task.id}.json`, {
        required: (task.evaluation_criteria?.actions ?? [])
          .map((a) => ({ tool: a.name, args: a.arguments })),
        source: { benchmark: "tau2", id: task.id, category: "restaurant" },
      });
    }
    await write(`${gold}/README.md`, "not a contract");
    const { out, err } = await runCollect(["eval", gold, TAU2, "--json"]);
    const doc = JSON.parse(out);
    assert.equal(doc.results.length, file.simulations.length, err);
    const scored = doc.summary.categories.tau2.restaurant;
    assert.equal(scored.total_count, file.simulations.length);
    assert.equal(scored.accuracy, scored.correct_count / scored.total_count);
    const simulated = new Set(file.simulations.map((s) => s.task_id));
    assert.deepEqual(
      doc.summary.contracts_without_trace,
      file.tasks.map((t) => t.id).filter((id) => !simulated.has(id)),
    );
  });
});

Deno.test("eval DIR takes a BFCL id up to '#' and gives BFCL's per-category figures", async () => {
  await withDir(async (dir) => {
    const { gold, results } = await bfclFolder(dir);
    const { code, out, err } = await runCollect(["eval", gold, results, "--json"]);
    assert.equal(code, 1, err);
    const doc = JSON.parse(out);
    assert.deepEqual(doc.results.map((r: Json) => r.passed), [true, false, true, false]);
    assert.deepEqual(doc.summary.categories, {
      bfcl: {
        live_simple: { accuracy: 0, correct_count: 0, total_count: 1 },
        simple_python: { accuracy: 2 / 3, correct_count: 2, total_count: 3 },
      },
    });
    assert.deepEqual(doc.summary.contracts_without_trace, ["multiple_9"]);
  });
});

Deno.test("eval DIR --waivers leaves waived items out of the category figures and the gate", async () => {
  await withDir(async (dir) => {
    const { gold, results } = await bfclFolder(dir);
    const waivers = `${dir}/waivers.json`;
    await write(waivers, [
      {
        id: "live_simple_2-1-0",
        reason: "the answer names a parameter the doc lacks",
        link: "https://example.org/1",
      },
      { id: "simple_python_1", reason: "no output can pass" },
      { id: "parallel_multiple_12", reason: "not in this folder", link: null },
    ]);
    const json = await runCollect(["eval", gold, results, "--json", "--waivers", waivers]);
    assert.equal(json.code, 0, json.err); // the only failures are waived
    assert.match(
      json.err,
      /warning: 1 waiver names an id with no contract in .*, unused: parallel_multiple_12/,
    );
    const summary = JSON.parse(json.out).summary;
    assert.deepEqual(summary.categories, {
      bfcl: { simple_python: { accuracy: 1, correct_count: 1, total_count: 1 } },
    });
    assert.equal(summary.failed, 2); // every trace scored is still counted and shown
    assert.deepEqual(summary.waived.map((w: Json) => [w.id, w.passed, w.link]), [
      ["simple_python_1", false, null],
      ["simple_python_1", true, null],
      ["live_simple_2-1-0", false, "https://example.org/1"],
    ]);
    const console = await runCollect(["eval", gold, results, "--waivers", waivers]);
    assert.equal(console.code, 0);
    assert.match(console.out, /waived: 3 traces left out of the category figures and the gate:/);
    assert.match(
      console.out,
      /results\.jsonl\[2\] \(simple_python_1, failed\): no output can pass/,
    );
  });
});

Deno.test("eval --waivers refuses a bad waiver file and a gold file, naming the path", async () => {
  await withDir(async (dir) => {
    const { gold, results } = await bfclFolder(dir);
    const waivers = `${dir}/waivers.json`;
    await write(waivers, [{ id: "simple_python_1", reason: "x", note: "typo" }]);
    const bad = await runCollect(["eval", gold, results, "--waivers", waivers]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.err,
      /waivers\.json: \[0\]: unknown key "note"; a waiver has id, reason and link/,
    );
    assert.equal(bad.out, "");
    await write(waivers, [{ id: "simple_python_1" }]);
    assert.match(
      (await runCollect(["eval", gold, results, "--waivers", waivers])).err,
      /\[0\]: reason:/,
    );
    await write(`${dir}/one.json`, { required: [{ tool: "area" }] });
    const file = await runCollect(["eval", `${dir}/one.json`, results, "--waivers", waivers]);
    assert.equal(file.code, 2);
    assert.match(file.err, /--waivers needs GOLD to be a folder of contracts/);
  });
});

Deno.test("eval DIR --bfcl-score writes BFCL's score files, header first, one line per failure", async () => {
  await withDir(async (dir) => {
    const { gold, results } = await bfclFolder(dir);
    const waivers = `${dir}/waivers.json`;
    await write(waivers, [{ id: "live_simple_2-1-0", reason: "bad gold", link: null }]);
    const score = `${dir}/score/gpt-test`;
    const { code, err } = await runCollect([
      "eval",
      gold,
      results,
      "-q",
      "--bfcl-score",
      score,
      "--waivers",
      waivers,
    ]);
    assert.equal(code, 1, err);
    const simple = (await Deno.readTextFile(`${score}/non_live/BFCL_v4_simple_python_score.json`))
      .split("\n");
    // Python's json.dumps form: ", " and ": " separators; accuracy a float.
    assert.equal(
      simple[0],
      '{"accuracy": 0.6666666666666666, "correct_count": 2, "total_count": 3}',
    );
    assert.equal(simple.length, 3); // the header, one failure, the final newline
    const failure = JSON.parse(simple[1]!);
    assert.equal(failure.id, "simple_python_1");
    assert.equal(failure.model_name, "gpt-test");
    assert.equal(failure.test_category, "simple_python");
    assert.equal(failure.valid, false);
    assert.equal(failure.error_type, null);
    assert.ok(failure.error.length > 0);
    assert.deepEqual(failure.model_result_decoded, [{ sum: { a: 2 } }]);
    const live = (await Deno.readTextFile(`${score}/live/BFCL_v4_live_simple_score.json`)).split(
      "\n",
    );
    assert.equal(
      live[0],
      '{"accuracy": null, "correct_count": 0, "total_count": 0, "waived": [{"id": "live_simple_2-1-0", "reason": "bad gold", "link": null, "valid": false}]}',
    );
    assert.match(err, /bfcl score: .*BFCL_v4_simple_python_score\.json/);
    // Run again: its own score files are replaced; any other file is not.
    assert.equal((await runCollect(["eval", gold, results, "-q", "--bfcl-score", score])).code, 1);
    await write(`${score}/non_live/BFCL_v4_simple_python_score.json`, "my notes\n");
    const refused = await runCollect(["eval", gold, results, "-q", "--bfcl-score", score]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /exists and is not a score file/);
  });
});

Deno.test("eval DIR leaves the gold folder's own files out of a trace folder that holds them", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2, 3]);
    await Deno.copyFile(TAU, `${gold}/runs.json`);
    const { code, out, err } = await runCollect(["eval", gold, gold, "--json"]);
    assert.equal(code, 1, err);
    assert.match(
      err,
      /left 5 files of the gold folder .* out of the traces: the gold is never scored/,
    );
    assert.equal(JSON.parse(out).results.length, 4);
    // Named on its own, a contract of the folder is refused, not read as a trace.
    const named = await runCollect(["eval", gold, `${gold}/task-0.json`]);
    assert.equal(named.code, 2);
    assert.match(named.err, /task-0\.json is a file of the gold folder .*, not a trace/);
  });
});

Deno.test("eval DIR counts an entry once: the same result twice is an input error", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2, 3]);
    await Deno.copyFile(TAU, `${dir}/again.json`);
    const { code, err } = await runCollect(["eval", gold, TAU, `${dir}/again.json`, "-q"]);
    assert.equal(code, 2);
    assert.match(err, /0#0 is scored twice \(category airline\)/);
  });
});

Deno.test("eval DIR writes each trace's receipt with its own contract, bar and pass rule", async () => {
  await withDir(async (dir) => {
    const gold = await tauFolder(dir, [0, 1, 2, 3]);
    const contract = JSON.parse(await Deno.readTextFile(`${gold}/task-1.json`));
    await write(`${gold}/task-1.json`, { ...contract, min_score: 0.05, pass: "score" });
    const receipts = `${dir}/receipts`;
    const { code, err } = await runCollect(["eval", gold, TAU, "--receipt-dir", receipts, "-q"]);
    assert.equal(code, 1, err);
    const read = async (n: number) =>
      JSON.parse(
        await Deno.readTextFile(`${receipts}/tau-bench-gpt-4o-airline.first4.${n}.receipt.json`),
      );
    const [first, second] = [await read(1), await read(2)];
    assert.match(first.inputs.gold.path, /task-0\.json$/);
    assert.match(second.inputs.gold.path, /task-1\.json$/);
    assert.equal(first.result.min_score, 0.9);
    assert.equal(second.result.min_score, 0.05);
    assert.equal(second.result.passed, true);
  });
});

Deno.test("eval DIR reports bad folders in one line with the path, exit 2", async () => {
  await withDir(async (dir) => {
    const gold = `${dir}/gold`;
    await Deno.mkdir(gold);
    await write(`${gold}/index.json`, { items: [] });
    let result = await runCollect(["eval", gold, TAU]);
    assert.equal(result.code, 2);
    assert.match(
      result.err,
      /index\.json: expected \{"contracts": \[\{"id": \.\.\., "file": \.\.\.\}/,
    );
    await write(`${gold}/index.json`, { contracts: [{ id: "0", file: "../outside.json" }] });
    result = await runCollect(["eval", gold, TAU]);
    assert.match(
      result.err,
      /contracts\[0\]: file: expected a path relative to .* that stays inside it/,
    );
    await write(`${gold}/index.json`, { contracts: [{ id: "0", file: "missing.json" }] });
    result = await runCollect(["eval", gold, TAU]);
    assert.equal(result.code, 2);
    assert.match(result.err, /missing\.json/);
    await Deno.remove(`${gold}/index.json`);
    result = await runCollect(["eval", gold, TAU]);
    assert.match(result.err, /no contract files .* in this gold folder/);
    const bfcl = await runCollect(["eval", TAU, TAU, "--bfcl-score", `${dir}/s`]);
    assert.equal(bfcl.code, 2);
    assert.match(bfcl.err, /--bfcl-score needs GOLD to be a folder of contracts/);
  });
});

Deno.test("loadContractFolder() without an index refuses two files of one id", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/a.json`, { required: [{ tool: "x" }] });
    await write(`${dir}/b.yaml`, "required:\n  - tool: y\n");
    const folder = await loadContractFolder(dir);
    assert.deepEqual(folder.entries.map((e) => e.id), ["a", "b"]);
    assert.equal(folder.index, undefined);
    await write(`${dir}/a.yaml`, "required: []\n");
    await assert.rejects(() => loadContractFolder(dir), /a\.json and a\.yaml both have the id "a"/);
  });
});

Deno.test("contractIdOf() prefers the run's task, then the BFCL id, then the file stem", () => {
  const trace = { calls: [], format: "toolscore" as const };
  const both = { ...trace, run: { task: "t1" }, metadata: { bfcl_id: "simple_1#3" } };
  assert.equal(contractIdOf(both, "x.json"), "t1");
  assert.equal(contractIdOf({ ...trace, metadata: { bfcl_id: "a#b#c" } }, "x.json"), "a");
  assert.equal(contractIdOf(trace, "dir.d/name.trace.json"), "name.trace");
  assert.equal(contractIdOf(trace, "noext"), "noext");
});

Deno.test("eval DIR scores the same on worker threads, and writes a JUnit case per trace", async () => {
  await withDir(async (dir) => {
    const gold = `${dir}/gold`;
    const runs = `${dir}/runs`;
    await Deno.mkdir(gold);
    await Deno.mkdir(runs);
    for (let i = 0; i < 201; i++) {
      // No index: the file stem is the id, in the gold folder and for the trace.
      await write(`${gold}/item_${i}.json`, {
        required: [{ tool: "f", args: { n: i } }],
        source: { benchmark: "bfcl", id: `item_${i}`, category: i % 2 ? "odd" : "even" },
      });
      await write(`${runs}/item_${i}.json`, {
        format: "toolscore",
        calls: [{ tool: "f", args: { n: i % 3 === 0 ? -1 : i } }],
      });
    }
    const one = await runCollect(["eval", gold, runs, "--json", "-j", "1"]);
    const two = await runCollect(["eval", gold, runs, "--json", "-j", "2"]);
    assert.equal(one.code, 1, one.err);
    assert.equal(two.out, one.out);
    const summary = JSON.parse(one.out).summary;
    assert.deepEqual(summary.categories.bfcl.even, {
      accuracy: 67 / 101,
      correct_count: 67,
      total_count: 101,
    });
    const junit = `${dir}/junit.xml`;
    await runCollect(["eval", gold, runs, "-q", "--junit", junit]);
    const xml = await Deno.readTextFile(junit);
    assert.equal(xml.match(/<testcase /g)?.length, 201);
  });
});

Deno.test("the README's gold folder is the recorded τ-bench tasks' own expected actions", async () => {
  const folder = await loadContractFolder("testdata/gold_folder/tau-bench-airline");
  const records = [
    ...JSON.parse(await Deno.readTextFile(TAU)),
    JSON.parse(
      await Deno.readTextFile("testdata/formats/real/tau-bench-gpt-4o-airline.record12.json"),
    ),
  ] as { task_id: number; info: { task: { actions: { name: string; kwargs: Json }[] } } }[];
  assert.deepEqual(folder.entries.map((e) => e.id), records.map((r) => String(r.task_id)));
  for (const record of records) {
    const entry = folder.byId.get(String(record.task_id))!;
    const contract = JSON.parse(await Deno.readTextFile(entry.path));
    assert.deepEqual(
      contract.required,
      record.info.task.actions.map((a) => ({ tool: a.name, args: a.kwargs })),
    );
  }
});

Deno.test("contractIdOf() of a BFCL id is the id before the first '#', whatever follows", async () => {
  const fc = (await import("fast-check")).default;
  const trace = { calls: [], format: "toolscore" as const };
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }).filter((s) => !s.includes("#")),
      fc.option(fc.string(), { nil: undefined }),
      (id, repeat) => {
        const bfcl = repeat === undefined ? id : `${id}#${repeat}`;
        assert.equal(contractIdOf({ ...trace, metadata: { bfcl_id: bfcl } }, "f.json"), id);
      },
    ),
  );
});
