/**
 * Which MCP server to talk to: our {@linkcode MCPServerSpec}, read from our
 * own shape, from one `mcpServers` entry as Claude Desktop, Cursor and VS Code
 * write it, or from a command line; and the minimal environment a local
 * server is started with.
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

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
  /** Seconds each request may take; the caller's default when absent. */
  timeoutS?: number;
  /** The build this server must be. */
  verify?: ServerVerify;
}

/** A remote MCP server spoken to over Streamable HTTP. */
export interface HttpServerSpec {
  /** A name for messages. */
  name?: string;
  /** The endpoint, `http:` or `https:`. */
  url: string;
  /** Request headers; values may reference variables as `${NAME}` (never printed). */
  headers?: Record<string, string>;
  /** Seconds each request may take; the caller's default when absent. */
  timeoutS?: number;
  /** The build this server must be. */
  verify?: ServerVerify;
}

/** A local (stdio) or remote (Streamable HTTP) MCP server. */
export type MCPServerSpec = StdioServerSpec | HttpServerSpec;

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
}

// Keys that desktop clients write into an `mcpServers` entry and that do not change how to start it.
const IGNORED_CLIENT_KEYS = new Set([
  "disabled",
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
): MCPServerSpec {
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
      const spec = serverSpecFromJson(picked.value, { path: picked.path });
      return spec.name === undefined ? { name: picked.name, ...spec } : spec;
    }
  }
  const type = value.type;
  if (
    type !== undefined &&
    !["stdio", "http", "streamable-http", "streamableHttp"].includes(String(type))
  ) {
    throw new InputError(
      `unsupported transport ${JSON.stringify(type)}; use stdio or http (Streamable HTTP)`,
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
  const common: { name?: string; timeoutS?: number; verify?: ServerVerify } = {};
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
      parsed = new URL(url);
    } catch {
      throw new InputError("not a URL; write http://host:port/path", joinPath(path, "url"));
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new InputError("expected an http: or https: URL", joinPath(path, "url"));
    }
    const spec: HttpServerSpec = { ...common, url };
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
  return spec;
}

/**
 * Split a command line into tokens the way a POSIX shell would for simple
 * cases: whitespace separates, single quotes keep everything, double quotes
 * keep everything but `\"` and `\\`, and a backslash escapes the next character.
 *
 * @param line The command line.
 * @returns The tokens.
 * @throws {InputError} On an unclosed quote.
 *
 * @example Usage
 * ```ts
 * import { splitCommandLine } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitCommandLine(`npx -y "my server" 'a b'`), ["npx", "-y", "my server", "a b"]);
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let inToken = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) current += line[++i];
      else current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inToken = true;
    } else if (char === "\\" && i + 1 < line.length) {
      current += line[++i];
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = "";
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (quote !== null) throw new InputError(`unclosed ${quote} in the command line`, "command");
  if (inToken) tokens.push(current);
  return tokens;
}

/**
 * A local server spec from a command line: the tokens after `--`, or one
 * quoted string.
 *
 * @param command The tokens, or one command-line string to split.
 * @returns The spec.
 * @throws {InputError} When the command is empty.
 *
 * @example Usage
 * ```ts
 * import { serverSpecFromCommandLine } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(serverSpecFromCommandLine("deno run server.ts"), {
 *   command: ["deno", "run", "server.ts"],
 * });
 * ```
 */
export function serverSpecFromCommandLine(command: string | string[]): StdioServerSpec {
  const tokens = typeof command === "string" ? splitCommandLine(command) : [...command];
  if (tokens.length === 0 || tokens[0] === "") {
    throw new InputError("empty server command; give the executable and its arguments", "command");
  }
  return { command: tokens };
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
export function serverSpecToJson(spec: MCPServerSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (spec.name !== undefined) out.name = spec.name;
  if (isRemoteSpec(spec)) {
    out.url = spec.url;
    if (spec.headers) out.header_names = Object.keys(spec.headers);
  } else {
    out.command = [...spec.command];
    if (spec.env) out.env_names = Object.keys(spec.env);
    if (spec.cwd !== undefined) out.cwd = spec.cwd;
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
export function isRemoteSpec(spec: MCPServerSpec): spec is HttpServerSpec {
  return "url" in spec && typeof spec.url === "string";
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
 * assert.equal(describeServer({ command: ["npx", "-y", "my server"] }), `npx -y "my server"`);
 * ```
 */
export function describeServer(spec: MCPServerSpec): string {
  const what = isRemoteSpec(spec)
    ? spec.url
    : spec.command.map((token) => /^[\w@%+=:,./-]+$/.test(token) ? token : JSON.stringify(token))
      .join(" ");
  return spec.name !== undefined ? `${spec.name} (${what})` : what;
}

/**
 * The variables a local server inherits from us when they are set: the search
 * path, home and locale, temp and cache folders, CA certificates and proxies.
 * Nothing else of ours reaches the server.
 */
export const BASE_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "DENO_DIR",
  "DENO_TLS_CA_STORE",
  "DENO_CERT",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  // Windows: a Node or Deno server cannot start without these.
  "SYSTEMROOT",
  "PATHEXT",
  "COMSPEC",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
];

/**
 * Whether a variable's name says it holds a secret (`*_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*PASSWORD*`, `*CREDENTIAL*`).
 *
 * @param name The variable name.
 * @returns `true` when it must not be passed on unless named.
 *
 * @example Usage
 * ```ts
 * import { looksSecret } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(looksSecret("OPENAI_API_KEY"), true);
 * assert.equal(looksSecret("PATH"), false);
 * ```
 */
export function looksSecret(name: string): boolean {
  return /(^|_)(KEY|TOKEN|SECRET)S?$|PASSWORD|PASSWD|CREDENTIAL/i.test(name);
}

function envReadable(name: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
  } catch {
    return true; // an odd name: say "not set", as before
  }
}

/**
 * Replace `${NAME}` references in a value with the caller's variables.
 *
 * @param value The text, e.g. `Bearer ${API_TOKEN}`.
 * @param lookup Reads one variable; `undefined` when unset.
 * @param where What the value is, for the error (`env.TOKEN`, `headers.Authorization`).
 * @returns The expanded text.
 * @throws {InputError} Naming the variable when it is unset (never its value).
 *
 * @example Usage
 * ```ts
 * import { expandVariables } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(expandVariables("Bearer ${T}", (n) => n === "T" ? "x" : undefined, "h"), "Bearer x");
 * assert.throws(() => expandVariables("${NOPE}", () => undefined, "env.A"), /NOPE is not set/);
 * ```
 */
export function expandVariables(
  value: string,
  lookup: (name: string) => string | undefined,
  where: string,
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = lookup(name);
    if (found === undefined) {
      // An unset variable and one deno may not read look the same to the lookup.
      throw new InputError(
        envReadable(name)
          ? `refers to \${${name}}, but ${name} is not set; export it first`
          : `refers to \${${name}}, but deno may not read ${name}; run deno with --allow-env=${name}`,
        where,
      );
    }
    return found;
  });
}

/**
 * The environment a local server starts with: {@linkcode BASE_ENV_NAMES} that
 * are set, then the spec's `env` (with `${NAME}` expanded) over them. A
 * variable named like a secret ({@linkcode looksSecret}) is never inherited
 * unless the spec's `env` names it.
 *
 * @param spec The server spec.
 * @param lookup Reads one of our variables; `undefined` when unset or not permitted.
 * @returns The complete environment for the child.
 * @throws {InputError} When a `${NAME}` in the spec's env is unset.
 *
 * @example Usage
 * ```ts
 * import { serverEnvironment } from "./server_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const ours: Record<string, string> = { PATH: "/bin", OPENAI_API_KEY: "sk-x", TOKEN: "t" };
 * const env = serverEnvironment({ command: ["srv"], env: { API: "${TOKEN}" } }, (n) => ours[n]);
 * assert.deepEqual(env, { PATH: "/bin", API: "t" });
 * ```
 */
export function serverEnvironment(
  spec: StdioServerSpec,
  lookup: (name: string) => string | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV_NAMES) {
    if (looksSecret(name)) continue;
    const value = lookup(name);
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(spec.env ?? {})) {
    env[name] = expandVariables(value, lookup, `server.env.${name}`);
  }
  return env;
}

/**
 * Read one of our environment variables without prompting: `undefined` when
 * it is unset or when Deno was not given `--allow-env` for it.
 *
 * @param name The variable.
 * @returns Its value, or `undefined`.
 *
 * @example Usage
 * ```ts ignore
 * import { readEnv } from "./server_spec.ts";
 *
 * const path = readEnv("PATH");
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
