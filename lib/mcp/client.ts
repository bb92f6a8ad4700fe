/**
 * A session with one MCP server: the official SDK's `Client` over our
 * {@linkcode DenoCommandTransport} (local) or the SDK's Streamable HTTP
 * transport (remote), with a timeout on every request and errors that say
 * what went wrong ({@linkcode McpServerError}).
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import { z } from "zod";
import denoJson from "../../deno.json" with { type: "json" };
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { McpServerError } from "./server_error.ts";
import {
  describeServer,
  expandVariables,
  type HttpServerSpec,
  isRemoteSpec,
  looksSecret,
  type MCPServerSpec,
  readEnv,
  serverEnvironment,
  type StdioServerSpec,
} from "./server_spec.ts";
import { DenoCommandTransport, type LeftBehind } from "./transport.ts";

// JSON-RPC error codes the SDK uses for its own failures.
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;
const MAX_PAGES = 1000;

// tools/list checked loosely: one bad tool must not hide the others from the doctor.
const TOOL_PAGE = z.object({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
}).loose();

/** Options for {@linkcode McpSession.open}. */
export interface McpSessionOptions {
  /**
   * Seconds each request may take, when the spec does not say.
   * @default {30}
   */
  timeoutS?: number;
  /**
   * Reads one of our environment variables (for the child's base environment and `${NAME}`).
   * @default {readEnv} (`undefined` without permission, never a prompt)
   */
  lookup?: (name: string) => string | undefined;
  /**
   * Milliseconds between closing stdin, SIGTERM and SIGKILL on shutdown.
   * @default {1500}
   */
  killGraceMs?: number;
}

/** What the server said about itself in `initialize`. */
export interface ServerIdentity {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  /** The negotiated protocol version (`null` when the transport does not report it). */
  protocolVersion: string | null;
  /** The server's `instructions`, if any. */
  instructions: string | null;
}

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/**
 * What to say about processes a local server started that outlived it.
 *
 * @param left What the transport found on close.
 * @returns A clause for a message, and what to do; `null` when nothing was left behind.
 *
 * @example Usage
 * ```ts
 * import { leftBehindNote } from "./client.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(leftBehindNote(null), null);
 * assert.match(leftBehindNote({ group: 42, signalled: false })!.fix, /kill -- -42/);
 * ```
 */
export function leftBehindNote(
  left: LeftBehind | null | undefined,
): { detail: string; fix: string } | null {
  if (!left) return null;
  return {
    detail: `a process it started still runs after it was stopped (process group ${left.group})`,
    fix: `kill it with \`kill -- -${left.group}\`` +
      (left.signalled
        ? " (it left the server's process group)"
        : "; with --allow-run for every program, not just the server, deno stops it itself"),
  };
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// Values no message may show, though the server may echo them to its stderr: what a `${NAME}`
// in the spec's env or headers expands to when NAME (or the variable it sets) is named like a
// secret, every header's expansions, and the literal value of a variable named like a secret.
function secretValues(
  spec: MCPServerSpec,
  lookup: (name: string) => string | undefined,
): string[] {
  const remote = isRemoteSpec(spec);
  const values = new Set<string>();
  for (const [name, value] of Object.entries((remote ? spec.headers : spec.env) ?? {})) {
    const secretName = remote || looksSecret(name);
    if (looksSecret(name) || (remote && /auth|key|token|secret/i.test(name))) values.add(value);
    for (const [, reference] of value.matchAll(REFERENCE)) {
      const found = lookup(reference!);
      if (found !== undefined && (secretName || looksSecret(reference!))) values.add(found);
    }
  }
  // Longest first, so that a secret containing another is hidden whole; short values are
  // left alone (hiding "1" would garble every message).
  return [...values].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
}

function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, "***"), text);
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch says only "fetch failed"; the reason (refused, DNS, TLS) is in the cause.
  const cause = error.cause instanceof Error && !error.message.includes(error.cause.message)
    ? ` (${error.cause.message})`
    : "";
  return error.message + cause;
}

/**
 * One open connection to a server. Always close it (`await using` works):
 * closing kills and reaps a local server.
 *
 * @example Usage
 * ```ts ignore
 * import { McpSession } from "./client.ts";
 *
 * await using session = await McpSession.open({ command: ["deno", "run", "server.ts"] }, { timeoutS: 10 });
 * console.log(session.identity.name, (await session.listToolsRaw()).length);
 * ```
 */
export class McpSession implements AsyncDisposable {
  #client: Client;
  #transport: Transport;
  #timeoutS: number;
  #secrets: readonly string[];
  #closed = false;

  /**
   * Wrap a connected client; use {@linkcode McpSession.open} instead.
   *
   * @param spec The server.
   * @param client The connected client.
   * @param transport Its transport.
   * @param identity What the server said in `initialize`.
   * @param timeoutS Seconds per request.
   * @param secrets Values to hide in error messages.
   */
  private constructor(
    readonly spec: MCPServerSpec,
    client: Client,
    transport: Transport,
    readonly identity: ServerIdentity,
    timeoutS: number,
    secrets: readonly string[],
  ) {
    this.#client = client;
    this.#transport = transport;
    this.#timeoutS = timeoutS;
    this.#secrets = secrets;
  }

  /**
   * Start (or connect to) a server and run `initialize`.
   *
   * @param spec The server.
   * @param options The timeout and how to read our environment.
   * @returns The open session.
   * @throws {McpServerError} When it cannot start, times out, exits or breaks the protocol.
   */
  static async open(spec: MCPServerSpec, options: McpSessionOptions = {}): Promise<McpSession> {
    const timeoutS = spec.timeoutS ?? options.timeoutS ?? 30;
    const lookup = options.lookup ?? readEnv;
    const transport = isRemoteSpec(spec)
      ? await httpTransport(spec, lookup)
      : stdioTransport(spec, lookup, options.killGraceMs);
    const secrets = secretValues(spec, lookup);
    const client = new Client({ name: "toolscore", version: denoJson.version });
    client.onerror = () => {}; // stray stdout lines are kept by the transport for the error message
    try {
      await client.connect(transport, { timeout: timeoutS * 1000 });
    } catch (error) {
      throw await failure(spec, transport, error, "initialize", timeoutS, secrets);
    }
    const info = client.getServerVersion();
    const identity: ServerIdentity = {
      name: info?.name ?? "",
      version: info?.version ?? "",
      protocolVersion: transport instanceof DenoCommandTransport
        ? transport.protocolVersion ?? null
        : (transport as { protocolVersion?: string }).protocolVersion ?? null,
      instructions: client.getInstructions() ?? null,
    };
    return new McpSession(spec, client, transport, identity, timeoutS, secrets);
  }

  /** The local server's process id (`undefined` for a remote server). */
  get pid(): number | undefined {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.pid : undefined;
  }

  /** Processes the local server started that outlived it, found when it was closed. */
  get leftBehind(): LeftBehind | null {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.leftBehind : null;
  }

  /** The methods of every request and notification sent so far (local servers). */
  get sentMethods(): readonly string[] {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.sentMethods : [];
  }

  /**
   * Every tool, all pages of `tools/list`, as the server sent them (not
   * validated, so that one bad tool does not hide the others).
   *
   * @returns The raw tool objects, in order.
   * @throws {McpServerError} On a timeout, an exit, a malformed page or a cursor loop.
   */
  async listToolsRaw(): Promise<unknown[]> {
    const tools: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      let result: z.infer<typeof TOOL_PAGE>;
      try {
        result = await this.#client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          TOOL_PAGE,
          { timeout: this.#timeoutS * 1000 },
        );
      } catch (error) {
        throw await failure(
          this.spec,
          this.#transport,
          error,
          "tools/list",
          this.#timeoutS,
          this.#secrets,
        );
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === "") return tools;
      if (seen.has(cursor)) {
        await this.close();
        throw new McpServerError(
          "protocol",
          `tools/list returned the cursor ${JSON.stringify(cursor)} twice (a pagination loop)`,
        );
      }
      seen.add(cursor);
    }
    await this.close();
    throw new McpServerError("protocol", `tools/list returned more than ${MAX_PAGES} pages`);
  }

  /**
   * Call one tool (`tools/call`) and return the raw result.
   *
   * @param name The tool.
   * @param args Its arguments.
   * @returns The result object (`content`, `structuredContent`, `isError`…).
   * @throws {McpServerError} On a timeout, an exit or a protocol error.
   */
  async callTool(name: string, args: JsonObject = {}): Promise<JsonObject> {
    try {
      const result: unknown = await this.#client.callTool(
        { name, arguments: args },
        undefined,
        { timeout: this.#timeoutS * 1000 },
      );
      return isJsonObject(result) ? result : { value: result };
    } catch (error) {
      throw await failure(
        this.spec,
        this.#transport,
        error,
        `tools/call ${name}`,
        this.#timeoutS,
        this.#secrets,
      );
    }
  }

  /**
   * Call one tool, as {@linkcode McpSession.callTool}, except that a JSON-RPC
   * error the server answers with (an unknown tool, bad arguments) is
   * returned rather than thrown, and the session stays open. A timeout, an
   * exit or a closed connection still throws.
   *
   * @param name The tool.
   * @param args Its arguments.
   * @returns The result object, or the server's error (message redacted).
   * @throws {McpServerError} On a timeout, an exit or a closed connection.
   */
  async callToolOrError(
    name: string,
    args: JsonObject = {},
  ): Promise<{ result: JsonObject } | { error: { code: number; message: string } }> {
    try {
      const result: unknown = await this.#client.callTool(
        { name, arguments: args },
        undefined,
        { timeout: this.#timeoutS * 1000 },
      );
      return { result: isJsonObject(result) ? result : { value: result } };
    } catch (error) {
      const code = errorCode(error);
      if (
        code !== undefined && code !== CONNECTION_CLOSED && code !== REQUEST_TIMEOUT &&
        !this.#closed
      ) {
        return { error: { code, message: redact(messageOf(error), this.#secrets) } };
      }
      throw await failure(
        this.spec,
        this.#transport,
        error,
        `tools/call ${name}`,
        this.#timeoutS,
        this.#secrets,
      );
    }
  }

  /**
   * Close the session; a local server is killed and reaped.
   *
   * @returns When it is gone.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#client.close();
    } finally {
      await this.#transport.close();
    }
  }

  /**
   * Same as {@linkcode McpSession.close}, for `await using`.
   *
   * @returns When it is gone.
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function stdioTransport(
  spec: StdioServerSpec,
  lookup: (name: string) => string | undefined,
  killGraceMs: number | undefined,
): DenoCommandTransport {
  let env: Record<string, string>;
  try {
    env = serverEnvironment(spec, lookup);
  } catch (error) {
    throw new McpServerError("config", messageOf(error), { cause: error });
  }
  const [command, ...args] = spec.command;
  return new DenoCommandTransport(command!, { args, env, cwd: spec.cwd, killGraceMs });
}

async function httpTransport(
  spec: HttpServerSpec,
  lookup: (name: string) => string | undefined,
): Promise<Transport> {
  const headers: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      headers[name] = expandVariables(value, lookup, `server.headers.${name}`);
    }
  } catch (error) {
    if (error instanceof InputError) {
      throw new McpServerError("config", error.message, { cause: error });
    }
    throw error;
  }
  // Loaded only for remote servers; the cast keeps the SDK's types (a `.js` subpath alone is `any`).
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  ) as typeof import("@modelcontextprotocol/sdk/client/streamableHttp");
  return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers } });
}

// Turn whatever the SDK or Deno threw into one McpServerError, after the child is reaped.
async function failure(
  spec: MCPServerSpec,
  transport: Transport,
  error: unknown,
  step: string,
  timeoutS: number,
  secrets: readonly string[],
): Promise<McpServerError> {
  if (error instanceof McpServerError) return error;
  const local = transport instanceof DenoCommandTransport ? transport : undefined;
  const program = isRemoteSpec(spec) ? spec.url : spec.command[0]!;
  if (error instanceof Deno.errors.NotCapable) {
    await transport.close().catch(() => {});
    const flag = isRemoteSpec(spec)
      ? `--allow-net=${new URL(spec.url).host}`
      : `--allow-run=${program}`;
    return new McpServerError(
      "permission",
      `no permission to ${isRemoteSpec(spec) ? "connect to" : "start"} ${
        describeServer(spec)
      }; run deno with ${flag}`,
      { cause: error },
    );
  }
  if (local !== undefined && local.pid === undefined) {
    // Never spawned: not found, not executable (a folder, no x bit)…
    await transport.close().catch(() => {});
    return new McpServerError(
      "spawn",
      error instanceof Deno.errors.NotFound
        ? `cannot start ${program}: not found; install it or put it on PATH`
        : `cannot start ${program}: ${messageOf(error)}; check that it is an executable file`,
      { cause: error },
    );
  }
  const code = errorCode(error);
  // A write to a dead child can fail before its exit is seen: give the exit a moment to arrive.
  const exitedOnItsOwn = local !== undefined &&
    await local.waitForExit(code === REQUEST_TIMEOUT ? 0 : 300);
  if (local) await (code === REQUEST_TIMEOUT ? local.kill() : local.close());
  else await transport.close().catch(() => {});
  // What the server wrote may echo a secret it was given.
  const stderr = (local?.stderrTail ?? []).map((line) => redact(line, secrets));
  const noise = (local?.stdoutNoise ?? []).map((line) => redact(line, secrets));
  const left = leftBehindNote(local?.leftBehind);
  const notes =
    (noise.length > 0
      ? `; it wrote ${noise.length} non-JSON line(s) to stdout (log to stderr instead), e.g. ${
        JSON.stringify(noise[0])
      }`
      : "") + (left ? `; ${left.detail}: ${left.fix}` : "");
  if (code === REQUEST_TIMEOUT && !exitedOnItsOwn) {
    return new McpServerError(
      "timeout",
      `no answer to ${step} within ${timeoutS} s from ${describeServer(spec)}${notes}`,
      { cause: error, stderr },
    );
  }
  if (local?.exit !== undefined && (exitedOnItsOwn || code === CONNECTION_CLOSED)) {
    const { code: exitCode, signal } = local.exit;
    const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    return new McpServerError(
      "exit",
      `the server ${how} during ${step} (${describeServer(spec)})${notes}`,
      { cause: error, stderr },
    );
  }
  return new McpServerError(
    "protocol",
    `${step} failed: ${redact(messageOf(error), secrets)} (${describeServer(spec)})${notes}`,
    { cause: error, stderr },
  );
}
