/**
 * A session with one MCP server: the official SDK's `Client` over our
 * {@linkcode DenoCommandTransport} (local), the SDK's Streamable HTTP
 * transport or its legacy HTTP+SSE transport (remote), with a timeout on
 * every request, an overall deadline, and errors that say what went wrong
 * ({@linkcode McpServerError}). The answers are kept as the server sent them,
 * so that the doctor can check them with the SDK's own schemas.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import { z } from "zod";
import denoJson from "../../deno.json" with { type: "json" };
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { McpServerError } from "./server_error.ts";
import { isRemoteSpec, type McpServerSpec } from "./server_spec.ts";
import { readEnv, type VariableContext } from "./server_env.ts";
import { type ChildExit, DenoCommandTransport } from "./transport.ts";
import { httpTransport, stdioTransport } from "./session_transport.ts";
import type { LeftBehind } from "./server_error.ts";
import { endSession, RecordingTransport } from "./recording_transport.ts";
import { errorCode, failure, redact, secretValues, type SessionTerms } from "./client_failure.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { answerClientRequests, capabilitiesObject } from "./client_capabilities.ts";
import type { McpSessionOptions } from "./session_options.ts";

export { leftBehindNote, type SessionTerms } from "./client_failure.ts";
export type { McpSessionOptions } from "./session_options.ts";

const MAX_PAGES = 1000;

// Lists checked loosely here: one bad item must not hide the others from the doctor.
const PAGE = z.object({ nextCursor: z.string().optional() }).loose();
const RAW = z.object({}).loose();

/** The lists {@linkcode McpSession.listAll} pages through, and the key of each. */
export const LIST_KEYS = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
} as const;

/** A list method. */
export type ListMethod = keyof typeof LIST_KEYS;

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

/**
 * One open connection to a server. Always close it (`await using` works):
 * closing kills and reaps a local server and what it started, and ends a
 * remote server's session.
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
  #recorder: RecordingTransport;
  #timeoutS: number;
  #deadlineAt: number;
  #secrets: readonly string[];
  #terms: SessionTerms;
  #closed = false;
  #timings: Record<string, number> = {};
  #envNames: readonly string[];
  #sessionEnded = false;
  #openedAt = performance.now();

  /**
   * Wrap a connected client; use {@linkcode McpSession.open} instead.
   *
   * @param spec The server.
   * @param client The connected client.
   * @param recorder Its transport, recording answers.
   * @param identity What the server said in `initialize`.
   * @param settings Seconds per request, the deadline, secrets, terms and the child's variables.
   */
  private constructor(
    readonly spec: McpServerSpec,
    client: Client,
    recorder: RecordingTransport,
    readonly identity: ServerIdentity,
    settings: {
      timeoutS: number;
      deadlineAt: number;
      secrets: readonly string[];
      terms: SessionTerms;
      initializeS: number;
      envNames: readonly string[];
    },
  ) {
    this.#client = client;
    this.#recorder = recorder;
    this.#transport = recorder.inner;
    this.#timeoutS = settings.timeoutS;
    this.#deadlineAt = settings.deadlineAt;
    this.#secrets = settings.secrets;
    this.#terms = settings.terms;
    this.#timings.initialize = settings.initializeS;
    this.#envNames = settings.envNames;
  }

  /**
   * Start (or connect to) a server and run `initialize`.
   *
   * @param spec The server.
   * @param options The timeout, the deadline, inputs and how to read our environment.
   * @returns The open session.
   * @throws {McpServerError} When it cannot start, times out, exits, refuses, or breaks the protocol.
   */
  static async open(spec: McpServerSpec, options: McpSessionOptions = {}): Promise<McpSession> {
    const timeoutS = options.timeoutS ?? spec.timeoutS ?? 30;
    const deadlineAt = options.deadlineS === undefined
      ? Infinity
      : performance.now() + options.deadlineS * 1000;
    const lookup = options.lookup ?? readEnv;
    const terms = options.terms ?? {};
    const context: VariableContext = {
      inputs: options.inputs,
      inputPrompts: spec.inputPrompts,
      workspaceFolder: spec.workspaceFolder,
      inputHint: terms.input,
      client: spec.client,
    };
    let inner: Transport;
    let envNames: string[] = [];
    try {
      if (isRemoteSpec(spec)) inner = await httpTransport(spec, lookup, context);
      else {
        const local = await stdioTransport(spec, lookup, context, options);
        inner = local;
        envNames = Object.keys(local.options.env ?? {});
      }
    } catch (error) {
      if (error instanceof InputError) {
        throw new McpServerError("config", error.message, { cause: error });
      }
      throw error;
    }
    const recorder = new RecordingTransport(inner);
    const secrets = secretValues(spec, lookup, options);
    const declared = options.clientCapabilities ?? [];
    const client = new Client({ name: "toolscore", version: denoJson.version }, {
      capabilities: capabilitiesObject(declared),
    });
    answerClientRequests(client, declared, spec.workspaceFolder);
    client.onerror = () => {}; // stray stdout lines are kept by the transport for the error message
    const started = performance.now();
    const wait = Math.min(timeoutS * 1000, deadlineAt - started);
    try {
      await client.connect(recorder, { timeout: Math.max(1, wait) });
    } catch (error) {
      throw await failure({
        spec,
        transport: inner,
        recorder,
        error,
        step: "initialize",
        timeoutS,
        secrets,
        terms,
        deadline: wait < timeoutS * 1000,
      });
    }
    const info = client.getServerVersion();
    const identity: ServerIdentity = {
      name: info?.name ?? "",
      version: info?.version ?? "",
      protocolVersion: inner instanceof DenoCommandTransport
        ? inner.protocolVersion ?? null
        : (inner as { protocolVersion?: string }).protocolVersion ??
          (recorder.lastAnswer("initialize")?.result as { protocolVersion?: string } | undefined)
            ?.protocolVersion ??
          null,
      instructions: client.getInstructions() ?? null,
    };
    return new McpSession(spec, client, recorder, identity, {
      timeoutS,
      deadlineAt,
      secrets,
      terms,
      initializeS: (performance.now() - started) / 1000,
      envNames,
    });
  }

  /**
   * Wait until `ms` after `initialize` was answered, or until a local server exits.
   *
   * @param ms Milliseconds after `initialize`.
   * @returns How a local server ended, or `null` while it runs (and for a remote one).
   */
  async exitWithin(ms: number): Promise<ChildExit | null> {
    const local = this.#transport instanceof DenoCommandTransport ? this.#transport : undefined;
    await local?.waitForExit(Math.max(0, this.#openedAt + ms - performance.now()));
    return local?.exit ?? null;
  }

  /** The local server's process id (`undefined` for a remote server). */
  get pid(): number | undefined {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.pid : undefined;
  }

  /** What closing found of the processes a local server started (stopped or still running). */
  get leftBehind(): LeftBehind | null {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.leftBehind : null;
  }

  /** The methods of every request and notification sent so far (local servers). */
  get sentMethods(): readonly string[] {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.sentMethods : [];
  }

  /** The `initialize` result as the server sent it (before the SDK parsed it). */
  get initializeResult(): unknown {
    return this.#recorder.lastAnswer("initialize")?.result;
  }

  /** The capabilities the server declared. */
  get capabilities(): JsonObject {
    const raw = (this.initializeResult as { capabilities?: unknown } | undefined)?.capabilities;
    return isJsonObject(raw) ? raw : {};
  }

  /** Seconds each step took: `initialize` and each list method (all its pages). */
  get timings(): Readonly<Record<string, number>> {
    return this.#timings;
  }

  /** The names of the variables a local server was started with (never their values). */
  get envNames(): readonly string[] {
    return this.#envNames;
  }

  /** Lines a local server wrote to stdout that were not JSON-RPC (the first 20), and how many. */
  get stdoutNoise(): { lines: readonly string[]; count: number } {
    const local = this.#transport instanceof DenoCommandTransport ? this.#transport : undefined;
    return { lines: local?.stdoutNoise ?? [], count: local?.stdoutNoiseCount ?? 0 };
  }

  /** What a local server wrote to stderr: its first and last lines. */
  get stderr(): readonly string[] {
    return this.#transport instanceof DenoCommandTransport ? this.#transport.stderrTail : [];
  }

  /** Whether a Streamable HTTP session was ended with a DELETE on close. */
  get sessionEnded(): boolean {
    return this.#sessionEnded;
  }

  /** Values no message may show (for callers that print what the server wrote). */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /**
   * Every item of one list, all pages, as the server sent them (not
   * validated, so that one bad item does not hide the others).
   *
   * @param method `tools/list`, `resources/list`, `resources/templates/list` or `prompts/list`.
   * @returns The raw items, in order.
   * @throws {McpServerError} On a timeout, the deadline, an exit, an error answer, a malformed
   *   page or a cursor loop; `unsupported` when the server answers "method not found".
   */
  async listAll(method: ListMethod): Promise<unknown[]> {
    const key = LIST_KEYS[method];
    const items: unknown[] = [];
    const seen = new Set<string>();
    const started = performance.now();
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const left = this.#deadlineAt - performance.now();
        if (left <= 0) {
          await this.close();
          throw new McpServerError(
            "deadline",
            `${method} was not done within the deadline (${
              this.#terms.deadline ?? "the deadlineS option"
            }) after ${page} page(s) and ${items.length} item(s)`,
          );
        }
        const wait = Math.min(this.#timeoutS * 1000, left);
        let result: z.infer<typeof PAGE>;
        try {
          result = await this.#client.request(
            { method, params: cursor === undefined ? {} : { cursor } },
            PAGE,
            { timeout: Math.max(1, wait) },
          );
        } catch (error) {
          if (errorCode(error) === -32601) {
            throw new McpServerError("unsupported", `the server does not offer ${method}`, {
              cause: error,
            });
          }
          throw await failure({
            ...this.#failureContext(method, this.#timeoutS),
            error,
            deadline: wait < this.#timeoutS * 1000,
          });
        }
        const list = (result as Record<string, unknown>)[key];
        if (!Array.isArray(list)) {
          throw new McpServerError(
            "invalid",
            `${method} answered without a ${key} array (got ${
              list === undefined ? "no such key" : typeof list
            })`,
          );
        }
        pushAll(items, list);
        cursor = result.nextCursor;
        if (cursor === undefined || cursor === "") return items;
        if (seen.has(cursor)) {
          await this.close();
          throw new McpServerError(
            "protocol",
            `${method} returned the cursor ${JSON.stringify(cursor)} twice (a pagination loop)`,
          );
        }
        seen.add(cursor);
      }
      await this.close();
      throw new McpServerError("protocol", `${method} returned more than ${MAX_PAGES} pages`);
    } finally {
      this.#timings[method] = (performance.now() - started) / 1000;
    }
  }

  /**
   * Every tool, all pages of `tools/list`, as the server sent them.
   *
   * @returns The raw tool objects, in order.
   * @throws {McpServerError} As {@linkcode McpSession.listAll}.
   */
  listToolsRaw(): Promise<unknown[]> {
    return this.listAll("tools/list");
  }

  /**
   * Call one tool (`tools/call`) and return the raw result. The doctor never does.
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
      throw await this.#callFailure(error, name);
    }
  }

  /**
   * Call one tool, as {@linkcode McpSession.callTool}, except that a JSON-RPC
   * error the server answered with (an unknown tool, bad arguments, a
   * failing handler) is returned rather than thrown, and the session stays
   * open. A timeout, an exit, a closed connection or an HTTP failure still
   * throws. (For `agent run`, which hands such errors to the model.)
   *
   * @param name The tool.
   * @param args Its arguments.
   * @returns The result object, or the server's error (its message redacted).
   * @throws {McpServerError} On a timeout, an exit, a closed connection or an HTTP failure.
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
      // The SDK's own codes for a closed connection (-32000) and a timeout (-32001) are not the
      // server's answer; neither is an HTTP failure (not an McpError).
      if (
        error instanceof McpError && code !== undefined && code !== -32000 && code !== -32001 &&
        !this.#closed
      ) {
        return { error: { code, message: redact(error.message, this.#secrets) } };
      }
      throw await this.#callFailure(error, name);
    }
  }

  /**
   * Send one request (`tools/call`, `resources/read`, `prompts/get`…) and return the raw result
   * or the server's JSON-RPC error (redacted); a timeout (the SDK cancelled the request, the session
   * stays open), an exit or a closed connection throws.
   *
   * @param method The method.
   * @param params Its params.
   * @param timeoutS Seconds it may take (default: the session's timeout).
   * @returns The result as sent, or the error.
   * @throws {McpServerError} On a timeout, an exit, a closed connection or an HTTP failure.
   */
  async requestOrError(method: string, params: JsonObject, timeoutS = this.#timeoutS): Promise<
    { result: JsonObject } | { error: { code: number; message: string } }
  > {
    try {
      const timeout = Math.max(1, timeoutS * 1000);
      return { result: await this.#client.request({ method, params }, RAW, { timeout }) };
    } catch (error) {
      const code = errorCode(error);
      if (error instanceof McpError && code !== undefined && code !== -32000 && code !== -32001) {
        return { error: { code, message: redact(error.message, this.#secrets) } };
      }
      if (code === -32001 && !this.#closed) {
        throw new McpServerError("timeout", `${method} took longer than ${+timeoutS.toFixed(2)} s`);
      }
      throw await failure({
        ...this.#failureContext(method, timeoutS),
        error,
        deadline: false,
      });
    }
  }

  #failureContext(step: string, timeoutS: number) {
    return {
      spec: this.spec,
      transport: this.#transport,
      recorder: this.#recorder,
      step,
      timeoutS,
      secrets: this.#secrets,
      terms: this.#terms,
    };
  }

  // What a failed tools/call throws: the session's error, with the server's output.
  #callFailure(error: unknown, name: string): Promise<McpServerError> {
    return failure({
      ...this.#failureContext(`tools/call ${name}`, this.#timeoutS),
      error,
      deadline: false,
    });
  }

  /**
   * Close the session: a remote session is ended (HTTP DELETE); a local
   * server is killed and reaped with what it started.
   *
   * @returns When it is gone.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (isRemoteSpec(this.spec)) this.#sessionEnded = await endSession(this.#transport, 2000);
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
