import assert from "node:assert/strict";
import fc from "fast-check";
import {
  buildReceipt,
  compareRuns,
  exportRecords,
  fileDigest,
  iterateRecords,
  jsonSha256,
  loadRuns,
  recordFromRun,
  RUN_RECORD_SCHEMA,
  type RunRecord,
  validateRecord,
  writeExport,
  writeReceipt,
} from "../mod.ts";
import { readTrace } from "../lib/formats/detect.ts";
import { sha256Hex } from "../lib/base/canonical.ts";
import { evaluateExpected, loadExpected } from "../lib/evaluate/expected.ts";
import {
  RUN_RECORD_SCHEMA_PATH,
  RUN_RECORD_SCHEMA_SHA256,
  SCHEMA_VERSION,
} from "../lib/export/schema.ts";
import { recordSha256 } from "../lib/export/validate.ts";
import { validateExport } from "../lib/export/validate_export.ts";
import { manifestPathOf } from "../lib/export/write.ts";

const RUNS = "testdata/export/agent_runs.jsonl";
const CONTRACT = "testdata/export/contract.json";
const TRACES = "testdata/export/traces";
const SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7c";
// Inside the repository (git-ignored), so --allow-read=. covers it.
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".export_", suffix: ".tmp" };
const SOURCE = { kind: "agent_run" as const, path: "runs.jsonl", sha256: "0".repeat(64), line: 1 };

/** Every trace file under testdata/formats, one format folder at a time (the invalid ones left out). */
const RAISED = "testdata/formats/real/tau-bench-assertions-agent-retail-80-89-two-raised.json";

function formatTraces(): string[] {
  const files: string[] = [];
  for (const folder of [...Deno.readDirSync("testdata/formats")].map((e) => e.name).sort()) {
    if (folder.startsWith("_") || !Deno.statSync(`testdata/formats/${folder}`).isDirectory) {
      continue;
    }
    for (const entry of [...Deno.readDirSync(`testdata/formats/${folder}`)]) {
      // real/ sidecars (*.expected.json) say what a trace reads as; they are not traces. A run
      // file with runs that raised is refused whole by export (tested on its own below).
      if (
        /\.jsonl?$/.test(entry.name) && !entry.name.endsWith(".expected.json") &&
        !RAISED.endsWith(entry.name)
      ) {
        files.push(`testdata/formats/${folder}/${entry.name}`);
      }
    }
  }
  return files.sort();
}

/** Receipts of the export traces, written by the receipts module into `dir`. */
async function writeReceipts(dir: string): Promise<string[]> {
  const expected = await loadExpected(CONTRACT);
  const paths: string[] = [];
  for (const name of ["refund-0", "refund-1"]) {
    const trace = `${TRACES}/${name}.json`;
    const result = evaluateExpected(expected, await readTrace(trace));
    const receipt = await buildReceipt(result, {
      inputs: { gold: CONTRACT, trace },
      minScore: 0.8,
      relativeTo: dir,
    });
    paths.push(await writeReceipt(`${dir}/${name}.receipt.json`, receipt));
  }
  return paths;
}

function noTemps(dir: string): void {
  const left = [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith(".toolscore-"));
  assert.deepEqual(left, [], "temporary files left behind");
}

Deno.test("exportRecords() writes records that validate, for every kind of input", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const receipts = await writeReceipts(dir);
    const traces = [...[...Deno.readDirSync(TRACES)].map((e) => `${TRACES}/${e.name}`).sort()];
    const formats = formatTraces();
    assert.ok(formats.length >= 15, `only ${formats.length} format traces`);
    const inputs = [RUNS, ...traces, ...formats, ...receipts];
    const records = await exportRecords(inputs, { gold: CONTRACT, variant: "mini" });
    for (const record of records) {
      assert.deepEqual(validateRecord(record), [], `${record.source.path}:${record.source.line}`);
      // Through JSON and back, as a reader of the file sees it.
      assert.deepEqual(validateRecord(JSON.parse(JSON.stringify(record))), []);
    }
    const kinds = new Set(records.map((r) => r.source.kind));
    assert.deepEqual([...kinds].sort(), ["agent_run", "receipt", "trace"]);
    const paths = new Set(records.map((r) => r.source.path));
    for (const input of inputs) assert.ok(paths.has(input), `no record from ${input}`);
    // Each supported format appears.
    const folders = [...Deno.readDirSync("testdata/formats")]
      .filter((e) => e.isDirectory && !e.name.startsWith("_")).map((e) => e.name);
    assert.ok(folders.length >= 9, folders.join(", "));
    for (const format of folders) {
      assert.ok(records.some((r) => r.source.path.includes(`/formats/${format}/`)), format);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportRecords() refuses a run file whose runs raised, naming the run", async () => {
  // Nothing is half-written: the file's readable runs are not exported without the raised ones.
  await assert.rejects(
    () => exportRecords([RAISED], { gold: CONTRACT, variant: "mini" }),
    (error: Error) =>
      error.name === "InputError" && /\[4\]\.traj: the run raised/.test(error.message),
  );
});

Deno.test("recordFromRun() reads an agent-run row as the API reference describes", async () => {
  const rows = (await Deno.readTextFile(RUNS)).trim().split("\n").map((l) => JSON.parse(l));
  const record = recordFromRun(rows[0], SOURCE);
  assert.equal(record.schema_version, "2");
  assert.equal(record.record_type, "run");
  // The v2 fields: carried from the row, unknown ones null.
  assert.equal(record.model, rows[0].model);
  assert.equal(record.status, rows[0].status);
  assert.equal(record.failed_checks, null);
  assert.equal(record.server_start_s, null);
  assert.equal(record.run_id, rows[0].run_id);
  assert.equal(record.variant, rows[0].arm_id);
  assert.equal(record.task, rows[0].task_id);
  assert.equal(record.repeat, rows[0].repeat);
  assert.equal(record.outcome, rows[0].outcome);
  assert.equal(record.score, rows[0].score);
  assert.equal(record.cost_usd, rows[0].cost_usd);
  assert.deepEqual(record.usage, rows[0].usage);
  assert.deepEqual(record.source, SOURCE);
  assert.deepEqual(record.producer.name, "toolscore");
  assert.equal(
    record.hashes.record_sha256,
    recordSha256(record as unknown as Record<string, unknown>),
  );
  // record_sha256 is jsonSha256 of the record without that one field.
  const { record_sha256: _, ...otherHashes } = record.hashes;
  assert.equal(record.hashes.record_sha256, jsonSha256({ ...record, hashes: otherHashes }));
});

Deno.test("recordFromRun() keeps unknown values null, never 0 or empty", () => {
  const record = recordFromRun({ arm_id: "mini", status: "error", error: "" }, SOURCE);
  assert.equal(record.outcome, "error");
  assert.equal(record.passed, null);
  for (const key of ["run_id", "task", "repeat", "score", "grade", "min_score"] as const) {
    assert.equal(record[key], null, key);
  }
  assert.equal(record.cost_usd, null);
  assert.equal(record.duration_s, null);
  assert.deepEqual(record.usage, { input_tokens: null, output_tokens: null });
  assert.equal(record.evidence, null);
  assert.equal(record.error, null);
  assert.deepEqual(record.hashes.trace_sha256, null);
  // A known zero stays zero.
  assert.equal(recordFromRun({ arm_id: "a", cost_usd: 0, passed: false }, SOURCE).cost_usd, 0);
});

Deno.test("recordFromRun() rejects bad rows, naming the key", () => {
  assert.throws(() => recordFromRun({ task_id: "refund" }, SOURCE), /names no variant/);
  assert.throws(
    () => recordFromRun({ arm_id: "a", score: 1.5 }, SOURCE),
    /^InputError: score: .*up to 1/,
  );
  assert.throws(() => recordFromRun({ arm_id: "a", repeat: -1 }, SOURCE), /^InputError: repeat: /);
  assert.throws(() => recordFromRun({ arm_id: "a", grade: "Z" }, SOURCE), /^InputError: grade: /);
  assert.throws(
    () => recordFromRun({ arm_id: "a", usage: { input_tokens: "many" } }, SOURCE),
    /^InputError: input_tokens: /,
  );
});

Deno.test("validateRecord() catches a record with one field edited by its hash", () => {
  const record = recordFromRun(
    { arm_id: "mini", task_id: "refund", passed: true, score: 0.95 },
    SOURCE,
  );
  assert.deepEqual(validateRecord(record), []);
  assert.deepEqual(validateRecord({ ...record, score: 0.5 }), [
    "/hashes/record_sha256: does not match the record; a field was changed after export",
  ]);
  assert.deepEqual(validateRecord({ ...record, source: { ...record.source, line: 2 } }).length, 1);
});

Deno.test("validateRecord() names a wrong type with a readable pointer", () => {
  const record = recordFromRun({ arm_id: "mini", cost_usd: 0.003 }, SOURCE);
  const problems = validateRecord({ ...record, cost_usd: "0.003" });
  assert.equal(problems[0], "/cost_usd: must be number or null");
  assert.deepEqual(
    validateRecord({ ...record, usage: { input_tokens: 1.5, output_tokens: null } })[0],
    "/usage/input_tokens: must be integer or null",
  );
  assert.deepEqual(
    validateRecord({ ...record, extra: 1 })[0],
    "/extra: is not a field of a run record",
  );
  const { variant: _, ...missing } = record;
  assert.equal(validateRecord(missing)[0], "/variant: is missing");
  assert.deepEqual(validateRecord("x"), ["/: must be object"]);
});

Deno.test("RUN_RECORD_SCHEMA is the shipped schema file", async () => {
  const file = JSON.parse(await Deno.readTextFile("schemas/run-record.schema.json"));
  assert.deepEqual(RUN_RECORD_SCHEMA, file);
  assert.equal(RUN_RECORD_SCHEMA_SHA256, jsonSha256(file));
  // Its path, exported for tools that take a schema file, is that file.
  assert.equal(
    await Deno.realPath(RUN_RECORD_SCHEMA_PATH),
    await Deno.realPath("schemas/run-record.schema.json"),
  );
});

Deno.test("exportRecords() never writes a credential in clear", async () => {
  const records = await exportRecords([RUNS, `${TRACES}/refund_r2.json`], { gold: CONTRACT });
  const text = JSON.stringify(records);
  assert.ok(!text.includes(SECRET));
  assert.ok(!text.includes("AKIAIOSFODNN7EXAMPLE"));
  const errored = records.find((r) => r.outcome === "error")!;
  assert.match(errored.error!, /^OpenAI API error 401: invalid key sk-p…7c after 3 retries$/);
  assert.deepEqual(validateRecord(errored), []);
});

Deno.test("exportRecords() reads traces: run id, task and repeat from the name, sums of costs", async () => {
  const records = await exportRecords(
    [`${TRACES}/refund-0.json`, `${TRACES}/refund-1.json`, `${TRACES}/refund_r2.json`],
    { gold: CONTRACT, variant: "mini" },
  );
  const [first, second, third] = records as [RunRecord, RunRecord, RunRecord];
  assert.deepEqual(
    records.map((r) => [r.run_id, r.task, r.repeat, r.variant]),
    [["refund-0", "refund", 0, "mini"], ["refund-1", "refund", 1, "mini"], [
      "refund_r2",
      "refund",
      2,
      "mini",
    ]],
  );
  assert.equal(first.outcome, "pass");
  assert.equal(first.passed, true);
  assert.equal(first.score, 1);
  assert.equal(first.min_score, 0.8); // the contract's
  assert.ok(Math.abs(first.cost_usd! - 0.0031) < 1e-12);
  assert.ok(Math.abs(first.duration_s! - 1.04) < 1e-12);
  assert.deepEqual(first.usage, { input_tokens: 1210, output_tokens: 184 });
  assert.deepEqual(first.evidence, { pass: 6, fail: 0, unknown: 0 });
  const bytes = await Deno.readFile(`${TRACES}/refund-0.json`);
  assert.equal(first.source.sha256, sha256Hex(bytes));
  assert.equal(first.hashes.trace_sha256, sha256Hex(bytes));
  assert.equal(first.source.line, null);
  assert.equal(second.outcome, "fail"); // the refund is missing
  assert.equal(second.cost_usd, null); // no call carries a cost
  assert.deepEqual(second.usage, { input_tokens: 1302, output_tokens: 96 });
  assert.equal(third.cost_usd, null); // one call lacks its cost
  assert.ok(Math.abs(third.duration_s! - 1.4) < 1e-12);
});

Deno.test("exportRecords() gives one record per line of a JSONL trace file", async () => {
  const records = await exportRecords([`${TRACES}/runs.jsonl`], { gold: CONTRACT });
  assert.deepEqual(records.map((r) => [r.run_id, r.source.line, r.outcome]), [
    ["runs:1", 1, "pass"],
    ["runs:3", 3, "fail"],
  ]);
  const lines = (await Deno.readTextFile(`${TRACES}/runs.jsonl`)).split("\n");
  assert.equal(records[0]!.hashes.trace_sha256, sha256Hex(lines[0]!));
  assert.equal(records[0]!.variant, null);
});

Deno.test("exportRecords() without a gold file leaves trace scores null and the outcome unknown", async () => {
  const [record] = await exportRecords([`${TRACES}/refund-0.json`]);
  assert.equal(record!.outcome, "unknown");
  assert.equal(record!.passed, null);
  assert.equal(record!.score, null);
  assert.equal(record!.evidence, null);
  assert.ok(record!.cost_usd !== null);
  assert.deepEqual(validateRecord(record), []);
});

Deno.test("exportRecords() reads receipts: their verdict, evidence and hashes", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const [path] = await writeReceipts(dir);
    const receipt = JSON.parse(await Deno.readTextFile(path!));
    const [record] = await exportRecords([path!], { variant: "mini" });
    assert.equal(record!.source.kind, "receipt");
    assert.equal(record!.run_id, "refund-0");
    assert.equal(record!.task, "refund");
    assert.equal(record!.repeat, 0);
    assert.equal(record!.score, receipt.result.score);
    assert.equal(record!.passed, receipt.result.passed);
    assert.equal(record!.min_score, 0.8);
    assert.deepEqual(record!.evidence, receipt.result.evidence);
    assert.equal(record!.hashes.receipt_sha256, receipt.receipt_sha256);
    assert.equal(record!.hashes.trace_sha256, receipt.inputs.trace.sha256);
    assert.ok(Math.abs(record!.cost_usd! - 0.0031) < 1e-12);
    // A stricter bar re-judges it; an edited receipt is refused.
    const [strict] = await exportRecords([path!], { minScore: 1 });
    assert.equal(strict!.min_score, 1);
    await Deno.writeTextFile(
      path!,
      JSON.stringify({ ...receipt, created_at: "2020-01-01T00:00:00Z" }),
    );
    await assert.rejects(exportRecords([path!]), /receipt_sha256 does not match/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeExport() writes a manifest whose hashes and count match the files", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const inputs = [RUNS, `${TRACES}/refund-0.json`];
    const [jsonl, manifestPath] = await writeExport(
      `${dir}/out.jsonl`,
      iterateRecords(inputs, { gold: CONTRACT, variant: "mini" }),
      inputs,
    );
    assert.equal(manifestPath, `${dir}/out.manifest.json`);
    assert.equal(manifestPathOf(jsonl), manifestPath);
    const text = await Deno.readTextFile(jsonl);
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
    assert.equal(manifest.jsonl_sha256, sha256Hex(await Deno.readFile(jsonl)));
    assert.equal(manifest.record_count, text.trimEnd().split("\n").length);
    assert.equal(manifest.record_count, 13);
    assert.deepEqual(manifest.schema, {
      version: SCHEMA_VERSION,
      sha256: RUN_RECORD_SCHEMA_SHA256,
    });
    assert.deepEqual(manifest.sources, await Promise.all(inputs.map(fileDigest)));
    assert.match(manifest.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(text.endsWith("}\n") && !text.includes("\r"));
    assert.deepEqual(await validateExport(jsonl), { recordCount: 13, problems: [], unlisted: 0 });
    noTemps(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeExport() takes an array; the JSONL reads back to the same records", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const records = await exportRecords([RUNS]);
    const [jsonl] = await writeExport(`${dir}/out.jsonl`, records, [RUNS]);
    const back = (await Deno.readTextFile(jsonl)).trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(back, records);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeExport() refuses an invalid record and writes nothing", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const [good] = await exportRecords([RUNS]);
    const edited = { ...good!, score: 0.01 };
    await assert.rejects(
      writeExport(`${dir}/out.jsonl`, [good!, edited], [RUNS]),
      /record 2: not a valid run record \(\/hashes\/record_sha256: does not match/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeExport() fails on an unreadable input, naming it, and leaves an existing OUT alone", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const out = `${dir}/out.jsonl`;
    await Deno.writeTextFile(out, "old export\n");
    await Deno.writeTextFile(`${dir}/broken.json`, '{"calls": [');
    for (const bad of [`${dir}/missing.jsonl`, `${dir}/broken.json`]) {
      const inputs = [RUNS, bad];
      await assert.rejects(
        writeExport(out, iterateRecords(inputs, { gold: CONTRACT }), [RUNS]),
        (error: Error) => error.name === "InputError" && error.message.includes(bad),
      );
      assert.equal(await Deno.readTextFile(out), "old export\n");
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
        "broken.json",
        "out.jsonl",
      ]);
    }
    // A bad row in the middle of a run file names its line.
    const rows = await Deno.readTextFile(RUNS);
    await Deno.writeTextFile(
      `${dir}/rows.jsonl`,
      rows.replace('"arm_id":"large"', '"arm":7,"x":"'),
    );
    await assert.rejects(
      writeExport(out, iterateRecords([`${dir}/rows.jsonl`]), []),
      new RegExp(`${dir}/rows\\.jsonl:7: not valid JSON`),
    );
    assert.equal(await Deno.readTextFile(out), "old export\n");
    noTemps(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeExport() refuses a folder as OUT, and to write over one of its inputs", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const runs = `${dir}/runs.jsonl`;
    await Deno.copyFile(RUNS, runs);
    const before = await Deno.readFile(runs);
    await assert.rejects(
      writeExport(runs, iterateRecords([runs]), [runs]),
      new RegExp(`${dir}/runs\\.jsonl: is also an input \\(${dir}/runs\\.jsonl\\)`),
    );
    // The manifest's name counts too: `out` writes `out.manifest.json`.
    await Deno.writeTextFile(`${dir}/out.manifest.json`, "{}");
    await assert.rejects(
      writeExport(`${dir}/out.jsonl`, iterateRecords([runs]), [runs, `${dir}/out.manifest.json`]),
      /out\.manifest\.json: is also an input/,
    );
    assert.deepEqual(await Deno.readFile(runs), before);
    assert.equal(await Deno.readTextFile(`${dir}/out.manifest.json`), "{}");
    // A folder as OUT: said plainly, nothing written into it.
    await Deno.mkdir(`${dir}/folder`);
    await assert.rejects(
      writeExport(`${dir}/folder`, iterateRecords([runs]), [runs]),
      /folder: is a folder; give a file path for the export/,
    );
    assert.deepEqual([...Deno.readDirSync(`${dir}/folder`)], []);
    await Deno.remove(`${dir}/folder`);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "out.manifest.json",
      "runs.jsonl",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateExport() catches an edited line, naming it, and a wrong count", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const [jsonl, manifest] = await writeExport(`${dir}/out.jsonl`, iterateRecords([RUNS]), [RUNS]);
    const lines = (await Deno.readTextFile(jsonl)).split("\n");
    lines[2] = lines[2]!.replace('"duration_s":', '"duration_s":1');
    await Deno.writeTextFile(jsonl, lines.join("\n"));
    const { problems } = await validateExport(jsonl);
    assert.deepEqual(problems.map((p) => [p.file, p.line]), [[jsonl, 3], [manifest, null]]);
    assert.match(problems[0]!.message, /record_sha256: does not match/);
    assert.match(problems[1]!.message, /^jsonl_sha256 is .* the file was changed after export$/);

    // A dropped line: every record still checks out, but the count and hash do not.
    lines.splice(2, 1);
    await Deno.writeTextFile(jsonl, lines.join("\n"));
    const dropped = await validateExport(jsonl);
    assert.equal(dropped.recordCount, 11);
    assert.ok(
      dropped.problems.some((p) => /record_count is 12 but the JSONL file has 11/.test(p.message)),
    );

    // A wrong type is named with its pointer and line.
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), cost_usd: "cheap" });
    await Deno.writeTextFile(jsonl, lines.join("\n"));
    const typed = await validateExport(jsonl);
    assert.deepEqual(typed.problems[0], {
      file: jsonl,
      line: 1,
      message: "/cost_usd: must be number or null",
    });

    await Deno.remove(manifest);
    const orphan = await validateExport(jsonl);
    assert.match(orphan.problems.at(-1)!.message, /cannot read the manifest/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateExport() names a blank line and a last line cut short", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const [jsonl] = await writeExport(`${dir}/out.jsonl`, iterateRecords([RUNS]), [RUNS]);
    const text = await Deno.readTextFile(jsonl);
    assert.deepEqual((await validateExport(jsonl)).problems, []);
    // A blank line after line 2, then the last line cut in the middle.
    const lines = text.split("\n");
    lines.splice(2, 0, "");
    const cut = lines.join("\n").slice(0, -40);
    await Deno.writeTextFile(jsonl, cut);
    const { recordCount, problems } = await validateExport(jsonl);
    assert.equal(recordCount, 12);
    const lineProblems = problems.filter((p) => p.file === jsonl);
    assert.deepEqual(lineProblems.map((p) => [p.line, p.message.replace(/ \(.*\)$/, "")]), [
      [3, "blank line; every line must be one record"],
      [13, "not valid JSON"],
      [13, "the last line has no line break; the file may be cut short"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exported records read back as the same runs: compare gives the same numbers", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    for (const input of [RUNS, "testdata/runs/agent_runs.jsonl"]) {
      const [jsonl] = await writeExport(`${dir}/out.jsonl`, iterateRecords([input]), [input]);
      const before = compareRuns(await loadRuns([input])).toJSON();
      const after = compareRuns(await loadRuns([jsonl])).toJSON();
      assert.deepEqual(after, before);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("recordFromRun() gives a valid record for any well-formed row", () => {
  const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
  const row = fc.record({
    arm_id: fc.string({ minLength: 1, maxLength: 12 }),
    task_id: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    run_id: nullable(fc.string({ maxLength: 20 })),
    repeat: nullable(fc.nat(1000)),
    outcome: fc.constantFrom("pass", "fail", "error", "unknown", undefined),
    status: fc.constantFrom("ok", "error", undefined),
    passed: fc.constantFrom(true, false, null, undefined),
    score: nullable(fc.double({ min: 0, max: 1, noNaN: true })),
    grade: fc.constantFrom("A", "B", "C", "D", "F", null),
    cost_usd: nullable(fc.double({ min: 0, max: 100, noNaN: true })),
    duration_s: nullable(fc.double({ min: 0, max: 1e5, noNaN: true })),
    usage: nullable(
      fc.record({ input_tokens: nullable(fc.nat()), output_tokens: nullable(fc.nat()) }),
    ),
    error: nullable(fc.string({ maxLength: 40 })),
  });
  fc.assert(
    fc.property(row, (value) => {
      const record = recordFromRun(value, SOURCE);
      assert.deepEqual(validateRecord(JSON.parse(JSON.stringify(record))), []);
      const edited = { ...record, variant: `${record.variant}!` };
      assert.equal(validateRecord(edited).length, 1);
    }),
    { numRuns: 200 },
  );
});
