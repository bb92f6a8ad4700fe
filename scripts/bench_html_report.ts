/**
 * The `eval` HTML report at 1,000 traces: its size (target under 5 MB) and
 * how long Debian's headless Chromium takes to load it from disk (target
 * under 2 s), measured side by side with a 10-trace report in the same
 * browser run, so the ratio shows what the extra traces cost. Prints the
 * figures; asserts nothing.
 *
 *     deno run -A scripts/bench_html_report.ts
 *
 * Needs `bash scripts/test_setup.sh` (playwright-core, chromium).
 *
 * @module
 */

import { runCli } from "../lib/cli/run.ts";
import type { CliIO } from "../lib/cli/command.ts";
import { browserAvailable, openInBrowser } from "../tests/_browser.ts";

const GOLD = [
  { tool: "search_flights", args: { origin: "SFO", destination: "JFK", date: "2026-12-24" } },
  { tool: "book_flight", args: { flight_id: { $regex: "^FL-\\d+$" }, passengers: 2 } },
  { tool: "send_confirmation", args: { email: { $contains: "@" } } },
];

/** Trace i: every fourth misses its confirmation, every third has a wrong date. */
function trace(i: number): unknown[] {
  const calls: unknown[] = [
    {
      tool: "search_flights",
      args: { origin: "SFO", destination: "JFK", date: i % 3 === 0 ? "2026-12-25" : "2026-12-24" },
    },
    { tool: "book_flight", args: { flight_id: `FL-${100 + i}`, passengers: 2 } },
  ];
  if (i % 4 !== 0) {
    calls.push({ tool: "send_confirmation", args: { email: `user${i}@example.com` } });
  }
  return calls;
}

const quiet: CliIO = {
  stdout: () => {},
  stderr: (text) => void Deno.stderr.writeSync(new TextEncoder().encode(text)),
  color: false,
  progress: false,
  stdin: () => Promise.resolve(""),
};

async function report(
  dir: string,
  n: number,
): Promise<{ path: string; ms: number; bytes: number }> {
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify(trace(i)));
  await Deno.writeTextFile(`${dir}/runs_${n}.jsonl`, `${lines.join("\n")}\n`);
  const path = `${dir}/report_${n}.html`;
  const start = performance.now();
  await runCli(
    ["eval", `${dir}/gold.json`, `${dir}/runs_${n}.jsonl`, "--min-score", "0.9", "--html", path],
    quiet,
  );
  const ms = performance.now() - start;
  return { path, ms, bytes: (await Deno.stat(path)).size };
}

const dir = await Deno.makeTempDir({ prefix: "toolscore-bench-html-" });
try {
  await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(GOLD));
  const small = await report(dir, 10);
  const large = await report(dir, 1_000);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
  console.log(
    `eval --html, 10 traces:    ${mb(small.bytes)} MB, scored and written in ${
      small.ms.toFixed(0)
    } ms`,
  );
  console.log(
    `eval --html, 1,000 traces: ${mb(large.bytes)} MB, scored and written in ${
      large.ms.toFixed(0)
    } ms`,
  );
  console.log(
    `size ratio 1,000 / 10: ${
      (large.bytes / small.bytes).toFixed(1)
    }x (target: under 5 MB at 1,000)`,
  );
  if (browserAvailable()) {
    // Each page twice, alternating, so a cold start does not count against one of them.
    const pages = [small.path, large.path, small.path, large.path].map((file) => ({ file }));
    const results = await openInBrowser(pages, dir);
    const load = (file: string) =>
      Math.min(...results.filter((r) => r.file === file).map((r) => r.loadMs));
    const errors = results.flatMap((r) => [...r.consoleErrors, ...r.otherRequests]);
    console.log(`Chromium load, 10 traces:    ${load(small.path).toFixed(0)} ms`);
    console.log(
      `Chromium load, 1,000 traces: ${load(large.path).toFixed(0)} ms (target: under 2,000 ms)`,
    );
    console.log(`load ratio 1,000 / 10: ${(load(large.path) / load(small.path)).toFixed(1)}x`);
    console.log(
      `console errors and other requests: ${errors.length === 0 ? "none" : errors.join("; ")}`,
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
