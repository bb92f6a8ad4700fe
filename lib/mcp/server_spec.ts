/**
 * Which MCP server to talk to: our {@linkcode McpServerSpec}, read from our own
 * shape or from one `mcpServers` entry as Claude Desktop, Cursor and VS Code write
 * it (reading: `spec_from_json.ts`, as each client does: `client_dialect.ts`;
 * from a command line: `spec_from_command.ts`; its environment: `server_env.ts`).
 *
 * @module
 */

import { shellLine } from "./command_line.ts";
import type { McpClient } from "./client_dialect.ts";

/** What a server's `initialize` answer and tool list must match (a pinned build). */
export interface ServerVerify {
  /** The `serverInfo.name` the server must report. */
  name?: string;
  /** The `serverInfo.version` the server must report. */
  version?: string;
  /** The canonical SHA-256 of the tool list (see `toolsSha256`). */
  toolsSha256?: string;
}

/** Something reading a client config noticed (doctor's `config` check shows it). */
export interface ConfigNote {
  /** `note` for a key read and not honoured; `warn` for what the client would get wrong. */
  status: "note" | "warn";
  /** The JSON path in the config (`mcpServers.files.timeout`). */
  path: string;
  /** One sentence. */
  message: string;
}

/** A local MCP server, started as a child process and spoken to over stdio. */
export interface StdioServerSpec {
  /** A name for messages. */
  name?: string;
  /** The executable and its arguments, non-empty. */
  command: string[];
  /**
   * Environment variables for the server, over the minimal base. Values may
   * reference the caller's variables as `${NAME}`, resolved at start and never printed.
   */
  env?: Record<string, string>;
  /** The working directory. */
  cwd?: string;
  /** A dotenv file whose variables the server gets under `env` (VS Code's `envFile`). */
  envFile?: string;
  /** Seconds each request may take, unless the caller gives a timeout. */
  timeoutS?: number;
  /** The build this server must be. */
  verify?: ServerVerify;
  /** Doctor findings known and accepted (`CODE` or `CODE@PATH`), silenced like `--ignore`. */
  ignore?: string[];
  /** What `${workspaceFolder}` is: the folder above the config's `.vscode` or `.cursor`. */
  workspaceFolder?: string;
  /** The config's declared `inputs` (VS Code): id → description, for `${input:ID}`. */
  inputPrompts?: Record<string, string>;
  /** The client whose config the spec was read from: variables expand as that client does. */
  client?: McpClient;
  /** What reading the client config noted: keys not honoured, variables left as written. */
  configNotes?: ConfigNote[];
}

/** A remote MCP server spoken to over Streamable HTTP. */
export interface HttpServerSpec {
  /** A name for messages. */
  name?: string;
  /** The endpoint, `http:` or `https:`. */
  url: string;
  /** Request headers; values may reference variables as `${NAME}` (never printed). */
  headers?: Record<string, string>;
  /**
   * `"sse"` for the legacy HTTP+SSE transport (deprecated in MCP 2025-03-26): a
   * `type: "sse"` entry, or a URL whose path ends in `/sse`.
   */
  transport?: "streamable-http" | "sse";
  /** Seconds each request may take, unless the caller gives a timeout. */
  timeoutS?: number;
  /** The build this server must be. */
  verify?: ServerVerify;
  /** Doctor findings known and accepted (`CODE` or `CODE@PATH`), silenced like `--ignore`. */
  ignore?: string[];
  /** What `${workspaceFolder}` is: the folder above the config's `.vscode` or `.cursor`. */
  workspaceFolder?: string;
  /** The config's declared `inputs` (VS Code): id → description, for `${input:ID}`. */
  inputPrompts?: Record<string, string>;
  /** The client whose config the spec was read from: variables expand as that client does. */
  client?: McpClient;
  /** What reading the client config noted: keys not honoured, variables left as written. */
  configNotes?: ConfigNote[];
}

/** A local (stdio) or remote (Streamable HTTP) MCP server. */
export type McpServerSpec = StdioServerSpec | HttpServerSpec;

/**
 * The former spelling of {@linkcode McpServerSpec}.
 * @deprecated Use `McpServerSpec` (one spelling of MCP, as in `McpServerError`).
 */
export type MCPServerSpec = McpServerSpec;

/**
 * A spec in the file shape (snake_case keys), e.g. for `--json` output.
 * Environment and header values are left out; only their names are listed.
 *
 * @param spec The spec.
 * @returns The JSON-safe object.
 *
 * @example Usage
 * ```ts
 * import { serverSpecToJson } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(serverSpecToJson({ command: ["srv"], env: { TOKEN: "s3cret" }, timeoutS: 5 }), {
 *   command: ["srv"],
 *   env_names: ["TOKEN"],
 *   timeout_s: 5,
 * });
 * ```
 */
export function serverSpecToJson(spec: McpServerSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (spec.name !== undefined) out.name = spec.name;
  if (isRemoteSpec(spec)) {
    out.url = spec.url;
    if (spec.transport === "sse") out.transport = "sse";
    if (spec.headers) out.header_names = Object.keys(spec.headers);
  } else {
    out.command = [...spec.command];
    if (spec.env) out.env_names = Object.keys(spec.env);
    if (spec.cwd !== undefined) out.cwd = spec.cwd;
    if (spec.envFile !== undefined) out.env_file = spec.envFile;
  }
  if (spec.timeoutS !== undefined) out.timeout_s = spec.timeoutS;
  if (spec.verify) {
    out.verify = {
      ...(spec.verify.name !== undefined ? { name: spec.verify.name } : {}),
      ...(spec.verify.version !== undefined ? { version: spec.verify.version } : {}),
      ...(spec.verify.toolsSha256 !== undefined ? { tools_sha256: spec.verify.toolsSha256 } : {}),
    };
  }
  return out;
}

/**
 * Whether a spec names a remote server.
 *
 * @param spec The spec.
 * @returns `true` for `{url}`.
 *
 * @example Usage
 * ```ts
 * import { isRemoteSpec } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isRemoteSpec({ url: "http://127.0.0.1:3000/mcp" }), true);
 * assert.equal(isRemoteSpec({ command: ["srv"] }), false);
 * ```
 */
export function isRemoteSpec(spec: McpServerSpec): spec is HttpServerSpec {
  return "url" in spec && typeof spec.url === "string";
}

/**
 * Whether a remote spec speaks the legacy HTTP+SSE transport: its
 * `transport` says so, or (when it does not say) its URL's path ends in `/sse`.
 *
 * @param spec The spec.
 * @returns `true` for legacy SSE.
 *
 * @example Usage
 * ```ts
 * import { isLegacySse } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLegacySse({ url: "http://127.0.0.1:3001/sse" }), true);
 * assert.equal(isLegacySse({ url: "http://127.0.0.1:3001/mcp" }), false);
 * ```
 */
export function isLegacySse(spec: McpServerSpec): boolean {
  if (!isRemoteSpec(spec)) return false;
  if (spec.transport !== undefined) return spec.transport === "sse";
  return /\/sse\/?(\?.*)?$/.test(spec.url);
}

/**
 * A short description of the server for messages: its name, the command line
 * or the URL; never environment or header values.
 *
 * @param spec The spec.
 * @returns One line.
 *
 * @example Usage
 * ```ts
 * import { describeServer } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeServer({ command: ["npx", "-y", "my server"] }), "npx -y 'my server'");
 * ```
 */
export function describeServer(spec: McpServerSpec): string {
  const what = isRemoteSpec(spec) ? spec.url : shellLine(spec.command);
  return spec.name !== undefined ? `${spec.name} (${what})` : what;
}
