/**
 * Export benchmark: generate N realistic `toolscore agent run` rows (default
 * 1,000,000) in a temporary folder, export them with `writeExport` over
 * `iterateRecords` in a child process, and print the time and the child's
 * peak resident memory (target: under 60 s and 300 MB). Then validate the
 * export's manifest count and remove the folder.
 *
 * Run:
 *   deno run --allow-read --allow-write --allow-run scripts/bench_export.ts [N]
 *
 * @module
 */

import { exportRecords, iterateRecords, writeExport } from "../mod.ts";
import { validateExport } from "../lib/export/validate_export.ts";
import { manifestPathOf } from "../lib/export/write.ts";

const ARMS = ["mini", "large", "local"];
const TASKS = ["refund", "cancel", "lookup", "escalate", "summarize"];

/** One realistic row; about one in fifty is an infrastructure error. */
function row(i: number): string {
  const arm = ARMS[i % ARMS.length]!;
  const task = TASKS[Math.floor(i / ARMS.length) % TASKS.length]!;
  const repeat = Math.floor(i / (ARMS.length * TASKS.length));
  const error = i % 50 === 7;
  const score = error ? null : ((i * 7919) % 1000) / 1000;
  const passed = score === null ? null : score >= 0.9;
  return JSON.stringify({
    schema: "toolscore.agent_run/1",
    run_id: `${arm}-${task}-${repeat}`,
    arm_id: arm,
    model: arm === "mini" ? "gpt-4.1-mini" : arm === "large" ? "gpt-4.1" : "qwen3:8b",
    task_id: task,
    repeat,
    status: error ? "error" : "ok",
    passed,
    outcome: error ? "error" : passed ? "pass" : "fail",
    score,
    grade: score === null ? null : score >= 0.9 ? "A" : score >= 0.8 ? "B" : "F",
    min_score: 0.9,
    cost_usd: error ? null : Math.round(((i * 31) % 500) * 10 + 1000) / 1e6,
    duration_s: Math.round(((i * 17) % 2000) + 100) / 100,
    usage: { input_tokens: 1000 + (i % 400), output_tokens: 200 + (i % 150) },
    honesty_errors: 0,
    trace: `runs/${arm}/${task}-${repeat}.json`,
    receipt: null,
    error: error ? "MCP error -32000: Connection closed" : null,
    started_at: "2026-11-20T10:00:00Z",
  });
}

async function generate(path: string, n: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const writer = file.writable.getWriter();
  const encoder = new TextEncoder();
  let buffer = "";
  for (let i = 0; i < n; i++) {
    buffer += `${row(i)}\n`;
    if (buffer.length >= 1 << 20) {
      await writer.write(encoder.encode(buffer));
      buffer = "";
    }
  }
  await writer.write(encoder.encode(buffer));
  await writer.close();
}

/** The peak resident memory of this process in MB (Linux), else the current RSS. */
function peakMb(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // not Linux: fall back below
  }
  return Deno.memoryUsage().rss / (1 << 20);
}

async function child(...args: string[]): Promise<{ seconds: number; peak_mb: number }> {
  const dir = args.at(-1)!.replace(/\/[^/]*$/, "");
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${dir}`,
      import.meta.filename!,
      ...args,
    ],
    stderr: "inherit",
  }).output();
  if (!run.success) throw new Error(`the ${args[0]} child failed (exit ${run.code})`);
  return JSON.parse(new TextDecoder().decode(run.stdout));
}

if (Deno.args[0] === "--export") {
  const [, input, output] = Deno.args as [string, string, string];
  const started = performance.now();
  await writeExport(output, iterateRecords([input]), [input]);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, peak_mb: peakMb() }));
} else if (Deno.args[0] === "--validate") {
  const [, output] = Deno.args as [string, string];
  const started = performance.now();
  const { problems } = await validateExport(output);
  if (problems.length > 0) throw new Error(`${problems.length} problems: ${problems[0]!.message}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, peak_mb: peakMb() }));
} else {
  const n = Number(Deno.args[0] ?? 1_000_000);
  const dir = await Deno.makeTempDir({ prefix: "toolscore-bench-export-" });
  try {
    const input = `${dir}/runs.jsonl`;
    const output = `${dir}/export.jsonl`;
    let started = performance.now();
    await generate(input, n);
    const inputMb = (await Deno.stat(input)).size / (1 << 20);
    console.log(
      `generated ${n} rows (${inputMb.toFixed(0)} MB) in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
    );
    // Sanity: the first rows export and validate in-process.
    const sample = `${dir}/sample.jsonl`;
    await Deno.writeTextFile(sample, `${row(0)}\n${row(7)}\n`);
    if ((await exportRecords([sample])).length !== 2) throw new Error("sample export failed");

    started = performance.now();
    const { seconds, peak_mb } = await child("--export", input, output);
    const wall = (performance.now() - started) / 1000;
    const manifest = JSON.parse(await Deno.readTextFile(manifestPathOf(output)));
    const outputMb = (await Deno.stat(output)).size / (1 << 20);
    console.log(
      `exported ${manifest.record_count} records (${outputMb.toFixed(0)} MB): ` +
        `${seconds.toFixed(1)} s in writeExport (${wall.toFixed(1)} s with process start), ` +
        `peak memory ${peak_mb.toFixed(0)} MB`,
    );
    console.log(
      `targets: time < 60 s ${seconds < 60 ? "met" : "MISSED"}, ` +
        `memory < 300 MB ${peak_mb < 300 ? "met" : "MISSED"}`,
    );
    if (manifest.record_count !== n) throw new Error(`expected ${n} records`);
    const check = await child("--validate", output);
    console.log(
      `validateExport: ${check.seconds.toFixed(1)} s, peak memory ${
        check.peak_mb.toFixed(0)
      } MB, ` +
        "no problems",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
