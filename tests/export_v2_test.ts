import assert from "node:assert/strict";
import { iterateRecords, jsonSha256, recordFromRun, validateRecord, writeExport } from "../mod.ts";
import { RUN_RECORD_SCHEMA_V1_SHA256 } from "../lib/export/schema.ts";
import { recordSha256 } from "../lib/export/validate.ts";
import { validateExport } from "../lib/export/validate_export.ts";
import { runFromRow } from "../lib/stats/runs.ts";
import { runCollect } from "./_cli.ts";

const RUNS = "testdata/export/agent_runs.jsonl";
const SOURCE = { kind: "agent_run" as const, path: "runs.jsonl", sha256: "0".repeat(64), line: 1 };
const V2_FIELDS = [
  "status",
  "failed_checks",
  "prior_cost_usd",
  "model",
  "turns",
  "stop",
  "server_start_s",
  "error_kind",
  "task_class",
];
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".v2_", suffix: ".tmp" };

// A v2 record made v1: the fields v2 added removed, resealed.
function asV1(record: Record<string, unknown>): Record<string, unknown> {
  const v1: Record<string, unknown> = { ...record, schema_version: "1" };
  for (const field of V2_FIELDS) delete v1[field];
  const hashes = { ...(v1.hashes as Record<string, unknown>) };
  v1.hashes = { ...hashes, record_sha256: recordSha256({ ...v1, hashes }) };
  return v1;
}

Deno.test("the v1 record schema's hash is the one v1 manifests name", async () => {
  const v1 = JSON.parse(await Deno.readTextFile("testdata/export/run-record.v1.schema.json"));
  assert.equal(jsonSha256(v1), RUN_RECORD_SCHEMA_V1_SHA256);
});

Deno.test("recordFromRun() writes a v2 record with the fields v2 added", () => {
  const record = recordFromRun({
    schema: "toolscore.agent_run/2",
    arm_id: "mini",
    task_id: "refund",
    repeat: 0,
    run_id: "mini.refund.0.abcdef012345",
    status: "stopped",
    stop: "budget",
    outcome: "unknown",
    model: "gpt-4.1-mini",
    turns: 4,
    cost_usd: 0.01,
    prior_cost_usd: 0.02,
    failed_checks: ["required-calls", "credentials"],
    server_start_s: 0.31,
    error_kind: null,
  }, SOURCE);
  assert.equal(record.schema_version, "2");
  assert.equal(record.status, "stopped");
  assert.equal(record.stop, "budget");
  assert.equal(record.passed, null);
  assert.deepEqual(record.failed_checks, ["required-calls", "credentials"]);
  assert.equal(record.prior_cost_usd, 0.02);
  assert.equal(record.turns, 4);
  assert.equal(record.server_start_s, 0.31);
  assert.equal(record.error_kind, null);
  assert.equal(record.task_class, null);
  assert.deepEqual(validateRecord(record), []);
  assert.throws(() => recordFromRun({ arm_id: "a", turns: -1 }, SOURCE), /turns: expected/);
  assert.throws(() => recordFromRun({ arm_id: "a", status: "paused" }, SOURCE), /status: expected/);
  assert.throws(
    () => recordFromRun({ arm_id: "a", failed_checks: [""] }, SOURCE),
    /failed_checks\[0\]: expected a check name/,
  );
});

Deno.test("validateRecord() accepts v1 records and keeps each version's fields apart", () => {
  const v2 = JSON.parse(JSON.stringify(recordFromRun({ arm_id: "mini", passed: true }, SOURCE)));
  const v1 = asV1(v2);
  assert.deepEqual(validateRecord(v1), []);
  // A v1 record carrying a v2 field, and a v2 record missing one, are not records of either.
  const mixed = asV1(v2);
  mixed.model = "m";
  assert.ok(validateRecord(mixed).some((p) => p.startsWith("/model")), validateRecord(mixed)[0]);
  const { model: _, ...short } = v2;
  assert.ok(validateRecord(short).some((p) => /model/.test(p)), validateRecord(short)[0]);
  // Another version is refused.
  assert.ok(validateRecord({ ...v2, schema_version: "3" }).some((p) => /schema_version/.test(p)));
});

Deno.test("validate-export accepts a v1 export (records and manifest) and a v2 one", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const [jsonl, manifest] = await writeExport(`${dir}/v2.jsonl`, iterateRecords([RUNS]), [RUNS]);
    assert.deepEqual((await validateExport(jsonl)).problems, []);
    // The same export as an older toolscore wrote it.
    const lines = (await Deno.readTextFile(jsonl)).trim().split("\n");
    const v1Text = lines.map((line) => `${JSON.stringify(asV1(JSON.parse(line)))}\n`).join("");
    const v1 = `${dir}/v1.jsonl`;
    await Deno.writeTextFile(v1, v1Text);
    const written = JSON.parse(await Deno.readTextFile(manifest));
    const v1Manifest = {
      ...written,
      schema: { version: "1", sha256: RUN_RECORD_SCHEMA_V1_SHA256 },
      jsonl_sha256: (await import("../lib/base/canonical.ts")).sha256Hex(v1Text),
    };
    await Deno.writeTextFile(`${dir}/v1.manifest.json`, JSON.stringify(v1Manifest));
    const cli = await runCollect(["validate-export", v1]);
    assert.equal(cli.code, 0, cli.out + cli.err);
    // A v1 manifest naming the v2 schema's hash was written by neither.
    await Deno.writeTextFile(
      `${dir}/v1.manifest.json`,
      JSON.stringify({
        ...v1Manifest,
        schema: { ...v1Manifest.schema, sha256: written.schema.sha256 },
      }),
    );
    const wrong = await validateExport(v1);
    assert.match(wrong.problems[0]!.message, /schema\.sha256 is not the shipped run-record schema/);
    // v2 records under a v1 manifest: one export, one version.
    const mixedText = `${lines[0]}\n${v1Text.split("\n").slice(1).join("\n")}`;
    await Deno.writeTextFile(v1, mixedText);
    await Deno.writeTextFile(
      `${dir}/v1.manifest.json`,
      JSON.stringify({
        ...v1Manifest,
        jsonl_sha256: (await import("../lib/base/canonical.ts")).sha256Hex(mixedText),
      }),
    );
    const mixed = await validateExport(v1);
    assert.deepEqual(mixed.problems.map((p) => [p.line, p.message]), [
      [1, 'a record of schema_version "2" in an export whose manifest says "1"'],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runFromRow() reads v1 and v2 agent-run rows and refuses a newer version", () => {
  for (const schema of ["toolscore.agent_run/1", "toolscore.agent_run/2"]) {
    assert.equal(runFromRow({ schema, arm_id: "a", passed: true }).outcome, "pass");
  }
  assert.throws(
    () => runFromRow({ schema: "toolscore.agent_run/3", arm_id: "a" }),
    /^InputError: schema: "toolscore\.agent_run\/3" rows are not read by this toolscore/,
  );
});
