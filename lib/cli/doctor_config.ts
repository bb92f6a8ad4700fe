/**
 * The servers of `doctor --mcp-config FILE`: the file read as its client
 * reads it (`client_dialect.ts`: JSONC for VS Code and Cursor — also a file
 * of another name whose top-level `servers` makes it VS Code's —, lenient
 * keys, the client's variables), or as `--client NAME` says. With `--all`, an
 * entry that cannot be read fails alone: the others are still checked.
 *
 * @module
 */

import { inFile, InputError, UsageError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import {
  clientOfConfig,
  MCP_CLIENTS,
  type McpClient,
  parseClient,
  readsJsonc,
} from "../mcp/client_dialect.ts";
import type { McpServerSpec } from "../mcp/server_spec.ts";
import { serverSpecFromJson } from "../mcp/spec_from_json.ts";
import { isJsonObject } from "../scoring/calls.ts";

/** One entry of a config: its spec, or why it could not be read. */
export type ConfigEntry =
  | { name: string; spec: McpServerSpec; error?: undefined }
  | { name: string; spec?: undefined; error: InputError };

/** Options for {@linkcode readConfigServers}. */
export interface ReadConfigServersOptions {
  /**
   * The entry to take (`--mcp-server NAME`).
   * @default {undefined} (the only one)
   */
  entry?: string;
  /**
   * Every entry (`--all`).
   * @default {false}
   */
  all?: boolean;
  /**
   * The client's rules to read it by (`--client NAME`).
   * @default {undefined} (by the file's name)
   */
  client?: string;
}

/**
 * The client named by `--client`, checked.
 *
 * @param name The flag's value.
 * @returns The client.
 * @throws {UsageError} For an unknown name.
 *
 * @example Usage
 * ```ts
 * import { clientFlag } from "./doctor_config.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clientFlag("vscode"), "vscode");
 * assert.throws(() => clientFlag("vim"), /--client vim: unknown client/);
 * ```
 */
export function clientFlag(name: string): McpClient {
  const client = parseClient(name);
  if (client === undefined) {
    throw new UsageError(`--client ${name}: unknown client; use one of ${MCP_CLIENTS.join(", ")}`);
  }
  return client;
}

/**
 * Read a client config's servers.
 *
 * @param config The file.
 * @param options The entry, `--all`, `--client`.
 * @returns One entry per server (one without `--all`).
 * @throws {InputError} When the file cannot be read or parsed, has no servers, or (without
 *   `--all`) its entry is bad; with `--all` a bad entry is returned with its error instead.
 *
 * @example Usage
 * ```ts ignore
 * import { readConfigServers } from "./doctor_config.ts";
 *
 * const servers = await readConfigServers(".vscode/mcp.json", { all: true });
 * ```
 */
export async function readConfigServers(
  config: string,
  options: ReadConfigServersOptions = {},
): Promise<ConfigEntry[]> {
  const given = options.client === undefined ? undefined : clientFlag(options.client);
  const byName = given ?? clientOfConfig(config);
  let value: unknown;
  try {
    value = await readDocument(config, readsJsonc(byName) ? { syntax: "jsonc" } : {});
  } catch (error) {
    // A VS Code config under another name (a top-level `servers`) may hold comments too.
    if (!(error instanceof InputError) || byName !== undefined || /\.ya?ml$/i.test(config)) {
      throw error;
    }
    const jsonc = await readDocument(config, { syntax: "jsonc" }).catch(() => undefined);
    if (clientOfConfig(config, jsonc) !== "vscode") throw error;
    value = jsonc;
  }
  const client = given ?? clientOfConfig(config, value);
  const read = (entry: string | undefined) =>
    // Errors read `file: mcpServers.name.args[1]: …`, not `file.mcpServers…`.
    serverSpecFromJson(value, { path: "", entry, configPath: config, client });
  try {
    if (!options.all) {
      const spec = read(options.entry);
      return [{ name: spec.name ?? options.entry ?? "", spec }];
    }
    const key = isJsonObject(value) && isJsonObject(value.mcpServers) ? "mcpServers" : "servers";
    const servers = isJsonObject(value) ? value[key] : undefined;
    if (!isJsonObject(servers) || Object.keys(servers).length === 0) {
      throw new InputError("no servers in it (mcpServers or servers); add one", key);
    }
    return Object.keys(servers).map((name): ConfigEntry => {
      try {
        return { name, spec: read(name) };
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return { name, error: inFile(error, config) };
      }
    });
  } catch (error) {
    throw error instanceof InputError ? inFile(error, config) : error;
  }
}
