/**
 * A fake catalog server for the doctor's drift and lint tests, built with the
 * official SDK's low-level `Server` over stdio: it serves the tools, prompts,
 * resources and resource templates of a JSON file, as they are written there
 * (so a test can plant any schema, hint or text), and answers nothing else.
 *
 *   deno run --no-prompt --allow-read=FILE testdata/mcp/catalog_server.ts FILE
 *
 * The file: `{name?, version?, instructions?, tools?, prompts?, resources?,
 * resource_templates?}` (each list as `tools/list` and the others send it).
 * The capabilities are `tools`, and `prompts`/`resources` when the file has
 * them.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const file = Deno.args[0];
if (file === undefined) {
  console.error("usage: catalog_server.ts FILE");
  Deno.exit(2);
}
const catalog = JSON.parse(await Deno.readTextFile(file));
const list = (key: string): unknown[] => Array.isArray(catalog[key]) ? catalog[key] : [];
const hasResources = "resources" in catalog || "resource_templates" in catalog;

const server = new Server(
  { name: catalog.name ?? "catalog", version: catalog.version ?? "1.0.0" },
  {
    capabilities: {
      tools: {},
      ...(hasResources ? { resources: {} } : {}),
      ...("prompts" in catalog ? { prompts: {} } : {}),
    },
    ...(typeof catalog.instructions === "string" ? { instructions: catalog.instructions } : {}),
  },
);
// The lists as written: the SDK's server does not check what a handler returns.
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list("tools") } as never));
if ("prompts" in catalog) {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: list("prompts") } as never));
}
if (hasResources) {
  server.setRequestHandler(
    ListResourcesRequestSchema,
    () => ({ resources: list("resources") } as never),
  );
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: list("resource_templates") } as never),
  );
}
await server.connect(new StdioServerTransport());
