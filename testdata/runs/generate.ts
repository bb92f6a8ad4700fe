// Regenerates the fixtures in this folder: deno run --allow-write=testdata/runs testdata/runs/generate.ts
// Deterministic (a fixed linear congruential generator), so the files never change unless this does.
let state = 20261129;
function random(): number {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
}
const round = (value: number, digits: number) => Number(value.toFixed(digits));

const TASKS = ["refund", "lookup", "cancel", "escalate"];
const ARMS = [
  // arm, model, pass probability, mean cost (null: unknown price), mean latency
  { arm: "mini", model: "gpt-4.1-mini", pass: 0.72, cost: 0.0031, latency: 8 },
  { arm: "large", model: "gpt-4.1", pass: 0.95, cost: 0.024, latency: 14 },
  { arm: "local", model: "llama3.1:8b", pass: 0.5, cost: null, latency: 21 },
];

const rows: string[] = [];
for (const arm of ARMS) {
  for (const task of TASKS) {
    for (let repeat = 0; repeat < 10; repeat++) {
      const error = random() < 0.03;
      const passed = !error && random() < arm.pass;
      const score = error ? null : round(passed ? 0.9 + random() * 0.1 : 0.4 + random() * 0.45, 3);
      const runId = `${arm.arm}-${task}-${repeat}`;
      rows.push(JSON.stringify({
        schema: "toolscore.agent_run/1",
        run_id: runId,
        arm_id: arm.arm,
        model: arm.model,
        task_id: task,
        repeat,
        status: error ? "error" : "ok",
        passed: error ? null : passed,
        outcome: error ? "error" : passed ? "pass" : "fail",
        score,
        grade: score === null ? null : score >= 0.9 ? "A" : score >= 0.8 ? "B" : "C",
        min_score: 0.9,
        cost_usd: arm.cost === null || error ? null : round(arm.cost * (0.6 + random() * 0.8), 5),
        // One local run lost its timing: latency stays unknown for it.
        duration_s: arm.arm === "local" && task === "cancel" && repeat === 4
          ? null
          : round(arm.latency * (0.6 + random() * 0.8), 2),
        usage: { input_tokens: 1000 + Math.floor(random() * 500), output_tokens: 200 + Math.floor(random() * 200) },
        honesty_errors: 0,
        trace: `runs/${arm.arm}/${task}-${repeat}.json`,
        receipt: null,
        error: error ? "MCP server exited with code 1" : null,
        started_at: `2026-11-20T10:${String(rows.length % 60).padStart(2, "0")}:00Z`,
      }));
    }
  }
}
Deno.writeTextFileSync(new URL("./agent_runs.jsonl", import.meta.url), rows.join("\n") + "\n");

// Exported run records (toolscore export) for a second batch of the same arms.
const records: string[] = [];
for (const arm of ARMS) {
  for (const task of TASKS) {
    for (let repeat = 10; repeat < 15; repeat++) {
      const passed = random() < arm.pass;
      const score = round(passed ? 0.9 + random() * 0.1 : 0.4 + random() * 0.45, 3);
      records.push(JSON.stringify({
        schema_version: "1",
        record_type: "run",
        run_id: `${arm.arm}-${task}-${repeat}`,
        variant: arm.arm,
        task,
        repeat,
        outcome: passed ? "pass" : "fail",
        passed,
        score,
        grade: score >= 0.9 ? "A" : score >= 0.8 ? "B" : "C",
        min_score: 0.9,
        cost_usd: arm.cost === null ? null : round(arm.cost * (0.6 + random() * 0.8), 5),
        duration_s: round(arm.latency * (0.6 + random() * 0.8), 2),
        usage: { input_tokens: 1100, output_tokens: 250 },
        evidence: { pass: 5, fail: passed ? 0 : 1, unknown: 1 },
        error: null,
        source: { kind: "agent_run", path: "batch2.jsonl", sha256: "0".repeat(64), line: records.length + 1 },
        producer: { name: "toolscore", version: "0.1.0" },
        hashes: { record_sha256: "0".repeat(64), trace_sha256: null, receipt_sha256: null },
      }));
    }
  }
}
Deno.writeTextFileSync(new URL("./records.jsonl", import.meta.url), records.join("\n") + "\n");
