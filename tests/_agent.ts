// Shared by the agent-run tests: specs written into scratch folders, rows read back, and the
// process table searched for servers a run left behind.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { FIXTURE } from "./_mcp.ts";

export const CONTRACTS = new URL("../testdata/agent/", import.meta.url).pathname;

/** An arm in the spec's file shape. */
export type ArmJson = Record<string, unknown> & { id: string; provider: string; model: string };

/** The fixture server, named with a marker so that the process table can be searched for it. */
export function fixtureServer(marker: string): Record<string, unknown> {
  return {
    command: [Deno.execPath(), "run", "--no-prompt", FIXTURE, "--name", marker],
    timeout_s: 20,
  };
}

/** Write a spec (JSON) into `dir` and return its path. */
export async function writeSpec(
  dir: string,
  fields: {
    server: Record<string, unknown>;
    arms: ArmJson[];
    tasks?: { id: string; prompt: string; contract: string }[];
    repeats?: number;
    [key: string]: unknown;
  },
): Promise<string> {
  const spec = {
    spec_version: 1,
    tasks: [
      {
        id: "book",
        prompt: "Book the first flight to NYC on 2026-01-05",
        contract: `${CONTRACTS}contract_book.json`,
      },
      {
        id: "weather",
        prompt: "Weather in Paris, and add 2 and 3",
        contract: `${CONTRACTS}contract_weather.json`,
      },
    ],
    max_turns: 6,
    timeout_s: 60,
    ...fields,
  };
  const path = `${dir}/agent.json`;
  await Deno.writeTextFile(path, JSON.stringify(spec, null, 2));
  return path;
}

/** The rows of a JSONL file; every line must be JSON (a parse error fails the test). */
export async function readRows(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** The (arm, task, repeat) key of a row. */
export function keyOf(row: Record<string, unknown>): string {
  return `${row.arm_id}/${row.task_id}/${row.repeat}`;
}

/** Process ids whose command line contains `marker` (from `ps`), excluding ps itself. */
export async function processesWith(marker: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))
    .map((line) => line.trim());
}

/** Wait until no process has `marker` in its command line; return what is left after `ms`. */
export async function waitNoProcesses(marker: string, ms = 8000): Promise<string[]> {
  const until = Date.now() + ms;
  while (true) {
    const left = await processesWith(marker);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file under a folder, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out.sort();
}

/**
 * What every end-to-end test shows about an output: `rows` rows, as many traces and receipts,
 * every receipt verifies, and compare, export and decide read the rows.
 */
export async function checkReaders(
  dir: string,
  out: string,
  options: { rows: number; baseline: string; candidate: string },
): Promise<{ rows: Record<string, unknown>[]; files: string[] }> {
  const rows = await readRows(out);
  assert.equal(rows.length, options.rows);
  assert.equal(new Set(rows.map(keyOf)).size, options.rows);
  const outDir = out.replace(/\.jsonl$/, "");
  const files = await filesUnder(outDir);
  const receipts = files.filter((f) => f.endsWith(".receipt.json"));
  const traces = files.filter((f) => /\/[^/.]+-\d+\.json$/.test(f));
  assert.equal(receipts.length, options.rows);
  assert.equal(traces.length, options.rows);
  const verify = await runCollect(["verify", ...receipts]);
  assert.equal(verify.code, 0, verify.out + verify.err);

  const compare = await runCollect(["compare", out, "--json"]);
  assert.equal(compare.code, 0, compare.err);
  assert.ok(compare.out.includes(options.baseline) && compare.out.includes(options.candidate));

  const exported = `${dir}/export.jsonl`;
  const exportRun = await runCollect(["export", out, "-o", exported]);
  assert.equal(exportRun.code, 0, exportRun.err);
  const records = await readRows(exported);
  assert.equal(records.length, options.rows);
  assert.ok(records.every((r) => (r.hashes as Record<string, unknown>).receipt_sha256 !== null));

  const protocol = `${dir}/protocol.json`;
  await Deno.writeTextFile(
    protocol,
    JSON.stringify({
      protocol_version: 1,
      baseline: options.baseline,
      candidate: options.candidate,
      min_runs: 3,
      rules: [{ id: "no-worse", metric: "pass_rate", expect: "not_worse", tolerance: 0.05 }],
    }),
  );
  const decide = await runCollect(["decide", protocol, out]);
  assert.equal(decide.code, 0, decide.out + decide.err);
  return { rows, files: [...files, exported] };
}

// A Streamable HTTP MCP server with the fixture's flight and weather tools, stateless: a new
// SDK server and transport per POST, so that every run's session is its own.
export async function httpFixture(
  options: { rpcErrorTool?: string } = {},
): Promise<{ url: string; calls(): number; close(): Promise<void> }> {
  const { McpServer } = await import(
    "@modelcontextprotocol/sdk/server/mcp.js"
  ) as typeof import("@modelcontextprotocol/sdk/server/mcp");
  const { WebStandardStreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
  ) as typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp");
  const { z } = await import("zod");
  let calls = 0;
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    // No standalone event stream and no sessions to delete: both allowed answers (405).
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.clone().json().catch(() => ({}));
    if (
      options.rpcErrorTool !== undefined && message.method === "tools/call" &&
      message.params?.name === options.rpcErrorTool
    ) {
      // What a server that fails inside its handler answers: a JSON-RPC error, not a result.
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32603, message: "database is down" },
      });
    }
    const mcp = new McpServer({ name: "http-fixture", version: "1.0.0" });
    mcp.registerTool(
      "search_flights",
      {
        description: "Search flights.",
        inputSchema: { destination: z.string(), date: z.string() },
      },
      (
        { destination, date },
      ) => (calls++, text(JSON.stringify([{ flight_id: "FL-100", destination, date }]))),
    );
    mcp.registerTool("book_flight", {
      description: "Book a flight.",
      inputSchema: { flight_id: z.string() },
    }, ({ flight_id }) => (calls++, text(`booked ${flight_id}`)));
    mcp.registerTool(
      "get_weather",
      { description: "Weather.", inputSchema: { city: z.string() } },
      ({ city }) => (calls++, text(`sunny in ${city}`)),
    );
    // A name OpenAI and Anthropic refuse (the dot): handed to them as weather_now, mapped back.
    mcp.registerTool(
      "weather.now",
      { description: "Weather now.", inputSchema: {} },
      () => (calls++, text("rain")),
    );
    mcp.registerTool(
      "add",
      { description: "Add.", inputSchema: { a: z.number(), b: z.number() } },
      ({ a, b }) => (calls++, text(String(a + b))),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    return await transport.handleRequest(request);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    calls: () => calls,
    close: () => server.shutdown(),
  };
}
