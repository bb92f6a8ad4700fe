/**
 * The `custom` format: call lists written by hand or by other tools.
 *
 * Shapes: `{"calls"|"tool_calls": […]}` or a bare list of
 * `{tool|name|function, args|arguments|input, result|output, error,
 * is_error, duration|duration_s, cost|cost_usd}`.
 *
 * Decisions where the design is silent:
 * - Every field of the call model is kept, in the file shape (`is_error`,
 *   `duration_s`, `cost_usd`, `raw_args`, `args_error`, `metadata`, `actor`…) and in
 *   the TypeScript shape (`isError`, `durationS`…), so calls that went through
 *   `evaluate()` once can be passed in again. `duration` is seconds;
 *   `duration_ms` is milliseconds. Keys the model does not know go to
 *   `metadata` (an explicit `metadata` object wins on a clash).
 * - String arguments are parsed as JSON; text that does not parse is kept in
 *   `raw_args` with `args_error`, never a silent `{}`. Given `raw_args` and
 *   `args_error` are kept as they are.
 * - A field of the wrong type (a string duration, a numeric `is_error`) is an
 *   error naming its JSON path, not dropped.
 * - A bare empty list `[]` is a trace with no calls (the agent called
 *   nothing), so `evaluate(gold, [])` scores a run that made no calls.
 * - Items with `role`, `type`, `jsonrpc` or `tool_input` belong to provider
 *   formats, so a list holding them is not claimed here.
 *
 * @module
 */

import {
  describeJson,
  isJsonObject,
  joinPath,
  type JsonObject,
  type ToolCall,
} from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { finishTrace, idOf, setArgs } from "./_shared.ts";
import type { FormatReader } from "./reader.ts";

const NAME_KEYS = ["tool", "name", "function"] as const;
const ARGS_KEYS = ["args", "arguments", "input"] as const;
// Keys read into call fields; every other key goes to metadata.
const KNOWN_KEYS = new Set([
  ...NAME_KEYS,
  ...ARGS_KEYS,
  "id",
  "result",
  "output",
  "error",
  "is_error",
  "isError",
  "duration",
  "duration_s",
  "durationS",
  "duration_ms",
  "cost",
  "cost_usd",
  "costUsd",
  "raw_args",
  "rawArgs",
  "args_error",
  "argsError",
  "side_effects",
  "sideEffects",
  "description",
  "metadata",
  "actor",
]);

function customName(item: JsonObject): string | undefined {
  for (const key of NAME_KEYS) {
    const value = item[key];
    if (typeof value === "string" && value !== "") return value;
    if (key === "function" && isJsonObject(value) && typeof value.name === "string") {
      return value.name === "" ? undefined : value.name;
    }
  }
  return undefined;
}

function isCustomItem(value: unknown): boolean {
  return isJsonObject(value) && customName(value) !== undefined && value.role === undefined &&
    value.type === undefined && value.jsonrpc === undefined && value.tool_input === undefined;
}

function customList(value: unknown): { list: unknown[]; base: string } | undefined {
  if (Array.isArray(value)) return { list: value, base: "" };
  if (isJsonObject(value)) {
    if (Array.isArray(value.calls)) return { list: value.calls, base: "calls" };
    if (Array.isArray(value.tool_calls)) return { list: value.tool_calls, base: "tool_calls" };
  }
  return undefined;
}

function first(item: JsonObject, ...keys: string[]): [string, unknown] | undefined {
  for (const key of keys) if (item[key] !== undefined) return [key, item[key]];
  return undefined;
}

function nonNegative(value: unknown, where: string): number | undefined {
  if (value === null) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  throw new InputError(`expected a number of 0 or more, got ${describeJson(value)}`, where);
}

function customCall(item: unknown, path: string, source: string): ToolCall {
  const where = (key?: string) => `${source}: ${key === undefined ? path : joinPath(path, key)}`;
  if (!isJsonObject(item)) {
    throw new InputError(`expected a call object, got ${describeJson(item)}`, where());
  }
  const tool = customName(item);
  if (tool === undefined) {
    throw new InputError("call has no tool name (tool, name or function)", where());
  }
  const call: ToolCall = { tool };
  const rawArgs = first(item, ...ARGS_KEYS)?.[1] ??
    (isJsonObject(item.function) ? item.function.arguments : undefined);
  setArgs(call, rawArgs);
  const givenRaw = first(item, "raw_args", "rawArgs");
  const givenError = first(item, "args_error", "argsError");
  if (typeof givenRaw?.[1] === "string") call.rawArgs = givenRaw[1];
  if (typeof givenError?.[1] === "string") call.argsError = givenError[1];
  const id = idOf(item.id);
  if (id !== undefined) call.id = id;
  const result = first(item, "result", "output");
  if (result !== undefined) call.result = result[1];
  if (typeof item.error === "string" || item.error === null) call.error = item.error;
  else if (isJsonObject(item.error) && typeof item.error.message === "string") {
    call.error = item.error.message;
  } else if (item.error !== undefined) call.error = JSON.stringify(item.error);
  const isError = first(item, "is_error", "isError");
  if (isError !== undefined) {
    if (typeof isError[1] !== "boolean") {
      throw new InputError(
        `expected true or false, got ${describeJson(isError[1])}`,
        where(isError[0]),
      );
    }
    call.isError = isError[1];
  }
  const duration = first(item, "duration_s", "durationS", "duration");
  const durationMs = first(item, "duration_ms");
  if (duration !== undefined) {
    const seconds = nonNegative(duration[1], where(duration[0]));
    if (seconds !== undefined) call.durationS = seconds;
  } else if (durationMs !== undefined) {
    const ms = nonNegative(durationMs[1], where("duration_ms"));
    if (ms !== undefined) call.durationS = ms / 1000;
  }
  const cost = first(item, "cost_usd", "costUsd", "cost");
  if (cost !== undefined) {
    const usd = nonNegative(cost[1], where(cost[0]));
    if (usd !== undefined) call.costUsd = usd;
  }
  const sideEffects = first(item, "side_effects", "sideEffects")?.[1];
  if (isJsonObject(sideEffects)) call.sideEffects = sideEffects;
  if (typeof item.description === "string") call.description = item.description;
  if (item.actor === "user" || item.actor === "agent") call.actor = item.actor;
  else if (item.actor !== undefined) {
    throw new InputError(
      `expected "user" or "agent", got ${describeJson(item.actor)}`,
      where("actor"),
    );
  }
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (!KNOWN_KEYS.has(key)) extra[key] = value;
  }
  const metadata = isJsonObject(item.metadata) ? item.metadata : {};
  if (Object.keys(extra).length > 0 || isJsonObject(item.metadata)) {
    call.metadata = { ...extra, ...metadata };
  }
  return call;
}

/**
 * The `custom` reader: call lists in loose shapes.
 *
 * @example Usage
 * ```ts
 * import { customReader } from "./custom.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = customReader.read([{ name: "search", arguments: '{"q":"x"}', duration_ms: 250 }], "trace.json");
 * assert.deepEqual(trace.calls, [{ tool: "search", args: { q: "x" }, durationS: 0.25 }]);
 * ```
 */
export const customReader: FormatReader = {
  name: "custom",
  claims(value) {
    const found = customList(value);
    if (found === undefined) return false;
    for (const item of found.list) if (!isCustomItem(item)) return false;
    return true;
  },
  read(value, source) {
    const found = customList(value);
    if (found === undefined) {
      throw new InputError(`expected a list of calls, got ${describeJson(value)}`, source);
    }
    const calls = found.list.map((item, i) => customCall(item, joinPath(found.base, i), source));
    return finishTrace({ calls, format: "custom" }, value);
  },
};
