/**
 * The call model: one tool call, a trace, and the rules that say whether a
 * call failed or has a captured outcome.
 *
 * TypeScript objects are camelCase (`isError`, `durationS`, `costUsd`); files
 * and `toJSON()` are snake_case. {@linkcode callFromJson} and
 * {@linkcode callToJson} convert between the two, so every entry point accepts
 * calls in the file shape.
 *
 * Unknown is not zero: an absent `durationS` or `costUsd` means "not
 * recorded", and `0` is a known zero.
 *
 * @module
 */

import { clipEcho } from "../base/clip_input.ts";
import { InputError } from "../base/errors.ts";
import { isNumberText } from "../base/lossless_json.ts";

import { joinPath } from "../base/json_pointer.ts";
import { type MalformedKind, namelessError } from "./malformed.ts";
import { FIELD_EXPECTS, fieldValid, isJsonObject } from "./_call_fields.ts";

// joinPath lives in lib/base (json_pointer needs it too); the readers keep importing it from here.
export { joinPath };
// isJsonObject lives beside the field checks that need it (no import cycle); it is public here.
export { isJsonObject };

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** One tool call, expected (gold) or actual (trace). */
export interface ToolCall {
  /** The tool name, non-empty. */
  tool: string;
  /**
   * The arguments. On the expected side, `undefined`/`null` means "don't
   * check arguments" and `{}` means "expect zero arguments". Values may be
   * matchers on the expected side.
   */
  args?: JsonObject | null;
  /** The provider's call id, used to pair results with calls. */
  id?: string;
  /** What the tool returned; absent when not captured. */
  result?: unknown;
  /** A failure message; `""` and `null` mean no error. */
  error?: string | null;
  /** An explicit failure flag (MCP `isError`, Anthropic `is_error`). */
  isError?: boolean;
  /** Wall-clock seconds; absent when unknown. */
  durationS?: number;
  /** Cost in USD; absent when unknown (0 is a known zero). */
  costUsd?: number;
  /** The raw argument text, kept when it failed to parse. */
  rawArgs?: string;
  /** Why the raw argument text failed to parse. */
  argsError?: string;
  /** Side effects to validate (expected side only): `{check: expected}`. */
  sideEffects?: JsonObject;
  /** A human description (expected side only). */
  description?: string;
  /** Anything else the reader found (`schema`, `http_status`…). */
  metadata?: JsonObject;
  /** Who made the call: `"user"` for the user's (τ² dual control); absent = the agent. */
  actor?: "user" | "agent";
  /** Why a call the model sent could not be made (see `malformed.ts`). */
  malformed?: MalformedKind;
}

/** The format names every entry point accepts. */
export type FormatName =
  | "toolscore"
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "gemini"
  | "mcp"
  | "langchain"
  | "otel"
  | "claude-code"
  | "vercel-ai"
  | "openai-agents"
  | "fast-agent"
  | "adk"
  | "langfuse"
  | "custom"
  | "tau-bench"
  | "tau2-bench"
  | "vcr"
  | "swe-agent"
  | "mini-swe-agent"
  | "gemini-cli"
  | "openhands"
  | "inspect"
  | "bfcl";

/** Token usage of a trace. */
export interface Usage {
  /** Input (prompt) tokens. */
  inputTokens: number | null;
  /** Output (completion) tokens. */
  outputTokens: number | null;
}

/** The calls of one agent run and what else the reader found. */
export interface Trace {
  /** The calls, in the order they were made. */
  calls: ToolCall[];
  /** The last assistant text after the last tool call; `undefined` = unknown. */
  finalAnswer?: string;
  /**
   * The final answer was cut short (the model stopped on its output-token
   * limit): the honesty checks that read it are unknown, never pass.
   */
  finalAnswerTruncated?: boolean;
  /** The model, when the trace names it. */
  model?: string;
  /** Token usage, when recorded. */
  usage?: Usage;
  /** The format the trace was read as. */
  format: FormatName;
  /**
   * The run of a run file this trace is (a τ-bench record, a τ²-bench
   * simulation…): its task and trial. Names the trace `FILE[task#trial]`.
   */
  run?: TraceRun;
  /** What the reader found beside the calls (`recorded_reward`, `task_id`…). */
  metadata?: JsonObject;
  /** Items of a known format the reader skipped, by type ("skipped 1 item of type X"). */
  skipped?: SkippedItems[];
  /** What a person should know about the reading (a chat with no tool calls…). */
  notes?: string[];
}

/** The task and trial of one run of a run file. */
export interface TraceRun {
  /** The task id, as text. */
  task: string;
  /** The trial (repeat) number, when the file records one. */
  trial?: number;
}

/** How many items of one type a reader skipped. */
export interface SkippedItems {
  /** The item type as the document names it. */
  type: string;
  /** How many were skipped. */
  count: number;
}

/**
 * Whether a call failed: `isError` is true or `error` is a non-empty string.
 *
 * @param call The call.
 * @returns `true` when the call failed.
 *
 * @example Usage
 * ```ts
 * import { callFailed } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(callFailed({ tool: "a", error: "boom" }), true);
 * assert.equal(callFailed({ tool: "a", error: "" }), false);
 * ```
 */
export function callFailed(call: ToolCall): boolean {
  return call.isError === true || (typeof call.error === "string" && call.error !== "");
}

/**
 * Whether a call has a captured outcome: a `result`, an `error` or `isError`.
 *
 * @param call The call.
 * @returns `true` when something shows how the call ended.
 *
 * @example Usage
 * ```ts
 * import { hasOutcome } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(hasOutcome({ tool: "a" }), false);
 * assert.equal(hasOutcome({ tool: "a", result: 0 }), true);
 * ```
 */
export function hasOutcome(call: ToolCall): boolean {
  return call.result !== undefined ||
    (call.error !== undefined && call.error !== null) ||
    call.isError !== undefined;
}

/**
 * The total of a figure over calls (cost, duration), known only when every
 * call carries it: one unknown call makes the total unknown, never a
 * partial sum; no calls at all is unknown too.
 *
 * @param calls The calls.
 * @param pick The figure of one call, `undefined` when unknown.
 * @returns The sum, or `null` when unknown.
 *
 * @example Usage
 * ```ts
 * import { knownTotal } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(knownTotal([{ tool: "a", costUsd: 0.5 }, { tool: "b", costUsd: 0 }], (c) => c.costUsd), 0.5);
 * assert.equal(knownTotal([{ tool: "a", costUsd: 0.5 }, { tool: "b" }], (c) => c.costUsd), null);
 * ```
 */
export function knownTotal(
  calls: readonly ToolCall[],
  pick: (call: ToolCall) => number | undefined,
): number | null {
  if (calls.length === 0) return null;
  let sum = 0;
  for (const call of calls) {
    const value = pick(call);
    if (value === undefined) return null;
    sum += value;
  }
  return sum;
}

// snake_case file key -> camelCase field, for the keys that differ.
const FILE_KEYS: Record<string, keyof ToolCall> = {
  tool: "tool",
  args: "args",
  id: "id",
  result: "result",
  error: "error",
  is_error: "isError",
  duration_s: "durationS",
  cost_usd: "costUsd",
  raw_args: "rawArgs",
  args_error: "argsError",
  side_effects: "sideEffects",
  description: "description",
  metadata: "metadata",
  actor: "actor",
  malformed: "malformed",
};

const FILE_ENTRIES = Object.entries(FILE_KEYS);
// Every key a call may have in a file (snake_case, or the camelCase field name) -> its field.
const FIELD_OF_KEY = new Map<string, keyof ToolCall>([
  ...FILE_ENTRIES,
  ...FILE_ENTRIES.map(([, field]) => [field, field] as const),
]);

/** Options for {@linkcode callFromJson}. */
export interface CallFromJsonOptions {
  /**
   * JSON path of the value, for error messages.
   * @default {""}
   */
  path?: string;
  /**
   * The value's index in the list at `path`: errors then name `path[index]`
   * (built only when there is an error).
   * @default {undefined}
   */
  index?: number;
  /**
   * Reject keys that are not part of the call model.
   * @default {false}
   */
  strictKeys?: boolean;
  /**
   * Accept `tool: ""` with a `malformed` reason and a non-empty `error` (the `toolscore` format).
   * @default {false}
   */
  allowMalformed?: boolean;
}

/**
 * Read one call in the file shape (snake_case keys; `isError`, `durationS`…
 * are accepted too). Unknown keys go to `metadata` unless `strictKeys`.
 *
 * @param value The parsed JSON value.
 * @param options Where the value came from and how strict to be.
 * @returns The call.
 * @throws {InputError} When the value is not an object or `tool` is missing.
 *
 * @example Usage
 * ```ts
 * import { callFromJson } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * const call = callFromJson({ tool: "search", args: { q: "x" }, duration_s: 0.5 });
 * assert.deepEqual(call, { tool: "search", args: { q: "x" }, durationS: 0.5 });
 * assert.throws(
 *   () => callFromJson({ tool: "a", duration_s: -1 }, { path: "calls", index: 2 }),
 *   /^InputError: calls\[2\]\.duration_s: must be a number of seconds >= 0/,
 * );
 * ```
 */
export function callFromJson(value: unknown, options: CallFromJsonOptions = {}): ToolCall {
  const base = options.path ?? "";
  const where = () => options.index === undefined ? base : joinPath(base, options.index);
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected a call object, got ${describeJson(value)}`,
      where() || undefined,
    );
  }
  const tool = value.tool;
  if (tool === undefined) throw new InputError("missing key tool", joinPath(where(), "tool"));
  const toolError = namelessError(value, options);
  if (toolError !== undefined) throw new InputError(toolError, joinPath(where(), "tool"));
  // Fields are gathered first and set in one fixed order, so every call with the same fields
  // has the same object shape whatever the key order of the file (property access on calls is
  // then fast everywhere downstream). One variable and one store per field, not a loop over a
  // table: a loop of keyed stores made reading a trace about 1.5x slower.
  let args: unknown, id: unknown, result: unknown, error: unknown, isError: unknown;
  let durationS: unknown, costUsd: unknown, rawArgs: unknown, argsError: unknown;
  let sideEffects: unknown, description: unknown, metadata: unknown, actor: unknown;
  let malformed: unknown;
  let extra: JsonObject | undefined;
  for (const key in value) {
    if (key === "tool" || !Object.hasOwn(value, key)) continue;
    const raw = value[key];
    const field = FIELD_OF_KEY.get(key);
    if (field === undefined) {
      if (options.strictKeys) {
        throw new InputError(
          `unknown key ${key} (a call has ${Object.keys(FILE_KEYS).join(", ")})`,
          joinPath(where(), key),
        );
      }
      (extra ??= {})[key] = raw;
      continue;
    }
    if (!fieldValid(field, raw)) {
      throw new InputError(
        `must be ${FIELD_EXPECTS[field] ?? "valid"}, got ${describeJson(raw)}`,
        joinPath(where(), key),
      );
    }
    switch (field) {
      case "args":
        args = raw;
        break;
      case "id":
        id = raw;
        break;
      case "result":
        result = raw;
        break;
      case "error":
        error = raw;
        break;
      case "isError":
        isError = raw;
        break;
      case "durationS": // null means unknown: the field stays out
        durationS = raw ?? undefined;
        break;
      case "costUsd":
        costUsd = raw ?? undefined;
        break;
      case "rawArgs":
        rawArgs = raw;
        break;
      case "argsError":
        argsError = raw;
        break;
      case "sideEffects":
        sideEffects = raw;
        break;
      case "description":
        description = raw;
        break;
      case "metadata":
        metadata = raw;
        break;
      case "actor":
        actor = raw;
        break;
      case "malformed":
        malformed = raw;
        break;
    }
  }
  const call: ToolCall = { tool: tool as string };
  if (args !== undefined) call.args = args as JsonObject | null;
  if (id !== undefined) call.id = id as string;
  if (result !== undefined) call.result = result;
  if (error !== undefined) call.error = error as string | null;
  if (isError !== undefined) call.isError = isError as boolean;
  if (durationS !== undefined) call.durationS = durationS as number;
  if (costUsd !== undefined) call.costUsd = costUsd as number;
  if (rawArgs !== undefined) call.rawArgs = rawArgs as string;
  if (argsError !== undefined) call.argsError = argsError as string;
  if (sideEffects !== undefined) call.sideEffects = sideEffects as JsonObject;
  if (description !== undefined) call.description = description as string;
  if (extra !== undefined) call.metadata = { ...extra, ...(metadata as JsonObject ?? {}) };
  else if (metadata !== undefined) call.metadata = metadata as JsonObject;
  if (actor !== undefined) call.actor = actor as "user" | "agent";
  if (malformed !== undefined) call.malformed = malformed as MalformedKind;
  return call;
}

/**
 * Write a call in the file shape (snake_case keys), leaving absent fields out.
 * Matchers in `args` stay as they are; `JSON.stringify` writes them as their
 * operator objects.
 *
 * @param call The call.
 * @returns A JSON object.
 *
 * @example Usage
 * ```ts
 * import { callToJson } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(callToJson({ tool: "a", isError: true }), { tool: "a", is_error: true });
 * ```
 */
export function callToJson(call: ToolCall): JsonObject {
  const out: JsonObject = {};
  for (let i = 0; i < FILE_ENTRIES.length; i++) {
    const [key, field] = FILE_ENTRIES[i]!;
    const value = call[field];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * A short description of a JSON value for error messages: `a string`, `an array of 3`.
 *
 * @param value Any value.
 * @returns A few words.
 *
 * @example Usage
 * ```ts
 * import { describeJson } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(describeJson([1, 2]), "an array of 2");
 * ```
 */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    return keys.length === 0
      ? "an empty object"
      : `an object with keys ${keys.slice(0, 6).map((key) => clipEcho(key)).join(", ")}${
        keys.length > 6 ? ", …" : ""
      }`;
  }
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return `the number ${value}`;
  if (isNumberText(value)) return `the number ${clipEcho(value.rawJSON)}`;
  if (typeof value === "boolean") return `${value}`;
  return typeof value;
}
