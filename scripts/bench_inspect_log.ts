/**
 * Benchmark (issue 35): read a generated Inspect AI eval log of about 200 MB,
 * as a `.json` log and as a zipped `.eval`, and report the peak memory
 * (the reading process's `VmHWM`) and the time. Not a timed test: run it by
 * hand. Each reading runs in its own process, so one's memory does not
 * count in the other's.
 *
 *   deno run -A scripts/bench_inspect_log.ts [--mb 200]
 *
 * @module
 */

import { strToU8, zipSync } from "fflate";
import "../lib/base/_heavy.ts";
import { readUtf8FileSync } from "../lib/base/load.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { isZipFile, tracesFromEvalZip } from "../lib/formats/inspect_zip.ts";

function sample(id: number, bytes: number): Record<string, unknown> {
  const messages: unknown[] = [{ role: "user", content: `task ${id}` }];
  const filler = "lorem ipsum dolor sit amet ".repeat(40);
  let size = 0;
  for (let turn = 0; size < bytes; turn++) {
    const callId = `call_${id}_${turn}`;
    messages.push({
      role: "assistant",
      content: `step ${turn}`,
      tool_calls: [{ id: callId, function: "bash", arguments: { cmd: `cat file_${turn}.txt` } }],
    });
    const output = `${turn} ${filler}`;
    messages.push({
      role: "tool",
      content: output,
      tool_call_id: callId,
      function: "bash",
      error: turn % 7 === 3 ? { type: "unknown", message: "exit 1" } : null,
    });
    size += output.length + 200;
  }
  messages.push({ role: "assistant", content: "done" });
  return { id, epoch: 1, input: `task ${id}`, target: "", messages, output: {}, scores: {} };
}

function child(path: string): void {
  const start = performance.now();
  const traces = isZipFile(path)
    ? tracesFromEvalZip(Deno.readFileSync(path), path)
    : tracesFromText(readUtf8FileSync(path), path, { format: "auto" });
  const seconds = (performance.now() - start) / 1000;
  const calls = traces.reduce((n, t) => n + t.calls.length, 0);
  const status = Deno.readTextFileSync("/proc/self/status");
  const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  console.log(JSON.stringify({ traces: traces.length, calls, seconds, peak_mib: peak }));
}

async function main(): Promise<void> {
  const args = Deno.args;
  if (args[0] === "--child") return child(args[1]!);
  const mb = args[0] === "--mb" ? Number(args[1]) : 200;
  const dir = Deno.makeTempDirSync({ prefix: "toolscore-inspect-bench-" });
  try {
    const perSample = 100_000;
    const count = Math.ceil((mb * 1024 * 1024) / perSample);
    const samples = Array.from({ length: count }, (_, i) => sample(i + 1, perSample));
    const json = `${dir}/log.json`;
    Deno.writeTextFileSync(
      json,
      JSON.stringify({ version: 2, status: "success", eval: { task: "bench" }, samples }),
    );
    const files: Record<string, Uint8Array> = {};
    for (const s of samples) files[`samples/${s.id}_epoch_1.json`] = strToU8(JSON.stringify(s));
    const zipped = `${dir}/log.eval`;
    Deno.writeFileSync(zipped, zipSync(files, { level: 6 }));
    for (const path of [json, zipped]) {
      const size = Deno.statSync(path).size / (1024 * 1024);
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--v8-flags=--max-old-space-size=1024",
          import.meta.filename!,
          "--child",
          path,
        ],
        stdout: "piped",
        stderr: "inherit",
      }).output();
      const out = new TextDecoder().decode(run.stdout).trim();
      console.log(
        `${path.split("/").pop()} ${size.toFixed(0)} MiB on disk: ${out || `exit ${run.code}`}`,
      );
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
