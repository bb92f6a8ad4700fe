// Issue 42, item 5: past 50 variants, compare and select compare each variant with the best
// observed one (k − 1 pairs, and a note says so) instead of all k(k − 1)/2; --all-pairs forces
// every pair. 1,000 variants printed 144 MB before.
import assert from "node:assert/strict";
import { compareRuns, Run } from "../mod.ts";
import { ALL_PAIRS_UP_TO } from "../lib/stats/pair_cap.ts";
import { runCollect } from "./_cli.ts";

/** `count` variants of 10 runs each; variant v17 passes most. */
function manyVariants(count: number): Run[] {
  const runs: Run[] = [];
  for (let v = 0; v < count; v++) {
    const passes = v === 17 ? 10 : v % 7;
    for (let i = 0; i < 10; i++) runs.push(new Run(`v${v}`, "t", i < passes ? "pass" : "fail"));
  }
  return runs;
}

Deno.test("compareRuns() compares each of 60 variants with the best observed, and says so", () => {
  const comparison = compareRuns(manyVariants(60));
  assert.equal(comparison.pairs.length, 59);
  assert.ok(comparison.pairs.every((pair) => pair.a === "v17"));
  assert.match(
    comparison.notes[0]!,
    /^60 variants: each compared with v17, the best observed \(59 pairs\), not all 1770 pairs/,
  );
  assert.match(comparison.notes[0]!, /--baseline V .*--all-pairs/);
});

Deno.test("compareRuns() keeps every pair up to 50 variants, and with allPairs", () => {
  assert.equal(compareRuns(manyVariants(ALL_PAIRS_UP_TO)).pairs.length, (50 * 49) / 2);
  assert.equal(compareRuns(manyVariants(60), { allPairs: true }).pairs.length, (60 * 59) / 2);
  const chosen = compareRuns(manyVariants(60), { baseline: "v3" });
  assert.ok(chosen.pairs.every((pair) => pair.a === "v3"));
  assert.ok(!chosen.notes.some((note) => /the best observed/.test(note)));
});

Deno.test("compare of 1,000 variants prints output linear in the variants", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore_pairs_" });
  try {
    const rows: string[] = [];
    for (let v = 0; v < 1000; v++) {
      for (let repeat = 0; repeat < 2; repeat++) {
        const passed = (v + repeat) % 3 !== 0;
        rows.push(JSON.stringify({
          schema: "toolscore.agent_run/1",
          run_id: `v${v}-t-${repeat}`,
          arm_id: `v${v}`,
          task_id: "t",
          repeat,
          status: "ok",
          passed,
          outcome: passed ? "pass" : "fail",
          score: passed ? 1 : 0,
          error: null,
        }));
      }
    }
    await Deno.writeTextFile(`${dir}/runs.jsonl`, rows.join("\n") + "\n");
    const run = await runCollect(["compare", `${dir}/runs.jsonl`]);
    assert.equal(run.code, 0, run.err.slice(0, 2000));
    assert.match(
      run.out + run.err,
      /1000 variants: each compared with v1, the best observed \(999 pairs\)/,
    );
    assert.ok(run.out.length < 2_000_000, `${run.out.length} characters`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
