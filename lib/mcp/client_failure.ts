/**
 * What went wrong talking to a server, in one sentence: whatever the SDK or
 * Deno threw becomes one {@linkcode McpServerError} — a refused protocol
 * version, an `initialize` answer the SDK's client rejects (with its JSON
 * paths), an HTTP status, a timeout, an exit with the server's stderr.
 *
 * @module
 */

import { oversizedMessage } from "./message_limit.ts";
import { maxMessageBytes, sizeText } from "../base/read_limits.ts";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  InitializeResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { McpServerError } from "./server_error.ts";
import { describeServer, isRemoteSpec, type McpServerSpec } from "./server_spec.ts";
import { looksSecret, referencedVariables } from "./server_env.ts";
import { DenoCommandTransport } from "./transport.ts";
import type { LeftBehind } from "./server_error.ts";
import { authChallenge, type RecordingTransport } from "./recording_transport.ts";
import { stopCommand } from "./process_sweep.ts";

// JSON-RPC error codes the SDK uses for its own failures.
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * How messages name the settings a user can change: the library speaks of
 * its options (the default), the CLI of its flags.
 */
export interface SessionTerms {
  /** The per-request timeout (default "the timeout option"). */
  timeout?: string;
  /** The overall deadline (default "the deadlineS option"). */
  deadline?: string;
  /** How to give a `${input:ID}` value. */
  input?: (id: string) => string;
  /** How to pass one more variable to a local server (default "the env option"). */
  env?: string;
}

/**
 * A problem of a value against one of the SDK's result schemas, one line per
 * issue with its JSON path (`tools[2].annotations.readOnlyHint: …`).
 *
 * @param issues The zod issues.
 * @param max How many to show.
 * @returns The lines.
 *
 * @example Usage
 * ```ts
 * import { issueLines } from "./client_failure.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(issueLines([{ path: ["tools", 0, "name"], message: "Required" }]), ["tools[0].name: Required"]);
 * ```
 */
export function issueLines(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  max = 10,
): string[] {
  const lines = issues.slice(0, max).map(({ path, message }) => {
    let where = "";
    for (const key of path) {
      where += typeof key === "number" ? `[${key}]` : `${where === "" ? "" : "."}${String(key)}`;
    }
    return `${where === "" ? "(the result)" : where}: ${message}`;
  });
  if (issues.length > max) lines.push(`… and ${issues.length - max} more`);
  return lines;
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
 * const note = leftBehindNote({
 *   group: 42, signalled: false, stopped: [], survivors: [{ pid: 43, command: "sleep 300" }],
 *   looked: true, pipesHeld: true, marker: "TOOLSCORE_MCP_RUN=x",
 * });
 * assert.match(note!.fix!, /^kill -9 43/);
 * ```
 */
export function leftBehindNote(
  left: LeftBehind | null | undefined,
): { detail: string; fix: string | null; status: "skip" | "warn" } | null {
  if (!left) return null;
  if (!left.looked && !left.pipesHeld) {
    // Not looking is no proof that nothing is left: a warning, so that --fail-on-warn sees it.
    if (Deno.build.os !== "linux") {
      return {
        status: "warn",
        detail: "the sweep is partial: the server's process group was stopped, but on " +
          `${Deno.build.os} doctor cannot list what left it (no /proc)`,
        fix:
          `look for what the server started (ps -ef) and stop it; its processes carry ${left.marker}`,
      };
    }
    return {
      status: "warn",
      detail: "could not look for processes the server started, so the sweep is partial (deno " +
        "may neither run sh nor read /proc; --allow-run without a list lets it); to look: " +
        `grep -lzxsF '${left.marker}' /proc/[0-9]*/environ`,
      fix: stopCommand(left.marker, []),
    };
  }
  const list = (processes: LeftBehind["stopped"]) =>
    processes.map(({ pid, command }) => `${pid} (${command || "?"})`).join(", ");
  if (left.survivors.length > 0 || (!left.looked && left.pipesHeld)) {
    const what = left.survivors.length > 0
      ? `${left.survivors.length} process(es) it started still run: ${list(left.survivors)}`
      : `a process it started still runs (it holds the server's output open; it carries ${left.marker})`;
    return {
      status: "warn",
      detail: what + (left.stopped.length > 0 ? `; stopped ${list(left.stopped)}` : ""),
      fix: `${stopCommand(left.marker, left.survivors)}` +
        (left.signalled ? "" : "; with --allow-run for every program, deno stops them itself"),
    };
  }
  if (left.stopped.length > 0) {
    return {
      status: "warn",
      detail: `stopped ${left.stopped.length} process(es) the server left running: ${
        list(left.stopped)
      }`,
      fix: "make the server stop what it starts when its stdin closes",
    };
  }
  return null;
}

/**
 * Values no message may show, though the server may echo them to its stderr:
 * what a `${NAME}` in the spec's env or headers expands to when NAME (or the
 * variable it sets) is named like a secret, every header's expansions, the
 * literal value of a variable named like a secret, every input value, and
 * every extra variable named like a secret.
 *
 * @param spec The server.
 * @param lookup Reads our variables.
 * @param options Input values and extra variables.
 * @returns The values, longest first.
 *
 * @example Usage
 * ```ts
 * import { secretValues } from "./client_failure.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(secretValues({ command: ["s"], env: { API_KEY: "${K}" } }, () => "abcdef"), ["abcdef"]);
 * ```
 */
export function secretValues(
  spec: McpServerSpec,
  lookup: (name: string) => string | undefined,
  options: { inputs?: Readonly<Record<string, string>>; env?: Readonly<Record<string, string>> } =
    {},
): string[] {
  const remote = isRemoteSpec(spec);
  const values = new Set<string>(Object.values(options.inputs ?? {}));
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (looksSecret(name)) values.add(value);
  }
  for (const [name, value] of Object.entries((remote ? spec.headers : spec.env) ?? {})) {
    const secretName = remote || looksSecret(name);
    const literal = referencedVariables(value).length === 0 && !value.includes("${");
    if (literal && (looksSecret(name) || (remote && /auth|key|token|secret/i.test(name)))) {
      values.add(value);
    }
    for (const reference of referencedVariables(value)) {
      const found = lookup(reference);
      if (found !== undefined && (secretName || looksSecret(reference))) values.add(found);
    }
  }
  // Longest first, so that a secret containing another is hidden whole; short values are
  // left alone (hiding "1" would garble every message).
  return [...values].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * Hide secret values in a text.
 *
 * @param text The text.
 * @param secrets The values.
 * @returns The text with each value as `***`.
 *
 * @example Usage
 * ```ts
 * import { redact } from "./client_failure.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(redact("token abcd", ["abcd"]), "token ***");
 * ```
 */
export function redact(text: string, secrets: readonly string[]): string {
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
 * The numeric `code` of a thrown JSON-RPC or HTTP error, if any.
 *
 * @param error What was thrown.
 * @returns The code, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { errorCode } from "./client_failure.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(errorCode({ code: -32601 }), -32601);
 * assert.equal(errorCode(new Error("x")), undefined);
 * ```
 */
export function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

// The HTTP status of a failed request by the Streamable HTTP or SSE client transport.
function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = errorCode(error);
  if (
    /StreamableHTTPError|SseError/.test(error.name) || /StreamableHTTPError|SseError/.test(
      error.constructor?.name ?? "",
    )
  ) {
    if (code !== undefined && code >= 400 && code < 600) return code;
  }
  const match = /\(HTTP (\d{3})\)|HTTP (\d{3})\b|Non-200 status code \((\d{3})\)/.exec(
    error.message,
  );
  const status = Number(match?.[1] ?? match?.[2] ?? match?.[3]);
  return status >= 400 && status < 600 ? status : undefined;
}

// An HTML error page, a JSON error or plain text, as one short line.
function oneLine(text: string): string {
  const plain = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ")
    .replace(/&[a-z]+;/g, " ").replace(/\s+/g, " ").trim();
  return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
}

function httpFailure(
  spec: Extract<McpServerSpec, { url: string }>,
  status: number,
  error: Error,
  step: string,
  secrets: readonly string[],
  challenge: string | undefined,
): McpServerError {
  const headers = Object.keys(spec.headers ?? {});
  const auth = headers.filter((name) => /auth|key|token/i.test(name));
  const body = oneLine(
    redact(error.message.replace(/^.*?(?:endpoint|stream)[^:]*:\s*/i, ""), secrets),
  );
  const named = auth.length > 0
    ? `check server.headers.${auth.join(", server.headers.")} (the key or token it sends)`
    : headers.length > 0
    ? `it sent only ${
      headers.join(", ")
    }; add the header the server's docs name (often Authorization: Bearer \${TOKEN})`
    : 'no credentials were sent; add headers: {Authorization: "Bearer ${TOKEN}"} (or the header the server\'s docs name)';
  const oauth = status === 401 && /^\s*Bearer\b.*\bresource_metadata\s*=/i.test(challenge ?? "");
  const text = oauth
    ? `the server answered ${step} with HTTP 401 Unauthorized and asks for OAuth ` +
      "(WWW-Authenticate: Bearer resource_metadata=…), which doctor does not support yet; " +
      "get a token from the server's provider and send it in a config entry's " +
      'headers: {Authorization: "Bearer ${TOKEN}"} (--mcp-config FILE)'
    : status === 401
    ? `the server answered ${step} with HTTP 401 Unauthorized: it wants credentials; ${named}`
    : status === 403 && headers.length === 0
    ? `the server answered ${step} with HTTP 403 Forbidden, and no credentials were sent; add headers: {Authorization: "Bearer \${TOKEN}"} (or the header the server's docs name)`
    : status === 403
    ? `the server answered ${step} with HTTP 403 Forbidden: the credentials were refused for this server (a wrong key, scope or plan); ${named}`
    : status === 404
    ? `the server answered ${step} with HTTP 404 Not Found: nothing serves MCP at ${spec.url}; check the path (Streamable HTTP servers often serve /mcp, legacy SSE ones /sse)`
    : `the server answered ${step} with HTTP ${status}${body === "" ? "" : `: ${body}`}`;
  return new McpServerError("http", text, { cause: error });
}

// What rustls and OpenSSL say when a TLS client meets a plain-HTTP server.
const PLAIN_HTTP = /InvalidContentType|wrong version number|http request to an https server/i;

// A line of a JSON-RPC message written over several lines (`  "jsonrpc": "2.0",`), if any.
function prettyPrintedLine(noise: readonly string[]): string | undefined {
  const line = noise.find((text) => /^\s*"jsonrpc"\s*:\s*"2\.0"\s*,?\s*$/.test(text));
  return line === undefined || !noise.some((text) => /^\s*\{\s*$/.test(text)) ? undefined : line;
}

/** What {@linkcode failure} needs to know. */
export interface FailureContext {
  /** The server. */
  spec: McpServerSpec;
  /** Its transport (a local one is reaped here). */
  transport: Transport;
  /** The answers it gave. */
  recorder: RecordingTransport;
  /** What was thrown. */
  error: unknown;
  /** The request, e.g. `initialize`. */
  step: string;
  /** Seconds per request. */
  timeoutS: number;
  /** Values to hide. */
  secrets: readonly string[];
  /** How to name settings. */
  terms: SessionTerms;
  /** Whether the request's wait was cut short by the overall deadline. */
  deadline: boolean;
}

function versionRefused(context: FailureContext): McpServerError | null {
  const answer = context.recorder.lastAnswer("initialize")?.result as
    | { protocolVersion?: unknown }
    | undefined;
  const offered = answer?.protocolVersion;
  if (context.step !== "initialize" || answer === undefined) return null;
  const parsed = InitializeResultSchema.safeParse(answer);
  if (!parsed.success) {
    return new McpServerError(
      "invalid",
      `the initialize answer is not valid MCP (the SDK's client refuses it): ${
        issueLines(parsed.error.issues).join("; ")
      }`,
      { cause: context.error },
    );
  }
  if (typeof offered === "string" && !SUPPORTED_PROTOCOL_VERSIONS.includes(offered)) {
    return new McpServerError(
      "version",
      `the server offered protocol version ${JSON.stringify(offered)}, which was refused: this ` +
        `client supports ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`,
      { cause: context.error },
    );
  }
  return null;
}

/**
 * Turn whatever the SDK or Deno threw into one McpServerError, after the child is reaped.
 *
 * @param context The error and where it happened.
 * @returns The error to throw.
 */
export async function failure(context: FailureContext): Promise<McpServerError> {
  const { spec, transport, error, step, timeoutS, secrets } = context;
  if (error instanceof McpServerError) return error;
  const local = transport instanceof DenoCommandTransport ? transport : undefined;
  const program = isRemoteSpec(spec) ? spec.url : spec.command[0]!;
  if (error instanceof Deno.errors.NotCapable) {
    await transport.close().catch(() => {});
    const flag = isRemoteSpec(spec)
      ? `--allow-net=${new URL(spec.url.replace(/\$\{[^}]*\}/g, "x")).host}`
      // Unscoped, as the README's line: only then can Deno stop the server's whole process group.
      : "--allow-run (without a list, so the server's process group can be stopped)";
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
  const refused = versionRefused(context);
  const code = errorCode(error);
  const status = isRemoteSpec(spec) ? httpStatus(error) : undefined;
  // A write to a dead child can fail before its exit is seen: give the exit a moment to arrive.
  const exitedOnItsOwn = local !== undefined && refused === null &&
    await local.waitForExit(code === REQUEST_TIMEOUT ? 0 : 300);
  if (local) await (code === REQUEST_TIMEOUT || refused ? local.kill() : local.close());
  else await transport.close().catch(() => {});
  const leftBehind = local?.leftBehind ?? null;
  if (refused) {
    return new McpServerError(refused.kind, refused.message, {
      cause: error,
      leftBehind,
      stderr: (local?.stderrTail ?? []).map((line) => redact(line, secrets)),
    });
  }
  const oversized = local?.oversized ?? oversizedMessage(transport);
  if (oversized !== undefined) {
    return new McpServerError(
      "protocol",
      `${step} failed: ${oversized} (${describeServer(spec)})`,
      {
        cause: error,
        leftBehind,
        stderr: (local?.stderrTail ?? []).map((line) => redact(line, secrets)),
      },
    );
  }
  if (isRemoteSpec(spec) && status !== undefined) {
    return httpFailure(spec, status, error as Error, step, secrets, authChallenge(transport));
  }
  if (isRemoteSpec(spec) && spec.url.startsWith("https:") && PLAIN_HTTP.test(messageOf(error))) {
    const plain = spec.url.replace(/^https:/, "http:");
    return new McpServerError(
      "protocol",
      `${spec.url} answered in plain HTTP, not TLS (https): the port serves http; use ${plain}`,
      { cause: error },
    );
  }
  const pretty = local === undefined ? undefined : prettyPrintedLine(local.stdoutNoise);
  if (pretty !== undefined) {
    return new McpServerError(
      "protocol",
      `no answer to ${step}: the server writes each JSON-RPC message over several lines ` +
        `(pretty-printed, e.g. ${JSON.stringify(redact(pretty, secrets))}), and MCP's stdio ` +
        `transport reads one message per line (${describeServer(spec)})`,
      {
        cause: error,
        stderr: local!.stderrTail.map((line) => redact(line, secrets)),
        leftBehind,
      },
    );
  }
  // What the server wrote may echo a secret it was given.
  const stderr = (local?.stderrTail ?? []).map((line) => redact(line, secrets));
  const noise = (local?.stdoutNoise ?? []).map((line) => redact(line, secrets));
  const left = leftBehindNote(local?.leftBehind);
  const notes = unfinishedNote(local?.unfinishedLine ?? 0, code === REQUEST_TIMEOUT) +
    (noise.length > 0
      ? `; it wrote ${
        local!.stdoutNoiseCount
      } non-JSON line(s) to stdout (log to stderr instead), e.g. ${JSON.stringify(noise[0])}`
      : "") +
    (left ? `; ${left.detail}${left.fix ? `: ${left.fix}` : ""}` : "");
  if (code === REQUEST_TIMEOUT && !exitedOnItsOwn) {
    return new McpServerError(
      context.deadline ? "deadline" : "timeout",
      context.deadline
        ? `no answer to ${step} before the deadline (${
          context.terms.deadline ?? "the deadlineS option"
        }) from ${describeServer(spec)}${notes}`
        : `no answer to ${step} within ${timeoutS} s from ${describeServer(spec)}${notes}`,
      { cause: error, stderr, leftBehind },
    );
  }
  if (local?.exit !== undefined && (exitedOnItsOwn || code === CONNECTION_CLOSED)) {
    const { code: exitCode, signal } = local.exit;
    const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    return new McpServerError(
      "exit",
      `the server ${how} during ${step} (${describeServer(spec)})${notes}`,
      { cause: error, stderr, leftBehind },
    );
  }
  return new McpServerError(
    "protocol",
    `${step} failed: ${redact(messageOf(error), secrets)} (${describeServer(spec)})${notes}`,
    { cause: error, stderr, leftBehind },
  );
}

// A line the server was still writing (no newline yet) when the wait ended or it exited: not
// "non-JSON" (issue 42). A valid 300 MB answer that trickles in ends here at the timeout.
function unfinishedNote(characters: number, timedOut: boolean): string {
  if (characters === 0) return "";
  const size = characters.toLocaleString("en-US");
  return `; it was still writing one line to stdout (${size} characters, no newline yet${
    timedOut ? ", when the timeout came: a slow large answer needs a longer timeout" : ""
  }; one message may be up to ${sizeText(maxMessageBytes())}, TOOLSCORE_MAX_MESSAGE_MIB)`;
}
