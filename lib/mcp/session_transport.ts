/**
 * The transport of a session, built from a server spec: a local server
 * started with the environment it is given (variables expanded, an
 * `envFile` read), or a remote one over Streamable HTTP or legacy SSE with
 * its headers.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import { InputError } from "../base/errors.ts";
import { readFileCapped } from "../base/read_limits.ts";
import { type HttpServerSpec, isLegacySse, type McpServerSpec } from "./server_spec.ts";
import {
  expandVariables,
  parseEnvFile,
  serverEnvironment,
  type VariableContext,
} from "./server_env.ts";
import { DenoCommandTransport } from "./transport.ts";
import { remoteTransport } from "./recording_transport.ts";

/** What building a local server's transport needs from the session's options. */
export interface StdioTransportOptions {
  /** Extra variables for the server (`-e KEY=VALUE`). */
  env?: Record<string, string>;
  /** How long to wait after SIGTERM before SIGKILL, in milliseconds. */
  killGraceMs?: number;
  /**
   * Milliseconds what a local server started may outlive it before it is stopped.
   * @default {1500}
   */
  shutdownGraceMs?: number;
}

/**
 * The transport of a local server.
 *
 * @param spec The server.
 * @param lookup Reads a variable of this process.
 * @param context What `${…}` variables expand to.
 * @param options Extra variables and the kill grace.
 * @returns The transport, not started.
 * @throws {InputError} When an `envFile` cannot be read or a variable is bad.
 */
export async function stdioTransport(
  spec: Extract<McpServerSpec, { command: string[] }>,
  lookup: (name: string) => string | undefined,
  context: VariableContext,
  options: StdioTransportOptions,
): Promise<DenoCommandTransport> {
  const expand = (value: string, where: string) => expandVariables(value, lookup, where, context);
  let envFile: Record<string, string> | undefined;
  if (spec.envFile !== undefined) {
    let path = expand(spec.envFile, "server.envFile");
    if (!/^([\\/]|[A-Za-z]:)/.test(path)) {
      path = `${spec.workspaceFolder ?? spec.cwd ?? "."}/${path}`;
    }
    let text: string;
    try {
      text = new TextDecoder().decode(await readFileCapped(path));
    } catch (error) {
      const why = error instanceof Deno.errors.NotFound
        ? "not found"
        : error instanceof Deno.errors.NotCapable
        ? `deno may not read it; run deno with --allow-read=${path}`
        : (error as Error).message;
      throw new InputError(`cannot read the envFile ${path}: ${why}`, "server.envFile");
    }
    envFile = parseEnvFile(text, path);
  }
  const env = serverEnvironment(spec, lookup, { ...context, envFile, extra: options.env });
  const [command, ...args] = spec.command.map((token, i) => expand(token, `server.command[${i}]`));
  const cwd = spec.cwd === undefined ? undefined : expand(spec.cwd, "server.cwd");
  return new DenoCommandTransport(command!, {
    args,
    env,
    cwd,
    killGraceMs: options.killGraceMs,
    shutdownGraceMs: options.shutdownGraceMs,
  });
}

/**
 * The transport of a remote server.
 *
 * @param spec The server.
 * @param lookup Reads a variable of this process.
 * @param context What `${…}` variables expand to.
 * @returns The transport, not started.
 */
export async function httpTransport(
  spec: HttpServerSpec,
  lookup: (name: string) => string | undefined,
  context: VariableContext,
): Promise<Transport> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    headers[name] = expandVariables(value, lookup, `server.headers.${name}`, context);
  }
  const url = expandVariables(spec.url, lookup, "server.url", context);
  return await remoteTransport(new URL(url), headers, isLegacySse(spec));
}
