// Regenerates the two worked examples of the README's "Paired and clustered comparisons":
//   deno run --allow-write=testdata/runs testdata/runs/generate_examples.ts
// Hand-set per-task pass counts, no randomness, so the files never change unless this does.

const write = (name: string, rows: unknown[]) =>
  Deno.writeTextFileSync(
    new URL(`./${name}`, import.meta.url),
    rows.map((row) => JSON.stringify(row)).join("\n") + "\n",
  );

// 1. paired_example.jsonl: 20 tasks × 5 repeats. Tasks differ wildly in difficulty (A passes
// 5 of 5 on the easiest, 0 of 5 on the hardest). B passes every repeat A passes plus one more on
// 13 tasks, and one fewer on one task. Pooled, 48/100 vs 60/100 is noise to Fisher; paired by
// (task, repeat), B wins 13 runs to 1.
const A = [5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0];
const B = A.map((a, task) => task >= 2 && task <= 14 ? a + 1 : task === 15 ? a - 1 : a);
const paired: unknown[] = [];
for (const [variant, passes, cost] of [["A", A, 0.002], ["B", B, 0.0035]] as const) {
  passes.forEach((count, task) => {
    for (let repeat = 0; repeat < 5; repeat++) {
      paired.push({
        run_id: `${variant}-task${String(task + 1).padStart(2, "0")}-${repeat}`,
        variant,
        task: `task${String(task + 1).padStart(2, "0")}`,
        repeat,
        outcome: repeat < count ? "pass" : "fail",
        cost_usd: cost,
      });
    }
  });
}
write("paired_example.jsonl", paired);

// 2. clustered_example.jsonl: 20 tasks × 5 runs, and every task passes all five runs or none:
// the runs of a task are copies of each other. A passes 7 tasks, B 13 (B wins 8 tasks, A 2).
// 35/100 vs 65/100 looks decisive to Fisher and the Wilson intervals, but it is 20 tasks, not
// 100 runs. The runs carry no repeat number (collected on different days), so they are not
// matched one to one and the paired test is the sign-flip test over tasks.
const passA = new Set([0, 1, 2, 3, 4, 5, 6]);
const passB = new Set([0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14]);
const clustered: unknown[] = [];
for (const [variant, passing] of [["A", passA], ["B", passB]] as const) {
  for (let task = 0; task < 20; task++) {
    for (let run = 0; run < 5; run++) {
      clustered.push({
        run_id: `${variant}-task${String(task + 1).padStart(2, "0")}-day${run + 1}`,
        variant,
        task: `task${String(task + 1).padStart(2, "0")}`,
        outcome: passing.has(task) ? "pass" : "fail",
      });
    }
  }
}
write("clustered_example.jsonl", clustered);
