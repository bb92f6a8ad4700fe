import assert from "node:assert/strict";
import fc from "fast-check";
import { DuplicateRunError, loadRuns } from "../mod.ts";
import { rowFingerprint, RunRowIndex } from "../lib/stats/duplicates.ts";
import { key64, KeyTable } from "../lib/stats/_row_hash.ts";
import { runCollect } from "./_cli.ts";

const PAIRED = "testdata/runs/paired_example.jsonl";
// export reads agent-run rows by their keys (arm_id, task_id): v1 rows, still read.
const AGENT = "testdata/runs/agent_runs.jsonl";
const PROTOCOL = "testdata/runs/protocol_paired.yaml";
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".dup_", suffix: ".tmp" };

async function withTemp(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The same rows as PAIRED, in a second file with keys in another order (equal canonical JSON).
async function reordered(dir: string, from = PAIRED): Promise<string> {
  const lines = (await Deno.readTextFile(from)).trim().split("\n").map((line) => {
    const row = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(Object.fromEntries(Object.entries(row).reverse()));
  });
  const path = `${dir}/again-${from.split("/").at(-1)}`;
  await Deno.writeTextFile(path, `${lines.join("\n")}\n`);
  return path;
}

Deno.test("RunRowIndex.add() counts an exact duplicate once and refuses a conflict", () => {
  const index = new RunRowIndex();
  const run = { variant: "A", task: "t", repeat: 0, runId: "A.t.0.aaa" };
  assert.equal(index.add(run, { a: 1, b: 2 }, { file: "x.jsonl", line: 1 }), true);
  assert.equal(index.add(run, { b: 2, a: 1 }, { file: "y.jsonl", line: 4 }), false);
  assert.equal(index.duplicates, 1);
  assert.throws(
    () => index.add(run, { a: 1, b: 3 }, { file: "y.jsonl", line: 5 }),
    (error: Error) =>
      error instanceof DuplicateRunError && error.name === "DuplicateRunError" &&
      /^y\.jsonl:5: .*"A\.t\.0\.aaa".*x\.jsonl:1/.test(error.message),
  );
  // One cell under two run ids.
  assert.throws(
    () => index.add({ ...run, runId: "A.t.0.bbb" }, { a: 1 }, { file: "z.jsonl", line: 2 }),
    /^DuplicateRunError: z\.jsonl:2: variant "A", task "t", repeat 0 is run "A\.t\.0\.bbb" here but another run id at x\.jsonl:1/,
  );
});

Deno.test("RunRowIndex.add() exempts rows without a run id and stem-named runs", () => {
  const index = new RunRowIndex();
  const place = { file: "x.jsonl", line: 1 };
  const anonymous = { variant: "A", task: "t", repeat: 0, runId: "" };
  assert.equal(index.add(anonymous, { a: 1 }, place), true);
  assert.equal(index.add(anonymous, { a: 1 }, place), true);
  const stem = { variant: "A", task: "t", repeat: 0, runId: "t-0" };
  assert.equal(index.add(stem, { s: 1 }, place, { stemNamed: true }), true);
  assert.equal(index.add(stem, { s: 2 }, place, { stemNamed: true }), true);
  assert.equal(index.add({ ...stem, runId: "t_0" }, { s: 3 }, place, { stemNamed: true }), true);
  assert.equal(index.add(stem, { s: 1 }, place, { stemNamed: true }), false);
});

Deno.test("rowFingerprint() ignores key order at every level and nothing else", () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  fc.assert(fc.property(json, (value) => {
    const shuffled = JSON.parse(
      JSON.stringify(
        value,
        (_key, item) =>
          item !== null && typeof item === "object" && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item).reverse())
            : item,
      ),
    );
    assert.equal(rowFingerprint(shuffled), rowFingerprint(JSON.parse(JSON.stringify(value))));
  }));
  fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
    fc.pre(a !== b);
    assert.notEqual(rowFingerprint({ k: a }), rowFingerprint({ k: b }));
  }));
});

Deno.test("loadRuns() counts the same rows given twice once, with one note", async () => {
  await withTemp(async (dir) => {
    const again = await reordered(dir);
    const notes: string[] = [];
    const once = await loadRuns([PAIRED]);
    const twice = await loadRuns([PAIRED, again, PAIRED], { onNote: (text) => notes.push(text) });
    assert.deepEqual(twice.map((run) => run.toJSON()), once.map((run) => run.toJSON()));
    assert.equal(notes.length, 1);
    assert.match(
      notes[0]!,
      /^400 rows given twice counted once \(.*again-paired_example\.jsonl:1 repeats testdata\/runs\/paired_example\.jsonl:1, …\)$/,
    );
  });
});

Deno.test("compare, select, decide, plan and export give the same numbers for rows given twice", async () => {
  await withTemp(async (dir) => {
    const again = await reordered(dir);
    const cases: [string, string[]][] = [
      ["compare", ["compare", "--json"]],
      ["select", ["select", "--json"]],
      ["decide", ["decide", PROTOCOL, "--json"]],
      ["plan", ["plan", "--rate", "0.7", "--difference", "0.1", "--json"]],
    ];
    for (const [name, args] of cases) {
      const once = await runCollect([...args, PAIRED]);
      const twice = await runCollect([...args, PAIRED, again]);
      assert.equal(twice.code, once.code, `${name}: ${twice.err}`);
      assert.deepEqual(JSON.parse(twice.out), JSON.parse(once.out), name);
      assert.match(twice.err, /note: 200 rows given twice counted once/, name);
    }
    const agentAgain = await reordered(dir, AGENT);
    const one = await runCollect(["export", AGENT, "-o", `${dir}/one.jsonl`]);
    const two = await runCollect(["export", AGENT, agentAgain, "-o", `${dir}/two.jsonl`]);
    assert.equal(one.code, 0, one.err);
    assert.equal(two.code, 0, two.err);
    assert.match(two.err, /note: 120 rows given twice counted once/);
    const records = async (path: string) =>
      (await Deno.readTextFile(path)).trim().split("\n").map((line) => {
        const { run_id, variant, task, repeat, outcome, cost_usd } = JSON.parse(line);
        return { run_id, variant, task, repeat, outcome, cost_usd };
      });
    assert.deepEqual(await records(`${dir}/two.jsonl`), await records(`${dir}/one.jsonl`));
  });
});

Deno.test("compare, select, decide, plan and export exit 2 on two different rows of one run", async () => {
  await withTemp(async (dir) => {
    const cases = [
      ["compare"],
      ["select"],
      ["decide", PROTOCOL],
      ["plan", "--rate", "0.7", "--difference", "0.1"],
      ["export", "-o", `${dir}/out.jsonl`],
    ];
    for (const args of cases) {
      const input = args[0] === "export" ? AGENT : PAIRED;
      const lines = (await Deno.readTextFile(input)).trim().split("\n");
      const first = JSON.parse(lines[0]!);
      const variant = first.arm_id ?? first.variant;
      const task = first.task_id ?? first.task;
      const conflict = `${dir}/conflict.jsonl`;
      const flipped = { ...first, outcome: first.outcome === "pass" ? "fail" : "pass" };
      await Deno.writeTextFile(conflict, `${lines[5]}\n${JSON.stringify(flipped)}\n`);
      const cell = `${dir}/cell.jsonl`;
      await Deno.writeTextFile(cell, `${JSON.stringify({ ...first, run_id: "other" })}\n`);

      const run = await runCollect([...args, input, conflict]);
      assert.equal(run.code, 2, `${args[0]}: ${run.err}`);
      const where = input.replaceAll("/", "\\/").replaceAll(".", "\\.");
      assert.match(
        run.err,
        new RegExp(
          `conflict\\.jsonl:2: a second, different row of run "${first.run_id}" \\(variant "${variant}"\\); the first is ${where}:1`,
        ),
        args[0],
      );
      assert.equal(run.err.trim().split("\n").length, 1, run.err);
      const cells = await runCollect([...args, input, cell]);
      assert.equal(cells.code, 2, `${args[0]}: ${cells.err}`);
      assert.match(
        cells.err,
        new RegExp(
          `cell\\.jsonl:1: variant "${variant}", task "${task}", repeat 0 is run "other" here`,
        ),
        args[0],
      );
      assert.match(cells.err, /one run under two specs/);
    }
    await assert.rejects(() => Deno.stat(`${dir}/out.jsonl`), Deno.errors.NotFound);
  });
});

Deno.test("RunRowIndex keeps every run apart past its table's growth", () => {
  const index = new RunRowIndex();
  for (let i = 0; i < 20_000; i++) {
    const run = { variant: `v${i % 3}`, task: `t${i}`, repeat: 0, runId: `r${i}` };
    assert.equal(index.add(run, { i }, { file: "a.jsonl", line: i + 1 }), true);
  }
  for (let i = 0; i < 20_000; i += 997) {
    const run = { variant: `v${i % 3}`, task: `t${i}`, repeat: 0, runId: `r${i}` };
    assert.equal(index.add(run, { i }, { file: "b.jsonl", line: i + 1 }), false);
    assert.throws(
      () => index.add(run, { i: -1 }, { file: "b.jsonl", line: 1 }),
      new RegExp(`the first is a\\.jsonl:${i + 1}\\.`),
    );
  }
  assert.equal(index.duplicates, 21);
});

Deno.test("KeyTable gives back what a Map would, through every growth", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.string(), fc.nat(), fc.nat()), { maxLength: 3000 }),
      (entries) => {
        const table = new KeyTable();
        const map = new Map<string, [number, number, number]>();
        for (const [name, value, line] of entries) {
          const key = key64(name);
          if (map.has(name)) continue;
          table.set(key, value >>> 0, 0, line >>> 0);
          map.set(name, [value >>> 0, 0, line >>> 0]);
        }
        for (const [name, expected] of map) {
          assert.deepEqual(table.get(key64(name)), expected);
        }
        assert.equal(
          table.get(key64("\u0000not there")),
          map.has("\u0000not there") ? map.get("\u0000not there") : undefined,
        );
      },
    ),
    { numRuns: 30 },
  );
});
