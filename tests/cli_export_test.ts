import assert from "node:assert/strict";
import { sha256Hex } from "../lib/base/canonical.ts";
import { runCollect } from "./_cli.ts";

// Inside the repository (git-ignored), so --allow-read=. covers it.
const TEMP = {
  dir: new URL("..", import.meta.url).pathname,
  prefix: ".cli_export_",
  suffix: ".tmp",
};
const RUNS = "testdata/export/agent_runs.jsonl";
const CONTRACT = "testdata/export/contract.json";
const TRACES = "testdata/export/traces";

/** Run the CLI with a collecting CliIO. */
const cli = (...args: string[]) => runCollect(args);

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("toolscore export writes the JSONL and its manifest, and validate-export accepts them", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    const result = await cli(
      "export",
      RUNS,
      `${TRACES}/refund-0.json`,
      `${TRACES}/refund-1.json`,
      "--gold",
      CONTRACT,
      "--variant",
      "mini",
      "-o",
      out,
    );
    assert.equal(result.code, 0, result.err);
    assert.equal(
      result.out,
      `exported 14 records to ${out}\nmanifest: ${dir}/export.manifest.json\n`,
    );
    assert.equal(result.err, "");
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/export.manifest.json`));
    assert.equal(manifest.record_count, 14);
    assert.equal(manifest.jsonl_sha256, sha256Hex(await Deno.readFile(out)));
    assert.deepEqual(manifest.sources.map((s: { path: string }) => s.path), [
      RUNS,
      `${TRACES}/refund-0.json`,
      `${TRACES}/refund-1.json`,
    ]);

    const check = await cli("validate-export", out);
    assert.equal(check.code, 0, check.out);
    assert.equal(check.out, `${out}: ok (14 records; hashes, count and manifest check out)\n`);
  }));

Deno.test("toolscore validate-export catches one edited JSONL line, naming the line", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    assert.equal((await cli("export", RUNS, "-o", out)).code, 0);
    const lines = (await Deno.readTextFile(out)).split("\n");
    lines[4] = lines[4]!.replace('"outcome":"fail"', '"outcome":"pass"').replace(
      '"passed":false',
      '"passed":true',
    );
    assert.notEqual(lines.join("\n"), await Deno.readTextFile(out));
    await Deno.writeTextFile(out, lines.join("\n"));
    const { code, out: text } = await cli("validate-export", out);
    assert.equal(code, 1);
    assert.match(
      text,
      new RegExp(`^${out}:5: /hashes/record_sha256: does not match the record`, "m"),
    );
    assert.match(
      text,
      /export\.manifest\.json: jsonl_sha256 is .* the file was changed after export/,
    );
    assert.match(text, /: 2 problems in 12 records\n$/);

    const json = await cli("validate-export", out, "--json");
    assert.equal(json.code, 1);
    const report = JSON.parse(json.out);
    assert.deepEqual(report.exports[0].problems[0].line, 5);
  }));

Deno.test("toolscore validate-export names a wrong type with its pointer and line", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    assert.equal((await cli("export", RUNS, "-o", out)).code, 0);
    const lines = (await Deno.readTextFile(out)).split("\n");
    lines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), cost_usd: "0.002" });
    await Deno.writeTextFile(out, lines.join("\n"));
    const { code, out: text } = await cli("validate-export", out);
    assert.equal(code, 1);
    assert.match(text, new RegExp(`^${out}:2: /cost_usd: must be number or null$`, "m"));
  }));

Deno.test("toolscore validate-export counts the problems it does not list", async () => {
  // Agent-run rows are not an export: every line has problems, more than are listed.
  const { code, out } = await cli("validate-export", "testdata/runs/agent_runs.jsonl");
  assert.equal(code, 1);
  const lines = out.trim().split("\n");
  assert.equal(
    lines.filter((l) => /^testdata\/runs\/agent_runs\.jsonl:\d+: /.test(l)).length,
    1000,
  );
  const summary =
    /^testdata\/runs\/agent_runs\.jsonl: (\d+) problems \((\d+) not listed\) in (\d+) records$/
      .exec(lines.at(-1)!);
  assert.ok(summary, lines.at(-1));
  const [found, unlisted, records] = summary.slice(1).map(Number) as [number, number, number];
  assert.ok(unlisted > 0);
  assert.equal(found, lines.length - 1 + unlisted);
  assert.equal(
    records,
    (await Deno.readTextFile("testdata/runs/agent_runs.jsonl")).trim().split("\n").length,
  );
});

Deno.test("toolscore export fails on an unreadable input, naming it, and writes nothing", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    const missing = `${dir}/missing.jsonl`;
    const first = await cli("export", RUNS, missing, "-o", out);
    assert.equal(first.code, 2);
    assert.equal(first.err, `toolscore: ${missing}: file not found; check the path\n`);
    assert.deepEqual([...Deno.readDirSync(dir)], []);

    // An existing export is never replaced by a failing one.
    await Deno.writeTextFile(out, "keep me\n");
    await Deno.writeTextFile(`${dir}/bad.json`, "{ not json");
    const second = await cli("export", RUNS, `${dir}/bad.json`, "--gold", CONTRACT, "-o", out);
    assert.equal(second.code, 2);
    assert.match(second.err, new RegExp(`^toolscore: ${dir}/bad\\.json:1:`));
    assert.equal(await Deno.readTextFile(out), "keep me\n");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "bad.json",
      "export.jsonl",
    ]);
  }));

Deno.test("toolscore export notes unscored and unnamed trace records", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    const { code, err, out: text } = await cli(
      "export",
      `${TRACES}/runs.jsonl`,
      "-o",
      out,
      "--json",
    );
    assert.equal(code, 0, err);
    assert.deepEqual(JSON.parse(text), {
      records: 2,
      jsonl: out,
      manifest: `${dir}/export.manifest.json`,
    });
    assert.match(err, /2 records from traces or receipts have variant null; pass --variant V/);
    assert.match(err, /2 trace records are unscored \(outcome unknown\); pass --gold G/);
  }));

Deno.test("toolscore export reads a file given twice once, and says so", () =>
  withDir(async (dir) => {
    const out = `${dir}/export.jsonl`;
    const once = await cli("export", RUNS, "-o", out, "--json");
    const twice = await cli("export", RUNS, `./${RUNS}`, RUNS, "-o", out, "--json");
    assert.equal(twice.code, 0, twice.err);
    assert.equal(JSON.parse(twice.out).records, JSON.parse(once.out).records);
    assert.match(twice.err, /note: 2 inputs given more than once; each file is exported once/);
    assert.doesNotMatch(once.err, /more than once/);
    assert.equal((await cli("validate-export", out)).code, 0);
  }));

Deno.test("toolscore export and validate-export reject bad usage", () =>
  withDir(async (dir) => {
    const noOutput = await cli("export", RUNS);
    assert.equal(noOutput.code, 2);
    assert.match(noOutput.err, /give the output file with -o OUT\.jsonl/);
    const noInput = await cli("export", "-o", `${dir}/x.jsonl`);
    assert.equal(noInput.code, 2);
    const overInput = await cli("export", `${dir}/x.jsonl`, "-o", `${dir}/x.jsonl`);
    assert.equal(overInput.code, 2);
    assert.match(overInput.err, /is also an input/);
    const badScore = await cli("export", RUNS, "-o", `${dir}/x.jsonl`, "--min-score", "2");
    assert.equal(badScore.code, 2);
    assert.match(badScore.err, /--min-score 2: expected a number between 0 and 1/);
    const noFile = await cli("validate-export", `${dir}/none.jsonl`);
    assert.equal(noFile.code, 2);
    assert.match(noFile.err, /none\.jsonl: file not found/);
    assert.equal((await cli("validate-export")).code, 2);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    const help = await cli("export", "--help");
    assert.match(help.out, /^toolscore export INPUT… -o OUT\.jsonl/);
  }));
