/**
 * An MCP server over stdio (official SDK) whose tools fail the way a server
 * does in the middle of a run (issue 30: the call in flight is kept):
 *
 *   deno run --no-prompt testdata/mcp/dying_server.ts
 *
 * Tools: `remember` (answers), `die` (writes two lines to stderr, then the
 * process exits with status 7 before answering), `hang` (never answers).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "dying", version: "1.0.0" });

server.registerTool("remember", {
  description: "Remember a fact.",
  inputSchema: { fact: z.string() },
}, ({ fact }) => ({ content: [{ type: "text", text: `remembered ${fact}` }] }));

server.registerTool("die", {
  description: "Crash while answering.",
  inputSchema: {},
}, () => {
  console.error("dying: opening the database");
  console.error("dying: FATAL segmentation fault in the driver");
  Deno.exit(7);
});

server.registerTool("hang", {
  description: "Never answer.",
  inputSchema: {},
}, () => {
  console.error("dying: waiting for a lock that never comes");
  return new Promise(() => {});
});

await server.connect(new StdioServerTransport());
