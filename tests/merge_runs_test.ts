// mergeRuns() on synthetic rows: any split of a matrix into shards, with shards and rows given
// again, merges into each row once; files reached through a symlink are placed as real files.
import assert from "node:assert/strict";
import fc from "fast-check";
import { tempDir } from "./_mcp.ts";
import { readRows } from "./_agent.ts";
import { runCollect } from "./_cli.ts";
import { mergeRuns } from "../lib/agent/merge_runs.ts";

function row(i: number): Record<string, unknown> {
  return {
    schema: "toolscore.agent_run/2",
    run_id: `a${i % 3}.t${i}.0.${String(i).padStart(12, "0")}`,
    arm_id: `a${i % 3}`,
    task_id: `t${i}`,
    repeat: 0,
    status: "ok",
    passed: i % 2 === 0,
  };
}

Deno.test("mergeRuns() gives every row once, whatever the split and whatever is given twice", async () => {
  const dir = await tempDir("merge_property");
  try {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 6 }),
        async (runs, shardOf, again) => {
          const folder = `${dir}/${round++}`;
          await Deno.mkdir(folder);
          const rows = Array.from({ length: runs }, (_, i) => row(i));
          const files = [0, 1, 2, 3].map((k) => `${folder}/shard-${k}.jsonl`);
          const lines: string[][] = [[], [], [], []];
          rows.forEach((r, i) => lines[shardOf[i]!]!.push(JSON.stringify(r)));
          // Rows given again, in another shard (a retried job's output), keys reordered.
          for (const i of again.filter((i) => i < runs)) {
            const r = rows[i]!;
            const reordered = Object.fromEntries(Object.entries(r).reverse());
            lines[(shardOf[i]! + 1) % 4]!.push(JSON.stringify(reordered));
          }
          await Promise.all(
            files.map((f, k) => Deno.writeTextFile(f, lines[k]!.map((l) => `${l}\n`).join(""))),
          );
          const output = `${folder}/merged.jsonl`;
          const result = await mergeRuns({ inputs: [...files, files[0]!], output });
          const merged = await readRows(output);
          assert.deepEqual(
            merged.map((r) => r.run_id).sort(),
            rows.map((r) => r.run_id).sort(),
          );
          const given = lines.flat().length + lines[0]!.length;
          assert.equal(result.duplicatesDropped, given - runs);
          assert.equal(result.rows, runs);
          assert.deepEqual(result.missing, []);
          assert.equal(result.plan, null);
        },
      ),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mergeRuns() with an out-dir places a file reached through a symlink as a real file, and rewrites the row's path", async () => {
  const dir = await tempDir("merge_symlink");
  try {
    await Deno.mkdir(`${dir}/shard/runs/a0`, { recursive: true });
    await Deno.writeTextFile(`${dir}/elsewhere.json`, '{"calls": []}\n');
    await Deno.symlink(`${dir}/elsewhere.json`, `${dir}/shard/runs/a0/t0-0.json`);
    await Deno.writeTextFile(
      `${dir}/shard/runs.jsonl`,
      `${JSON.stringify({ ...row(0), trace: "runs/a0/t0-0.json" })}\n`,
    );
    await Deno.mkdir(`${dir}/out`);
    const result = await mergeRuns({
      inputs: [`${dir}/shard/runs.jsonl`],
      output: `${dir}/out/runs.jsonl`,
      outDir: `${dir}/out/placed`,
    });
    assert.equal(result.files, 1);
    const [merged] = await readRows(`${dir}/out/runs.jsonl`);
    assert.equal(merged!.trace, "placed/a0/t0-0.json");
    const info = await Deno.lstat(`${dir}/out/placed/a0/t0-0.json`);
    assert.ok(info.isFile && !info.isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/out/placed/a0/t0-0.json`), '{"calls": []}\n');
    // Without an out-dir the path is rewritten relative to the output's folder.
    await mergeRuns({ inputs: [`${dir}/shard/runs.jsonl`], output: `${dir}/out/plain.jsonl` });
    const [plain] = await readRows(`${dir}/out/plain.jsonl`);
    assert.equal(plain!.trace, "../shard/runs/a0/t0-0.json");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore merge never writes over an input, and replaces an existing output only with --force", async () => {
  const dir = await tempDir("merge_target");
  try {
    const input = `${dir}/a.jsonl`;
    await Deno.writeTextFile(input, `${JSON.stringify(row(0))}\n${JSON.stringify(row(1))}\n`);
    const self = await runCollect(["merge", input, "-o", input, "--force"]);
    assert.equal(self.code, 2);
    assert.match(self.err, /-o .*a\.jsonl is the input .*a\.jsonl.*merge into a new file/);
    const cut = `${dir}/cut.jsonl`;
    await Deno.writeTextFile(cut, `${JSON.stringify(row(3))}\n{"run_id": "a1.t4`);
    const cutMerge = await runCollect(["merge", input, cut, "-o", `${dir}/never.jsonl`]);
    assert.equal(cutMerge.code, 2);
    assert.match(cutMerge.err, /cut\.jsonl:2: the last line is cut short .*run the shard again/);
    assert.equal(await Deno.stat(`${dir}/never.jsonl`).then(() => true, () => false), false);
    const output = `${dir}/merged.jsonl`;
    await Deno.writeTextFile(output, "earlier\n");
    const refused = await runCollect(["merge", input, "-o", output]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /exists: pass --force to replace it/);
    assert.equal(await Deno.readTextFile(output), "earlier\n");
    const forced = await runCollect(["merge", input, "-o", output, "--force", "--json"]);
    assert.equal(forced.code, 0, forced.err);
    assert.deepEqual(JSON.parse(forced.out), {
      rows: 2,
      duplicates_dropped: 0,
      missing: [],
      plan: null,
    });
    assert.equal((await readRows(output)).length, 2);
    // No input has a spend ledger: none is written, and nothing to note.
    assert.equal(forced.err, "");
    assert.equal(await Deno.stat(`${dir}/merged.spend.jsonl`).then(() => true, () => false), false);
    // One input with a ledger, one without: the merged ledger says what it lacks.
    const second = `${dir}/b.jsonl`;
    await Deno.writeTextFile(second, `${JSON.stringify(row(2))}\n`);
    await Deno.writeTextFile(`${dir}/b.spend.jsonl`, `{"arm_id":"a2","cost_usd":0.5}\n`);
    const mixed = await runCollect(["merge", input, second, "-o", output, "--force"]);
    assert.equal(mixed.code, 0, mixed.err);
    assert.match(mixed.err, /note: 1 input\(s\) have no spend ledger \(a\.jsonl…\)/);
    assert.equal(
      await Deno.readTextFile(`${dir}/merged.spend.jsonl`),
      `{"arm_id":"a2","cost_usd":0.5}\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
