/**
 * A cross-check of `toolscore doctor` against the official MCP conformance
 * suite (issue 39), kept out of CI (it fetches `@modelcontextprotocol/conformance`
 * from npm on first use and takes a minute): start the reference
 * server-everything in its Streamable HTTP mode on a loopback port, run the
 * suite's protocol-level server scenarios against it one by one, then doctor
 * (with an `echo` probe), and print both verdicts side by side. The README's
 * "Doctor and the conformance suite" note records what a run found.
 *
 * The suite's tool, resource and prompt scenarios expect its own test
 * server's names (`test_simple_text`…), so only the protocol-level ones run.
 *
 * Run: `deno run -A scripts/conformance_crosscheck.ts` (after scripts/test_setup.sh).
 *
 * @module
 */

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "logging-set-level",
  "dns-rebinding-protection",
];

const root = new URL("..", import.meta.url).pathname;
const bin = `${root}tools/test-deps/node_modules/.bin/mcp-server-everything`;
const decoder = new TextDecoder();

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function run(args: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(180_000),
  }).output();
  // The suite colours its output whatever NO_COLOR says.
  const text = decoder.decode(out.stdout) + decoder.decode(out.stderr);
  // The suite colours its output: drop its SGR codes before matching the lines.
  // deno-lint-ignore no-control-regex
  return { code: out.code, text: text.replace(/\x1b\[[0-9;]*m/g, "") };
}

const port = freePort();
const server = new Deno.Command(bin, {
  args: ["streamableHttp"],
  env: { PORT: String(port) },
  stdin: "null",
  stdout: "piped",
  stderr: "piped",
}).spawn();
let log = "";
const pumps = [server.stdout, server.stderr].map((stream) =>
  stream.pipeTo(new WritableStream({ write: (chunk) => void (log += decoder.decode(chunk)) }))
);
const url = `http://127.0.0.1:${port}/mcp`;
try {
  const until = Date.now() + 20_000;
  while (!/listening on port|running on port/i.test(log) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(`server-everything (Streamable HTTP) at ${url}\n\nconformance suite:`);
  for (const scenario of SCENARIOS) {
    const { code, text } = await run([
      "run",
      "-A",
      "--no-lock", // the suite is no dependency of ours: keep it out of deno.lock
      "npm:@modelcontextprotocol/conformance",
      "server",
      "--url",
      url,
      "--scenario",
      scenario,
    ]);
    const checks = text.split("\n").filter((line) => /\b(SUCCESS|FAILURE|WARNING)\b/.test(line))
      .map((line) => line.replace(/^\S+Z\s+/, "").trim());
    console.log(`  ${code === 0 ? "pass" : "FAIL"}  ${scenario}`);
    for (const check of checks) console.log(`          ${check}`);
    if (checks.length === 0) console.log(`          (no checks: ${text.trim().slice(0, 300)})`);
  }
  const probes = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(
    probes,
    JSON.stringify([{ tool: "echo", args: { message: "hi" }, expect_text: "Echo: hi" }]),
  );
  const doctor = await run(["run", "-A", "cli.ts", "doctor", "--url", url, "--probe", probes]);
  await Deno.remove(probes);
  console.log(`\ntoolscore doctor (exit ${doctor.code}):\n${doctor.text}`);
} finally {
  server.kill("SIGKILL");
  await server.status;
  await Promise.all(pumps).catch(() => {});
}
