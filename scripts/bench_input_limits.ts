/**
 * Hostile benchmark for the input limits (issue 42): the endless-line and
 * oversized cases, run with the default caps (512 MiB a file or stdin, 64
 * MiB one MCP message). Each case runs the CLI under `/usr/bin/time` and
 * prints its exit code, peak resident memory and wall time, against the
 * bounds the issue sets: memory under 1 GB, time under the request timeout
 * + 2 s. Not part of the tests or CI (the tests lower the caps to 1 MiB and
 * assert no timings).
 *
 *   deno run -A scripts/bench_input_limits.ts [--timeout S]
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;
const CLI = `${ROOT}cli.ts`;
const SERVER = `${ROOT}testdata/hostile/endless_server.ts`;
const timeoutIndex = Deno.args.indexOf("--timeout");
const TIMEOUT_S = timeoutIndex === -1 ? 10 : Number(Deno.args[timeoutIndex + 1]);
const MEMORY_LIMIT_MB = 1000;

interface Result {
  name: string;
  code: number;
  rssMb: number;
  seconds: number;
}

async function timed(name: string, args: string[], stdin?: string): Promise<Result> {
  const command = [Deno.execPath(), "run", "-A", CLI, ...args].map((a) => `'${a}'`).join(" ");
  const script = stdin === undefined ? command : `${stdin} | ${command}`;
  const output = await new Deno.Command("bash", {
    args: ["-c", `/usr/bin/time -f '%M %e' -o /dev/stderr bash -c "$0"`, script],
    stdout: "null",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
  const [kb, seconds] = lines.at(-1)!.split(" ").map(Number);
  return { name, code: output.code, rssMb: kb! / 1000, seconds: seconds! };
}

async function withServer(
  mode: string,
  arg: string,
  run: (url: string) => Promise<Result>,
): Promise<Result> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", SERVER, mode, arg],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening \d+/.test(text)) text += (await reader.read()).value ?? "";
  try {
    return await run(`http://127.0.0.1:${/listening (\d+)/.exec(text)![1]}/mcp`);
  } finally {
    child.kill("SIGKILL");
    await reader.cancel().catch(() => {});
    await child.status;
  }
}

const dir = await Deno.makeTempDir({ prefix: "toolscore_bench_limits_" });
const gold = `${dir}/gold.json`;
await Deno.writeTextFile(gold, JSON.stringify({ calls: [] }));
const sparse = `${dir}/sparse.json`;
await Deno.truncate(sparse, 2 * 1024 ** 3).catch(async () => {
  await Deno.writeFile(sparse, new Uint8Array());
  await Deno.truncate(sparse, 2 * 1024 ** 3);
});
const timeout = ["--timeout", String(TIMEOUT_S)];
const results: Result[] = [];
try {
  results.push(await timed("eval gold /dev/zero", ["eval", "/dev/zero", gold]));
  results.push(await timed("eval, endless stdin", ["eval", gold, "-"], "cat /dev/zero"));
  results.push(await timed("eval, 2 GB sparse trace", ["eval", gold, sparse]));
  results.push(
    await timed("doctor, endless stdio line", [
      "doctor",
      ...timeout,
      "--",
      Deno.execPath(),
      "run",
      SERVER,
      "stdio-line",
    ]),
  );
  results.push(
    await withServer(
      "http-sse",
      "0",
      (url) => timed("doctor --url, endless SSE data: line", ["doctor", ...timeout, "--url", url]),
    ),
  );
  // A line that trickles in (64 KiB every 100 ms) stays under the cap: the request timeout ends it.
  results.push(
    await timed("doctor, slow endless stdio line", [
      "doctor",
      ...timeout,
      "--",
      Deno.execPath(),
      "run",
      SERVER,
      "stdio-line",
      "100",
    ]),
  );
  results.push(
    await withServer(
      "http-sse",
      "100",
      (url) => timed("doctor --url, slow endless SSE line", ["doctor", ...timeout, "--url", url]),
    ),
  );
  results.push(
    await withServer(
      "http-json",
      "400",
      (url) => timed("doctor --url, 400 MiB JSON initialize", ["doctor", ...timeout, "--url", url]),
    ),
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}

console.log(
  `bounds: memory < ${MEMORY_LIMIT_MB} MB, time < ${TIMEOUT_S + 2} s (timeout ${TIMEOUT_S} s + 2)`,
);
for (const r of results) {
  const ok = r.rssMb < MEMORY_LIMIT_MB && r.seconds < TIMEOUT_S + 2 ? "ok" : "OVER";
  console.log(
    `${r.name.padEnd(40)} exit ${String(r.code).padStart(3)}  ${
      r.rssMb.toFixed(0).padStart(5)
    } MB  ` +
      `${r.seconds.toFixed(2).padStart(6)} s  ${ok}`,
  );
}
