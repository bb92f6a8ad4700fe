/**
 * Which MCP server to talk to: our {@linkcode McpServerSpec}, read from our own
 * shape or from one `mcpServers` entry as Claude Desktop, Cursor and VS Code write
 * it (from a command line: `spec_from_command.ts`; its environment: `server_env.ts`).
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { shellLine } from "./command_line.ts";

/** What a server's `initialize` answer and tool list must match (a pinned build). */
export interface ServerVerify {
  /** The `serverInfo.name` the server must report. */
  name?: string;
  /** The `serverInfo.version` the server must report. */
  version?: string;
  /** The canonical SHA-256 of the tool list (see `toolsSha256`). */
  toolsSha256?: string;
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
  /** What `${workspaceFolder}` is: the folder above the config's `.vscode` or `.cursor`. */
  workspaceFolder?: string;
  /** The config's declared `inputs` (VS Code): id → description, for `${input:ID}`. */
  inputPrompts?: Record<string, string>;
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
  /** What `${workspaceFolder}` is: the folder above the config's `.vscode` or `.cursor`. */
  workspaceFolder?: string;
  /** The config's declared `inputs` (VS Code): id → description, for `${input:ID}`. */
  inputPrompts?: Record<string, string>;
}

/** A local (stdio) or remote (Streamable HTTP) MCP server. */
export type McpServerSpec = StdioServerSpec | HttpServerSpec;

/**
 * The former spelling of {@linkcode McpServerSpec}.
 * @deprecated Use `McpServerSpec` (one spelling of MCP, as in `McpServerError`).
 */
export type MCPServerSpec = McpServerSpec;

/** Options for {@linkcode serverSpecFromJson}. */
export interface ServerSpecFromJsonOptions {
  /**
   * JSON path of the value, for error messages.
   * @default {"server"}
   */
  path?: string;
  /**
   * For a whole client config (`{"mcpServers": {…}}`): the entry to take. Needed when there are several.
   * @default {undefined}
   */
  entry?: string;
  /**
   * The config file the value came from: `${workspaceFolder}` is the folder
   * above its `.vscode` or `.cursor` folder (else the file's own folder).
   * @default {undefined}
   */
  configPath?: string;
}

/**
 * What `${workspaceFolder}` means for a config file, as VS Code and Cursor
 * read it: the folder above `.vscode/` or `.cursor/`, else the file's folder.
 *
 * @param configPath The config file.
 * @returns The folder.
 *
 * @example Usage
 * ```ts
 * import { workspaceFolderOf } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(workspaceFolderOf("/home/me/app/.vscode/mcp.json"), "/home/me/app");
 * assert.equal(workspaceFolderOf("conf/mcp.json"), "conf");
 * ```
 */
export function workspaceFolderOf(configPath: string): string {
  const parts = configPath.split(/[\\/]/);
  parts.pop();
  const last = parts[parts.length - 1];
  if (last === ".vscode" || last === ".cursor") parts.pop();
  const folder = parts.join("/");
  return folder === "" ? (configPath.startsWith("/") ? "/" : ".") : folder;
}

function inputPromptsOf(value: Record<string, unknown>): Record<string, string> | undefined {
  if (!Array.isArray(value.inputs)) return undefined;
  const prompts: Record<string, string> = {};
  for (const input of value.inputs) {
    if (isJsonObject(input) && typeof input.id === "string") {
      prompts[input.id] = typeof input.description === "string" ? input.description : input.id;
    }
  }
  return prompts;
}

// Keys that desktop clients write into an `mcpServers` entry and that do not change how to start it.
const IGNORED_CLIENT_KEYS = new Set([
  "disabled",
  "disabledTools",
  "autoApprove",
  "alwaysAllow",
  "description",
  "transportType",
]);
const STDIO_KEYS = new Set([
  "name",
  "command",
  "args",
  "env",
  "cwd",
  "envFile",
  "timeout_s",
  "verify",
  "type",
]);
const HTTP_KEYS = new Set(["name", "url", "headers", "timeout_s", "verify", "type"]);

function stringRecord(value: unknown, path: string): Record<string, string> {
  if (!isJsonObject(value)) {
    throw new InputError(`expected an object of strings, got ${describeJson(value)}`, path);
  }
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") {
      throw new InputError(
        `expected a string, got ${describeJson(item)}; quote it`,
        joinPath(path, key),
      );
    }
    out[key] = item;
  }
  return out;
}

function nonEmptyString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InputError(`expected a non-empty string, got ${describeJson(value)}`, path);
  }
  return value;
}

function verifyFromJson(value: unknown, path: string): ServerVerify {
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected {name?, version?, tools_sha256?}, got ${describeJson(value)}`,
      path,
    );
  }
  const verify: ServerVerify = {};
  for (const [key, item] of Object.entries(value)) {
    const where = joinPath(path, key);
    if (key === "name") verify.name = nonEmptyString(item, where);
    else if (key === "version") verify.version = nonEmptyString(item, where);
    else if (key === "tools_sha256") {
      if (typeof item !== "string" || !/^[0-9a-f]{64}$/.test(item)) {
        throw new InputError("expected 64 lowercase hex digits (a SHA-256)", where);
      }
      verify.toolsSha256 = item;
    } else throw new InputError("unknown key; the keys are name, version, tools_sha256", where);
  }
  return verify;
}

function pickEntry(
  value: Record<string, unknown>,
  key: string,
  options: ServerSpecFromJsonOptions,
  path: string,
): { value: unknown; path: string; name: string } {
  const servers = value[key];
  if (!isJsonObject(servers)) {
    throw new InputError(`expected an object of servers, got ${describeJson(servers)}`, path);
  }
  const names = Object.keys(servers);
  const name = options.entry ?? (names.length === 1 ? names[0] : undefined);
  if (name === undefined) {
    throw new InputError(
      names.length === 0
        ? "no servers in it; add one"
        : `${names.length} servers (${names.join(", ")}); name the one to use (--mcp-server NAME)`,
      joinPath(path, key),
    );
  }
  if (!Object.hasOwn(servers, name)) {
    throw new InputError(
      `no server named ${JSON.stringify(name)}; the servers are ${names.join(", ") || "none"}`,
      joinPath(path, key),
    );
  }
  return { value: servers[name], path: joinPath(joinPath(path, key), name), name };
}

/**
 * Read a server spec: our shape (`{command: [...], env?, cwd?, timeout_s?, verify?}`
 * or `{url, headers?, timeout_s?, verify?}`), one `mcpServers` entry
 * (`{"command": "npx", "args": [...], "env": {...}}` or `{"url": "…"}`, with
 * VS Code's `type`), or a whole client config with `mcpServers` (VS Code:
 * `servers`).
 *
 * @param value The parsed JSON or YAML value.
 * @param options The JSON path for errors, and which entry of a whole config to take.
 * @returns The spec.
 * @throws {InputError} Naming the JSON path of the problem.
 *
 * @example Usage
 * ```ts
 * import { serverSpecFromJson } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = serverSpecFromJson({
 *   mcpServers: { files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] } },
 * });
 * assert.deepEqual(spec, {
 *   name: "files",
 *   command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."],
 * });
 * assert.throws(() => serverSpecFromJson({ command: [] }), /server\.command/);
 * ```
 */
export function serverSpecFromJson(
  value: unknown,
  options: ServerSpecFromJsonOptions = {},
): McpServerSpec {
  const path = options.path ?? "server";
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected a server object ({command: [...]} or {url}), got ${describeJson(value)}`,
      path,
    );
  }
  for (const key of ["mcpServers", "servers"]) {
    if (Object.hasOwn(value, key) && !Object.hasOwn(value, "command")) {
      const picked = pickEntry(value, key, options, path);
      const spec = serverSpecFromJson(picked.value, {
        path: picked.path,
        configPath: options.configPath,
      });
      const prompts = inputPromptsOf(value);
      if (prompts !== undefined) spec.inputPrompts = prompts;
      return spec.name === undefined ? { name: picked.name, ...spec } : spec;
    }
  }
  const type = value.type;
  if (
    type !== undefined &&
    !["stdio", "http", "streamable-http", "streamableHttp", "sse"].includes(String(type))
  ) {
    throw new InputError(
      `unsupported transport ${
        JSON.stringify(type)
      }; use stdio, http (Streamable HTTP) or sse (legacy)`,
      joinPath(path, "type"),
    );
  }
  const remote = Object.hasOwn(value, "url");
  const allowed = remote ? HTTP_KEYS : STDIO_KEYS;
  for (const key of Object.keys(value)) {
    if (!allowed.has(key) && !IGNORED_CLIENT_KEYS.has(key)) {
      throw new InputError(
        `unknown key; a ${remote ? "remote" : "local"} server takes ${[...allowed].join(", ")}`,
        joinPath(path, key),
      );
    }
  }
  const common: {
    name?: string;
    timeoutS?: number;
    verify?: ServerVerify;
    workspaceFolder?: string;
  } = {};
  if (options.configPath !== undefined) {
    common.workspaceFolder = workspaceFolderOf(options.configPath);
  }
  if (value.name !== undefined) common.name = nonEmptyString(value.name, joinPath(path, "name"));
  if (value.timeout_s !== undefined) {
    const timeout = value.timeout_s;
    if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) {
      throw new InputError("expected a positive number of seconds", joinPath(path, "timeout_s"));
    }
    common.timeoutS = timeout;
  }
  if (value.verify !== undefined) {
    common.verify = verifyFromJson(value.verify, joinPath(path, "verify"));
  }

  if (remote) {
    const url = nonEmptyString(value.url, joinPath(path, "url"));
    let parsed: URL;
    try {
      // A `${…}` reference (a host or key from a variable) is expanded at start.
      parsed = new URL(url.replace(/\$\{[^}]*\}/g, "x"));
    } catch {
      throw new InputError("not a URL; write http://host:port/path", joinPath(path, "url"));
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new InputError("expected an http: or https: URL", joinPath(path, "url"));
    }
    const spec: HttpServerSpec = { ...common, url };
    if (type === "sse" || (type === undefined && /\/sse\/?$/.test(parsed.pathname))) {
      spec.transport = "sse";
    } else if (type !== undefined && type !== "stdio") spec.transport = "streamable-http";
    if (value.headers !== undefined) {
      spec.headers = stringRecord(value.headers, joinPath(path, "headers"));
    }
    return spec;
  }

  let command: string[];
  const raw = value.command;
  if (typeof raw === "string") {
    command = [nonEmptyString(raw, joinPath(path, "command"))];
    if (value.args !== undefined) {
      if (!Array.isArray(value.args)) {
        throw new InputError(
          `expected an array of strings, got ${describeJson(value.args)}`,
          joinPath(path, "args"),
        );
      }
      value.args.forEach((arg, i) => {
        if (typeof arg !== "string") {
          throw new InputError(
            `expected a string, got ${describeJson(arg)}`,
            joinPath(joinPath(path, "args"), i),
          );
        }
        command.push(arg);
      });
    }
  } else if (Array.isArray(raw)) {
    if (raw.length === 0) {
      throw new InputError(
        "empty command; write [executable, arg…]",
        joinPath(path, "command"),
      );
    }
    if (value.args !== undefined) {
      throw new InputError(
        "args goes with a string command; put the arguments in the command array",
        joinPath(path, "args"),
      );
    }
    command = raw.map((item, i) => nonEmptyString(item, joinPath(joinPath(path, "command"), i)));
  } else {
    throw new InputError(
      `missing command (or url); write command: [executable, arg…], got ${describeJson(raw)}`,
      joinPath(path, "command"),
    );
  }
  const spec: StdioServerSpec = { ...common, command };
  if (value.env !== undefined) spec.env = stringRecord(value.env, joinPath(path, "env"));
  if (value.cwd !== undefined) spec.cwd = nonEmptyString(value.cwd, joinPath(path, "cwd"));
  if (value.envFile !== undefined) {
    spec.envFile = nonEmptyString(value.envFile, joinPath(path, "envFile"));
  }
  return spec;
}

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
