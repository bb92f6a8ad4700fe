/**
 * A fixture MCP server for the doctor and MCP tests, built with the official
 * SDK's McpServer over stdio. Runs with no permissions:
 *
 *   deno run --no-prompt testdata/mcp/fixture_server.ts [flags]
 *
 * Flags:
 *   --record FILE     append every JSON-RPC message received to FILE as a JSON line
 *                     (needs --allow-write=FILE)
 *   --page-size N     split tools/list into pages of N tools (nextCursor)
 *   --page-loop       with --page-size: every page names the same next cursor (a server bug)
 *   --crash-on-start  write an error to stderr and exit 3 before reading anything; with
 *                     --allow-env=FIXTURE_TOKEN it echoes that variable first (a leaky server)
 *   --hang            never answer anything; ignore stdin EOF and SIGTERM
 *   --stdout-noise    print a log line to stdout before serving (a common bug)
 *   --name NAME       serverInfo.name (default "fixture")
 *   --version V       serverInfo.version (default "1.2.3")
 *   --pid-file FILE   write the process id to FILE (needs --allow-write=FILE)
 *
 * Tools: search_flights, book_flight, add, get_weather, count_items (an invalid
 * schema on purpose), ping (no description), env_names (needs --allow-env).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import { z } from "zod";

function flag(name: string): string | undefined {
  const index = Deno.args.indexOf(name);
  return index === -1 ? undefined : Deno.args[index + 1];
}
const has = (name: string) => Deno.args.includes(name);

const pidFile = flag("--pid-file");
if (pidFile) Deno.writeTextFileSync(pidFile, `${Deno.pid}\n`); // one line: readers wait for the newline

if (has("--crash-on-start")) {
  console.error("fixture: loading config");
  const allowed = Deno.permissions.querySync({ name: "env", variable: "FIXTURE_TOKEN" }).state;
  const token = allowed === "granted" ? Deno.env.get("FIXTURE_TOKEN") : undefined;
  if (token) console.error(`fixture: token ${token} was rejected`);
  console.error("fixture: FATAL missing FIXTURE_DB_URL; cannot start");
  Deno.exit(3);
}

if (has("--hang")) {
  console.error("fixture: hanging on purpose");
  Deno.addSignalListener("SIGTERM", () => console.error("fixture: ignoring SIGTERM"));
  setInterval(() => {}, 1 << 30);
} else {
  await serve();
}

async function serve(): Promise<void> {
  const server = new McpServer({ name: flag("--name") ?? "fixture", version: flag("--version") ?? "1.2.3" });

  server.registerTool("search_flights", {
    description: "Search flights to a destination on a date.",
    inputSchema: {
      destination: z.string().describe("IATA code or city"),
      date: z.string().describe("YYYY-MM-DD"),
    },
  }, ({ destination, date }) => ({
    content: [{ type: "text", text: JSON.stringify([{ flight_id: "FL-100", destination, date }]) }],
  }));

  server.registerTool("book_flight", {
    description: "Book a flight by id.",
    inputSchema: { flight_id: z.string().regex(/^FL-\d+$/) },
  }, ({ flight_id }) => ({ content: [{ type: "text", text: `booked ${flight_id}` }] }));

  server.registerTool("add", {
    description: "Add two numbers.",
    inputSchema: { a: z.number(), b: z.number() },
  }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));

  server.registerTool("get_weather", {
    description: "Weather for a city.",
    inputSchema: { city: z.string() },
  }, ({ city }) => ({ content: [{ type: "text", text: `sunny in ${city}` }] }));

  // Deliberately bad: `minimum` must be a number, so the schema is not a valid JSON Schema.
  server.registerTool("count_items", {
    description: "Count items (its schema is deliberately invalid).",
    inputSchema: { count: z.number().int().meta({ minimum: "zero" }) },
  }, ({ count }) => ({ content: [{ type: "text", text: String(count) }] }));

  // No description: a warning, not a failure.
  server.registerTool("ping", { inputSchema: {} }, () => ({
    content: [{ type: "text", text: "pong" }],
  }));

  // The names (never values) of the variables the server was started with; needs --allow-env.
  server.registerTool("env_names", {
    description: "List the names of the server's environment variables.",
    inputSchema: {},
  }, () => ({ content: [{ type: "text", text: JSON.stringify(Object.keys(Deno.env.toObject()).sort()) }] }));

  const transport = new StdioServerTransport();
  await server.connect(transport);

  const record = flag("--record");
  const pageSize = Number(flag("--page-size") ?? "0");
  const cursors = new Map<string | number, number>(); // request id -> page offset
  const received = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (record) Deno.writeTextFileSync(record, JSON.stringify(message) + "\n", { append: true });
    if ("method" in message && message.method === "tools/list" && "id" in message) {
      const cursor = (message.params as { cursor?: string } | undefined)?.cursor;
      cursors.set(message.id, cursor ? Number(cursor.replace("page-", "")) : 0);
    }
    received?.(message);
  };
  if (pageSize > 0) {
    // McpServer answers tools/list in one page; cut its answer into pages here.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      if ("result" in message && cursors.has(message.id)) {
        const offset = cursors.get(message.id)!;
        cursors.delete(message.id);
        const tools = (message.result as { tools: unknown[] }).tools;
        const next = offset + pageSize;
        const page: Record<string, unknown> = { tools: tools.slice(offset, next) };
        if (next < tools.length) page.nextCursor = `page-${next}`;
        if (has("--page-loop")) page.nextCursor = `page-${pageSize}`;
        return send({ ...message, result: page });
      }
      return send(message);
    };
  }
  if (has("--stdout-noise")) console.log("fixture: server ready (this line should go to stderr)");
}
