/**
 * Reading a server spec from JSON or YAML: our own shape, one entry of a
 * client config (`mcpServers`, VS Code's `servers`) or a whole config. Given
 * the client a config is for ({@linkcode ServerSpecFromJsonOptions.client},
 * see `client_dialect.ts`), keys that client writes and that do not change
 * how a server starts are read with a note and not honoured, and
 * references the client would pass on literally draw a warning; without
 * one (an agent spec's `server:`, any other file) every key must be known.
 * `${workspaceFolder}` is absolute: the folder above `.vscode/` or
 * `.cursor/`, resolved against our working directory when the config's
 * path is relative (so that a server with its own `cwd` gets the right
 * folder).
 *
 * @module
 */

import { resolve } from "node:path";
import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import type {
  ConfigNote,
  HttpServerSpec,
  McpServerSpec,
  ServerVerify,
  StdioServerSpec,
} from "./server_spec.ts";
import { CLIENT_NAMES, LENIENT_CLIENT_KEYS, type McpClient } from "./client_dialect.ts";
import { literalReferences } from "./client_variables.ts";

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
  /**
   * The client the config is for: its keys are read leniently (a note for
   * each key not honoured) and its variables as it expands them.
   * @default {undefined} (every key must be known; our variable rules)
   */
  client?: McpClient;
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
 * import { workspaceFolderOf } from "./spec_from_json.ts";
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
  "ignore",
  "type",
]);
const HTTP_KEYS = new Set(["name", "url", "headers", "timeout_s", "verify", "ignore", "type"]);

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

// Doctor's `CODE` or `CODE@/json/pointer` (lib/doctor/ignore.ts reads them).
const IGNORE_RULE = /^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*(?:@\/.*)?$/;

function ignoreFromJson(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) {
    throw new InputError(`expected a list of CODE or CODE@PATH, got ${describeJson(value)}`, path);
  }
  return value.map((item, i) => {
    if (typeof item !== "string" || !IGNORE_RULE.test(item)) {
      throw new InputError(
        `expected CODE or CODE@PATH (lint.unannotated, drift.compatible@/resources), got ${
          typeof item === "string" ? JSON.stringify(item) : describeJson(item)
        }`,
        `${path}[${i}]`,
      );
    }
    return item;
  });
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
 * import { serverSpecFromJson } from "./spec_from_json.ts";
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
        client: options.client,
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
  const client = options.client;
  const notes: ConfigNote[] = [];
  const gemini = client === "gemini-cli";
  const urlKey = gemini && Object.hasOwn(value, "httpUrl") ? "httpUrl" : "url";
  const remote = Object.hasOwn(value, urlKey);
  const allowed = remote ? HTTP_KEYS : STDIO_KEYS;
  for (const key of Object.keys(value)) {
    if (key === urlKey) continue;
    if (client !== undefined && LENIENT_CLIENT_KEYS.includes(key)) {
      notes.push({
        status: "note",
        path: joinPath(path, key),
        message: `${key} is ${
          CLIENT_NAMES[client]
        }'s setting; doctor reads it and does not honour it${
          key === "timeout" ? " (no unit conversion; --timeout sets doctor's)" : ""
        }`,
      });
      continue;
    }
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
    ignore?: string[];
    workspaceFolder?: string;
    client?: McpClient;
    configNotes?: ConfigNote[];
  } = {};
  if (options.configPath !== undefined) {
    common.workspaceFolder = absolute(workspaceFolderOf(options.configPath));
  }
  if (client !== undefined) {
    common.client = client;
    common.configNotes = notes;
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
  if (value.ignore !== undefined) {
    common.ignore = ignoreFromJson(value.ignore, joinPath(path, "ignore"));
  }

  if (remote) {
    const url = nonEmptyString(value[urlKey], joinPath(path, urlKey));
    let parsed: URL;
    try {
      // A `${…}` reference (a host or key from a variable) is expanded at start.
      parsed = new URL(url.replace(/\$\{[^}]*\}/g, "x"));
    } catch {
      throw new InputError("not a URL; write http://host:port/path", joinPath(path, urlKey));
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new InputError("expected an http: or https: URL", joinPath(path, urlKey));
    }
    const spec: HttpServerSpec = { ...common, url };
    if (gemini && type === undefined) {
      // Gemini CLI: `httpUrl` is Streamable HTTP, `url` is SSE.
      spec.transport = urlKey === "httpUrl" ? "streamable-http" : "sse";
    } else if (type === "sse" || (type === undefined && /\/sse\/?$/.test(parsed.pathname))) {
      spec.transport = "sse";
    } else if (type !== undefined && type !== "stdio") spec.transport = "streamable-http";
    if (value.headers !== undefined) {
      spec.headers = stringRecord(value.headers, joinPath(path, "headers"));
    }
    noteLiterals(spec, path, urlKey, notes);
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
  noteLiterals(spec, path, "url", notes, raw);
  return spec;
}

function absolute(folder: string): string {
  try {
    return resolve(folder);
  } catch {
    return folder; // deno may not read the working directory: keep the path as given
  }
}

// A warning for each reference the client passes to the server as written.
function noteLiterals(
  spec: McpServerSpec,
  path: string,
  urlKey: string,
  notes: ConfigNote[],
  raw?: unknown,
): void {
  const client = spec.client;
  if (client === undefined) return;
  const values: [string, string][] = [];
  if ("url" in spec) {
    values.push([joinPath(path, urlKey), spec.url]);
    for (const [name, item] of Object.entries(spec.headers ?? {})) {
      values.push([joinPath(joinPath(path, "headers"), name), item]);
    }
  } else {
    spec.command.forEach((token, i) =>
      values.push([
        // `command` + `args` as clients write them; our shape's command array otherwise.
        Array.isArray(raw)
          ? joinPath(joinPath(path, "command"), i)
          : i === 0
          ? joinPath(path, "command")
          : joinPath(joinPath(path, "args"), i - 1),
        token,
      ])
    );
    for (const [name, item] of Object.entries(spec.env ?? {})) {
      values.push([joinPath(joinPath(path, "env"), name), item]);
    }
    if (spec.cwd !== undefined) values.push([joinPath(path, "cwd"), spec.cwd]);
  }
  const editor = client === "vscode" || client === "cursor";
  for (const [where, text] of values) {
    for (const reference of literalReferences(text, client)) {
      notes.push({
        status: "warn",
        path: where,
        message: `${CLIENT_NAMES[client]} passes ${reference} to the server as written (it ${
          editor ? `expands \${env:NAME}, not ${reference}` : "expands no variables"
        }); ${editor ? `write \${env:${reference.slice(2, -1)}}` : "write the value itself"}`,
      });
      if (notes.length >= 50) return;
    }
  }
}
