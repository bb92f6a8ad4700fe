/**
 * What `agent run` keeps of the conversation besides the calls (issue 30):
 * each model turn with its stop reason, the text it sent beside its calls
 * and its refusal; calls the model sent that could not be made (no name,
 * arguments that are not an object, an unknown call type), recorded as
 * failed calls whose error goes back to the model; and the call in flight
 * when its server died or hung.
 *
 * Decisions where the issue is silent:
 * - A turn stopped on the output-token limit is one whose stop reason is
 *   `length` (OpenAI), `max_tokens` (Anthropic) or `MAX_TOKENS` (Gemini),
 *   compared without case. Only the last turn decides the run's `stop`: a
 *   cut reply with calls still has its calls made.
 * - A refusal with no other text is the final answer (it is what the user
 *   was told).
 * - A call in flight when its server exited failed (the error says so, with
 *   the server's last stderr lines in `metadata.server_stderr`); one in
 *   flight when the server or the run timed out has an unknown outcome
 *   (no result, no error: the tool may have done its work), and says why in
 *   `metadata.in_flight`.
 *
 * @module
 */

import type { JsonObject, ToolCall } from "../scoring/calls.ts";
import { McpServerError } from "../mcp/server_error.ts";
import type { ModelCall, ModelReply } from "./provider.ts";

/** One model turn as the trace keeps it (`metadata.model_turns[]`, snake_case). */
export interface TurnRecord {
  /** The turn, from 1. */
  turn: number;
  /** Why the model stopped, as the provider said it; `null` when it did not. */
  stop_reason: string | null;
  /** How many calls the reply asked for. */
  calls: number;
  /** The text of the reply (beside its calls, or the final answer). */
  text?: string;
  /** The model's refusal, when it refused. */
  refusal?: string;
}

/**
 * The trace's record of one model turn.
 *
 * @param reply The reply.
 * @param turn Its number, from 1.
 * @returns The record.
 *
 * @example Usage
 * ```ts
 * import { turnRecord } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * const reply = {
 *   text: "Let me look.",
 *   calls: [{ id: "c1", name: "search", args: {} }],
 *   usage: { inputTokens: 1, outputTokens: 1 },
 *   model: null,
 *   stopReason: "tool_use",
 * };
 * assert.deepEqual(turnRecord(reply, 1), {
 *   turn: 1,
 *   stop_reason: "tool_use",
 *   calls: 1,
 *   text: "Let me look.",
 * });
 * ```
 */
export function turnRecord(reply: ModelReply, turn: number): TurnRecord {
  const record: TurnRecord = { turn, stop_reason: reply.stopReason, calls: reply.calls.length };
  if (reply.text !== null && reply.text !== "") record.text = reply.text;
  if (reply.refusal !== undefined) record.refusal = reply.refusal;
  return record;
}

/**
 * Whether a stop reason says the model hit its output-token limit.
 *
 * @param reason The provider's stop reason.
 * @returns `true` for `length`, `max_tokens`, `MAX_TOKENS`.
 *
 * @example Usage
 * ```ts
 * import { stoppedOnLength } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stoppedOnLength("length"), true);
 * assert.equal(stoppedOnLength("MAX_TOKENS"), true);
 * assert.equal(stoppedOnLength("stop"), false);
 * ```
 */
export function stoppedOnLength(reason: string | null): boolean {
  const lower = reason?.toLowerCase();
  return lower === "length" || lower === "max_tokens";
}

/**
 * The final answer of a reply without calls: its text, else its refusal.
 *
 * @param reply The reply.
 * @returns The answer (`""` when the model said nothing).
 *
 * @example Usage
 * ```ts
 * import { finalAnswerOf } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * const reply = {
 *   text: null,
 *   refusal: "I can't help with that.",
 *   calls: [],
 *   usage: { inputTokens: 1, outputTokens: 1 },
 *   model: null,
 *   stopReason: "stop",
 * };
 * assert.equal(finalAnswerOf(reply), "I can't help with that.");
 * ```
 */
export function finalAnswerOf(reply: ModelReply): string {
  if (reply.text !== null && reply.text !== "") return reply.text;
  return reply.refusal ?? reply.text ?? "";
}

/**
 * The failed call recorded for a call the model sent that cannot be made,
 * or `undefined` when it can be made: no name (`no-name`), a type the
 * provider does not define (`unknown-type`), arguments that are not a JSON
 * object (`bad-arguments`). Its `error` is what the model is told.
 *
 * @param call The model's call.
 * @param tool The MCP name it maps to (`""` when it has none).
 * @returns The failed call, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { malformedCall } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * const failed = malformedCall({ id: "c1", name: "", args: {} }, "");
 * assert.equal(failed?.malformed, "no-name");
 * assert.equal(failed?.tool, "");
 * assert.equal(malformedCall({ id: "c2", name: "add", args: { a: 1 } }, "add"), undefined);
 * ```
 */
export function malformedCall(call: ModelCall, tool: string): ToolCall | undefined {
  let record: ToolCall;
  if (call.malformed === "unknown-type") {
    record = { tool, id: call.id, malformed: "unknown-type" };
    record.error = `the call was not made: ${call.argsError ?? "its type is unknown"}`;
  } else if (call.name === "") {
    record = { tool: "", id: call.id, malformed: "no-name" };
    record.error = "the call was not made: it names no tool";
  } else if (call.args === null) {
    record = { tool, id: call.id, malformed: "bad-arguments" };
    if (call.rawArgs !== undefined) record.rawArgs = call.rawArgs;
    record.argsError = call.argsError ?? "arguments did not parse";
    record.error = `the arguments are not a JSON object: ${record.argsError}`;
  } else {
    return undefined;
  }
  record.isError = true;
  record.durationS = 0;
  if (call.kind !== undefined) record.metadata = { call_type: call.kind };
  return record;
}

/**
 * The notes a call that was made carries into the trace: its wire type when
 * it was not a plain function call, and what the provider's reader noted.
 *
 * @param call The model's call.
 * @returns Metadata to add, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { callNotes } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(callNotes({ id: "c", name: "a", args: {}, note: "arguments were null: read as {}" }), {
 *   note: "arguments were null: read as {}",
 * });
 * ```
 */
export function callNotes(call: ModelCall): JsonObject | undefined {
  if (call.kind === undefined && call.note === undefined) return undefined;
  const notes: JsonObject = {};
  if (call.kind !== undefined) notes.call_type = call.kind;
  if (call.note !== undefined) notes.note = call.note;
  return notes;
}

const STDERR_LINES = 10;

/**
 * Record the call that was in flight when the run failed: failed when its
 * server exited (or the connection broke), unknown when it or the run timed
 * out; with the server's last stderr lines.
 *
 * @param record The call as recorded so far (tool, id, arguments).
 * @param error Why the call did not come back.
 * @param stderr The server's stderr lines (its first and last ones).
 * @param durationS Seconds since the call was sent.
 * @returns The call, completed.
 *
 * @example Usage
 * ```ts
 * import { inFlightCall } from "./turns.ts";
 * import assert from "node:assert/strict";
 *
 * const call = inFlightCall({ tool: "slow", args: {} }, new Error("the run passed timeout_s"), ["booting"], 2);
 * assert.equal(call.error, undefined);
 * assert.deepEqual(call.metadata?.server_stderr, ["booting"]);
 * ```
 */
export function inFlightCall(
  record: ToolCall,
  error: unknown,
  stderr: readonly string[],
  durationS: number,
): ToolCall {
  const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  const lines = error instanceof McpServerError && error.stderr.length > 0 ? error.stderr : stderr;
  const metadata: JsonObject = { ...record.metadata };
  if (lines.length > 0) metadata.server_stderr = lines.slice(-STDERR_LINES);
  const hung = !(error instanceof McpServerError) || error.kind === "timeout" ||
    error.kind === "deadline";
  if (hung) {
    metadata.in_flight = `no answer: ${message}; the outcome is unknown`;
    return { ...record, metadata };
  }
  return {
    ...record,
    error: `the server failed during the call: ${message}`,
    isError: true,
    durationS,
    metadata,
  };
}

/** A call that did not come back: the run ends with `error`, and the call is kept. */
export class CallInFlight extends Error {
  /**
   * @param record The call, as {@linkcode inFlightCall} completed it.
   * @param cause Why it did not come back.
   */
  constructor(readonly record: ToolCall, override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "CallInFlight";
  }
}
