// Issue 42, items 1 and 4: every input has a size cap, checked while reading (files, stdin, one
// MCP message on stdio, HTTP and SSE). The caps are lowered to 1 MiB through their variables so
// the tests stay cheap; the benchmark (scripts/bench_input_limits.ts) measures the defaults.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readTextFile } from "../lib/base/load.ts";
import { fileLineBlocks } from "../lib/base/jsonl_lines.ts";
import { readFileCapped, readStreamCapped } from "../lib/base/read_limits.ts";
import { LineSplitter } from "../lib/mcp/line_splitter.ts";
import { limitMessages } from "../lib/mcp/message_limit.ts";
import { readRows, writeSpec } from "./_agent.ts";
import { runCollect } from "./_cli.ts";
import { openaiServer } from "./_model_wire.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = `${ROOT}cli.ts`;
const SERVER = `${ROOT}testdata/hostile/endless_server.ts`;
const GOLD = Deno.makeTempFileSync({ suffix: ".json" });
Deno.writeTextFileSync(GOLD, JSON.stringify({ calls: [] }));
addEventListener("unload", () => Deno.removeSync(GOLD));
const LIMITS = { TOOLSCORE_MAX_INPUT_MIB: "1", TOOLSCORE_MAX_MESSAGE_MIB: "1", NO_COLOR: "1" };
const ENV_FLAG = "--allow-env=TOOLSCORE_MAX_INPUT_MIB,TOOLSCORE_MAX_MESSAGE_MIB,TOOLSCORE_DEBUG";

interface Run {
  code: number;
  err: string;
  out: string;
}

async function toolscore(args: string[], stdin?: ReadableStream<Uint8Array>): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-net=127.0.0.1",
      "--allow-run",
      ENV_FLAG,
      CLI,
      ...args,
    ],
    env: LIMITS,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin) stdin.pipeTo(child.stdin).catch(() => {}); // the CLI stops reading: the pipe breaks
  const output = await child.output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

function endlessZeros(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  return new ReadableStream({ pull: (controller) => controller.enqueue(chunk) });
}

/** Start the hostile server in an HTTP mode; returns its URL and a stop function. */
async function hostileServer(
  mode: string,
  arg = "0",
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-net=127.0.0.1", SERVER, mode, arg],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening \d+/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the hostile server did not start");
    text += value;
  }
  const port = /listening (\d+)/.exec(text)![1];
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      child.kill("SIGKILL");
      await reader.cancel().catch(() => {});
      await child.status;
    },
  };
}

Deno.test("readTextFile() refuses a 2 GB sparse file before reading it", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.truncate(file, 2 * 1024 ** 3);
    await assert.rejects(
      readTextFile(file),
      /larger than 512 MiB \(the input limit\); set TOOLSCORE_MAX_INPUT_MIB/,
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("readFileCapped() stops reading a device at the cap", async () => {
  await assert.rejects(
    readFileCapped("/dev/zero", 3 * 1024 * 1024),
    /\/dev\/zero: larger than 3 MiB/,
  );
});

Deno.test("readStreamCapped() stops an endless stream at the cap", async () => {
  await assert.rejects(
    readStreamCapped(endlessZeros(), "<stdin>", 1024 * 1024),
    /<stdin>: larger than 1 MiB/,
  );
});

Deno.test("eval stops reading a gold file that never ends (/dev/zero) with exit 2", async () => {
  const run = await toolscore(["eval", "/dev/zero", GOLD]);
  assert.equal(run.code, 2, run.err);
  assert.match(run.err, /^toolscore: \/dev\/zero: larger than 1 MiB \(the input limit\)/);
  assert.doesNotMatch(run.err, /\n\s+at /);
});

Deno.test("eval stops reading stdin that never ends with exit 2", async () => {
  const run = await toolscore(["eval", GOLD, "-"], endlessZeros());
  assert.equal(run.code, 2, run.err);
  assert.match(run.err, /<stdin>: larger than 1 MiB \(the input limit\)/);
});

Deno.test("doctor fails the server check for a stdio line that never ends", async () => {
  const run = await toolscore([
    "doctor",
    "--timeout",
    "20",
    "--",
    Deno.execPath(),
    "run",
    SERVER,
    "stdio-line",
  ]);
  assert.equal(run.code, 1, run.err);
  assert.match(
    run.out,
    /✗ server-start +initialize failed: a line on the server's stdout is longer than 1 MiB/,
  );
});

Deno.test("doctor --url fails the server check for an SSE data: line that never ends", async () => {
  const server = await hostileServer("http-sse");
  try {
    const run = await toolscore(["doctor", "--timeout", "20", "--url", server.url]);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.out,
      /✗ server-start +initialize failed: an SSE event from the server is longer than 1 MiB/,
    );
  } finally {
    await server.stop();
  }
});

Deno.test("doctor --url refuses a JSON answer past the message limit", async () => {
  const server = await hostileServer("http-json", "3");
  try {
    const run = await toolscore(["doctor", "--timeout", "20", "--url", server.url]);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.out,
      /✗ server-start +initialize failed: a JSON message from the server is longer than 1 MiB/,
    );
  } finally {
    await server.stop();
  }
});

Deno.test("doctor calls a slow valid line cut off by the timeout unfinished, not non-JSON", async () => {
  // Item 13: a 300 MB initialize answer trickling in (here 64 KiB every 500 ms, under the cap).
  const run = await toolscore([
    "doctor",
    "--timeout",
    "3",
    "--",
    Deno.execPath(),
    "run",
    SERVER,
    "stdio-line",
    "500",
  ]);
  assert.equal(run.code, 1, run.err);
  assert.match(
    run.out,
    /✗ server-start +no answer to initialize within 3 s .*; it was still writing one line to stdout \([\d,]+ characters, no newline yet, when the timeout came.*TOOLSCORE_MAX_MESSAGE_MIB\)/,
  );
  assert.doesNotMatch(run.out, /non-JSON/);
  assert.match(run.out, /fix: raise --timeout for a server whose answers are this large and slow/);
});

Deno.test("doctor's fix for a message past the cap says how to raise it, on stdio and HTTP", async () => {
  const stdio = await toolscore([
    "doctor",
    "--timeout",
    "20",
    "--",
    Deno.execPath(),
    "run",
    SERVER,
    "stdio-big",
    "3",
  ]);
  assert.match(stdio.out, /a line on the server's stdout is longer than 1 MiB/);
  assert.match(
    stdio.out,
    /fix: if the server means to send messages that big, raise the limit: TOOLSCORE_MAX_MESSAGE_MIB=128 \(MiB, now 1 MiB/,
  );
  assert.doesNotMatch(stdio.out, /logs to stderr, not stdout/);
  const server = await hostileServer("http-json", "3");
  try {
    const http = await toolscore(["doctor", "--timeout", "20", "--url", server.url]);
    assert.match(http.out, /a JSON message from the server is longer than 1 MiB/);
    assert.match(http.out, /fix: if the server means to send messages that big, raise the limit/);
    assert.doesNotMatch(http.out, /the URL is its MCP \(Streamable HTTP\) endpoint/);
  } finally {
    await server.stop();
  }
});

Deno.test("LineSplitter splits across chunks, keeps multi-byte characters and caps one line", () => {
  const bytes = new TextEncoder().encode("héllo\nwörld\n" + "z".repeat(100) + "\nend");
  const lines = new LineSplitter(10);
  const out: string[] = [];
  for (let at = 0; at < bytes.length; at += 3) out.push(...lines.push(bytes.subarray(at, at + 3)));
  assert.deepEqual(out, ["héllo", "wörld", "z".repeat(10)]);
  assert.equal(lines.overflowed, true);
  assert.equal(lines.end(), "end");
});

Deno.test("limitMessages() counts one SSE event at a time, not the whole stream", async () => {
  const events = "data: 12345\n\n".repeat(100); // 1,300 bytes, each event 13
  const sse = (body: string) =>
    new Response(body, { headers: { "content-type": "text/event-stream" } });
  const over: string[] = [];
  assert.equal(await limitMessages(sse(events), 20, (why) => over.push(why)).text(), events);
  assert.deepEqual(over, []);
  await assert.rejects(
    limitMessages(sse(`data: ${"x".repeat(30)}\n\n`), 20, () => {}).text(),
    /SSE event/,
  );
});

Deno.test("agent run writes an error row for a server whose SSE data: line never ends, and goes on", async () => {
  const server = await hostileServer("http-sse");
  const dir = await Deno.makeTempDir({ prefix: "toolscore_limits_" });
  const model = openaiServer();
  Deno.env.set("TOOLSCORE_MAX_MESSAGE_MIB", "1");
  try {
    const spec = await writeSpec(dir, {
      server: { url: server.url, timeout_s: 20 },
      arms: [{ id: "a", provider: "openai", model: "gpt-good", base_url: model.url }],
      repeats: 2,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out]);
    assert.notEqual(run.code, 0, run.err);
    const rows = await readRows(out);
    assert.equal(rows.length, 4, run.err); // 2 tasks × 2 repeats: every run has its row
    for (const row of rows) {
      assert.match(String(row.error), /SSE event from the server is longer than 1 MiB/);
    }
  } finally {
    Deno.env.delete("TOOLSCORE_MAX_MESSAGE_MIB");
    await model.close();
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileLineBlocks() stops a JSONL line that never ends at the input limit", async () => {
  Deno.env.set("TOOLSCORE_MAX_INPUT_MIB", "1");
  try {
    await assert.rejects(async () => {
      for await (const _ of fileLineBlocks("/dev/zero")) { /* never a whole line */ }
    }, /\/dev\/zero:1: a line longer than 1 MiB \(the input limit\)/);
  } finally {
    Deno.env.delete("TOOLSCORE_MAX_INPUT_MIB");
  }
});

Deno.test("eval's error line stays under 1,000 characters for a 1,000,000-character key or $regex", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore_echo_" });
  try {
    const long = "k".repeat(1_000_000);
    const golds = {
      key: { calls: [{ tool: "a", args: { [long]: { $nope: 1 } } }] },
      regex: { calls: [{ tool: "a", args: { q: { $regex: "(".repeat(1_000_000) } } }] },
    };
    for (const [name, gold] of Object.entries(golds)) {
      await Deno.writeTextFile(`${dir}/${name}.json`, JSON.stringify(gold));
      const run = await toolscore(["eval", `${dir}/${name}.json`, GOLD]);
      assert.equal(run.code, 2, run.err.slice(0, 1000));
      assert.ok(run.err.length < 1000, `${name}: ${run.err.length} characters`);
      assert.match(run.err, /…\(\d{6,7} more\)…/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
