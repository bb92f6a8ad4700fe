/**
 * Which MCP client a config file is written for, and so how to read it. A
 * file is read the way its client reads it, so that doctor passes only a
 * setup that starts in that client:
 *
 * | file | client | syntax | variables |
 * | --- | --- | --- | --- |
 * | `claude_desktop_config.json` | Claude Desktop | JSON | none: `${VAR}` reaches the server literally (a warning) |
 * | `.mcp.json` | Claude Code | JSON | `${VAR}`, `${VAR:-default}` in command, args, env, url, headers |
 * | `.cursor/mcp.json` | Cursor | JSONC | `${env:NAME}`, `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}`, `${/}` |
 * | `.vscode/mcp.json`, or a top-level `servers` | VS Code | JSONC | those, `${input:ID}`, `${workspaceRoot}`, `${cwd}` |
 * | `.gemini/settings.json` | Gemini CLI | JSON | `$VAR` and `${VAR}` |
 * | `cline_mcp_settings.json` | Cline | JSON | none (literal, a warning) |
 *
 * Any other file keeps the rules doctor had before dialects (every
 * reference above expands); `--client NAME` picks a dialect whatever the
 * file is called. Sources, read 2026-12-01:
 *
 * - Claude Code: the MCP page, "Environment variable expansion in
 *   `.mcp.json`" (https://code.claude.com/docs/en/mcp): `${VAR}` and
 *   `${VAR:-default}`, in `command`, `args`, `env`, `url` and `headers`; an
 *   unset variable without a default fails the config (we fail `server-start`).
 * - Claude Desktop passes `env` values to the server as written: reports
 *   such as https://github.com/anthropics/claude-code/issues/40372 and
 *   https://github.com/anthropics/claude-code/issues/80197 (the desktop app
 *   hands the server the literal `${VAR}` the CLI expands), and
 *   https://github.com/modelcontextprotocol/servers/issues/1039.
 * - VS Code: https://code.visualstudio.com/docs/reference/variables-reference
 *   (predefined variables, `${env:NAME}`, `${input:ID}`; `${cwd}` is the
 *   directory the editor started in — ours here; `${workspaceRoot}` is the
 *   deprecated name of `${workspaceFolder}`). A `${NAME}` that is none of
 *   them stays as written (VS Code resolves only the variables it knows).
 * - Cursor: https://cursor.com/docs/context/mcp ("Config interpolation").
 * - Gemini CLI: https://geminicli.com/docs/cli/configuration (string values
 *   in `settings.json` may reference `$VAR_NAME` or `${VAR_NAME}`), its MCP
 *   page https://geminicli.com/docs/tools/mcp-server (`timeout` in
 *   milliseconds, `trust`, `includeTools`, `excludeTools`; `httpUrl` for
 *   Streamable HTTP, `url` for SSE).
 * - Cline: its MCP hub passes an entry's `env` on unchanged
 *   (https://github.com/cline/cline/issues/3533); `timeout` is in seconds
 *   (https://github.com/cline/cline/pull/1904 and its settings UI).
 *
 * Keys a client writes that do not change how a server starts (see
 * {@linkcode LENIENT_CLIENT_KEYS}) draw a note in a client config and are
 * not honoured: a `timeout` is not converted (seconds in Cline,
 * milliseconds in Gemini CLI), `--timeout` sets ours. An agent spec's
 * `server:` block stays strict.
 *
 * @module
 */

/** An MCP client whose config files doctor reads as that client does. */
export type McpClient =
  | "claude-desktop"
  | "claude-code"
  | "cursor"
  | "vscode"
  | "gemini-cli"
  | "cline";

/** Every {@linkcode McpClient}, for `--client NAME`. */
export const MCP_CLIENTS: readonly McpClient[] = [
  "claude-desktop",
  "claude-code",
  "cursor",
  "vscode",
  "gemini-cli",
  "cline",
];

/** How messages name each client. */
export const CLIENT_NAMES: Readonly<Record<McpClient, string>> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  "gemini-cli": "Gemini CLI",
  cline: "Cline",
};

/**
 * Keys clients write into a server entry that doctor reads and does not
 * honour (each draws a note): request timeouts, trust and tool filters,
 * VS Code's development and sandbox settings. (`disabled`, `autoApprove`,
 * `alwaysAllow`, `disabledTools`, `description` and `transportType` are
 * read and ignored without a note, in every file, as before.)
 */
export const LENIENT_CLIENT_KEYS: readonly string[] = [
  "timeout",
  "trust",
  "includeTools",
  "excludeTools",
  "dev",
  "sandboxEnabled",
  "sandbox",
];

/**
 * The client a config file is for, by its name (and, for VS Code, a
 * top-level `servers`); `undefined` for any other file.
 *
 * @param path The config file.
 * @param value Its parsed contents, when known.
 * @returns The client, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { clientOfConfig } from "./client_dialect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clientOfConfig("/p/.vscode/mcp.json"), "vscode");
 * assert.equal(clientOfConfig("proj/.mcp.json"), "claude-code");
 * assert.equal(clientOfConfig("any.json", { servers: {} }), "vscode");
 * assert.equal(clientOfConfig("servers.json", { mcpServers: {} }), undefined);
 * ```
 */
export function clientOfConfig(path: string, value?: unknown): McpClient | undefined {
  const parts = path.split(/[\\/]/);
  const file = parts[parts.length - 1] ?? "";
  const folder = parts[parts.length - 2];
  if (file === "claude_desktop_config.json") return "claude-desktop";
  if (file === ".mcp.json") return "claude-code";
  if (file === "cline_mcp_settings.json") return "cline";
  if (file === "mcp.json" && folder === ".cursor") return "cursor";
  if (file === "mcp.json" && folder === ".vscode") return "vscode";
  if (file === "settings.json" && folder === ".gemini") return "gemini-cli";
  if (
    value !== null && typeof value === "object" && !Array.isArray(value) &&
    Object.hasOwn(value, "servers") && !Object.hasOwn(value, "mcpServers")
  ) return "vscode";
  return undefined;
}

/**
 * Whether a client reads its config as JSONC (comments, trailing commas).
 *
 * @param client The client.
 * @returns `true` for VS Code and Cursor.
 *
 * @example Usage
 * ```ts
 * import { readsJsonc } from "./client_dialect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(readsJsonc("vscode"), true);
 * assert.equal(readsJsonc("claude-code"), false);
 * ```
 */
export function readsJsonc(client: McpClient | undefined): boolean {
  return client === "vscode" || client === "cursor";
}

/**
 * The client named on the command line.
 *
 * @param name What was given (`vscode`, `claude-code`…).
 * @returns The client, or `undefined` when there is none of that name.
 *
 * @example Usage
 * ```ts
 * import { parseClient } from "./client_dialect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseClient("cursor"), "cursor");
 * assert.equal(parseClient("emacs"), undefined);
 * ```
 */
export function parseClient(name: string): McpClient | undefined {
  return (MCP_CLIENTS as readonly string[]).includes(name) ? name as McpClient : undefined;
}
