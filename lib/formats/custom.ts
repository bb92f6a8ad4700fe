/**
 * The `toolscore` envelope and `custom` shapes: call lists written by hand or
 * by other tools.
 *
 * - `toolscore`: `{"format": "toolscore", "calls": […], "final_answer"?, "model"?, "usage"?}`.
 * - `custom`: `{"calls"|"tool_calls": […]}` or a bare list of
 *   `{tool|name|function, args|arguments|input, result|output, error,
 *   duration|duration_s, cost|cost_usd}`. String arguments are parsed as JSON;
 *   text that does not parse is kept in `raw_args` with `args_error`.
 *
 * @module
 */

import {
  callFromJson,
  describeJson,
  isJsonObject,
  joinPath,
  type JsonObject,
  type ToolCall,
  type Trace,
  type Usage,
} from "../calls.ts";
import { InputError } from "../errors.ts";
import type { FormatReader } from "./reader.ts";

const NAME_KEYS = ["tool", "name", "function"] as const;
const ARGS_KEYS = ["args", "arguments", "input"] as const;

function customName(item: JsonObject): string | undefined {
  for (const key of NAME_KEYS) {
    const value = item[key];
    if (typeof value === "string" && value !== "") return value;
    if (key === "function" && isJsonObject(value) && typeof value.name === "string") {
      return value.name;
    }
  }
  return undefined;
}

function isCustomItem(value: unknown): boolean {
  return isJsonObject(value) && customName(value) !== undefined && value.role === undefined &&
    value.type === undefined && value.jsonrpc === undefined;
}

function customList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value)) {
    if (Array.isArray(value.calls)) return value.calls;
    if (Array.isArray(value.tool_calls)) return value.tool_calls;
  }
  return undefined;
}

/**
 * Parse argument text: a JSON object, or the text kept with the parse error.
 *
 * @param raw The argument text as the provider sent it.
 * @returns `{args}` or `{args: {}, rawArgs, argsError}`.
 *
 * @example Usage
 * ```ts
 * import { parseArgumentText } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseArgumentText('{"a":1}'), { args: { a: 1 } });
 * assert.equal(parseArgumentText("{a:").rawArgs, "{a:");
 * ```
 */
export function parseArgumentText(
  raw: string,
): Pick<ToolCall, "args" | "rawArgs" | "argsError"> {
  if (raw.trim() === "") return { args: {} };
  try {
    const parsed = JSON.parse(raw);
    if (isJsonObject(parsed)) return { args: parsed };
    return {
      args: {},
      rawArgs: raw,
      argsError: `arguments are ${describeJson(parsed)}, not an object`,
    };
  } catch (error) {
    return { args: {}, rawArgs: raw, argsError: (error as Error).message };
  }
}

function customCall(item: unknown, path: string, source: string): ToolCall {
  if (!isJsonObject(item)) {
    throw new InputError(`expected a call object, got ${describeJson(item)}`, `${source}: ${path}`);
  }
  const tool = customName(item);
  if (tool === undefined) {
    throw new InputError("call has no tool name (tool, name or function)", `${source}: ${path}`);
  }
  const call: ToolCall = { tool };
  let rawArgs: unknown = undefined;
  for (const key of ARGS_KEYS) {
    if (item[key] !== undefined) {
      rawArgs = item[key];
      break;
    }
  }
  if (rawArgs === undefined && isJsonObject(item.function)) rawArgs = item.function.arguments;
  if (typeof rawArgs === "string") Object.assign(call, parseArgumentText(rawArgs));
  else if (isJsonObject(rawArgs)) call.args = rawArgs;
  else if (rawArgs === undefined || rawArgs === null) call.args = {};
  else {
    Object.assign(call, {
      args: {},
      rawArgs: JSON.stringify(rawArgs),
      argsError: `arguments are ${describeJson(rawArgs)}, not an object`,
    });
  }
  if (typeof item.id === "string") call.id = item.id;
  const result = item.result !== undefined ? item.result : item.output;
  if (result !== undefined) call.result = result;
  if (typeof item.error === "string" || item.error === null) call.error = item.error;
  else if (item.error !== undefined) call.error = JSON.stringify(item.error);
  const isError = item.is_error ?? item.isError;
  if (typeof isError === "boolean") call.isError = isError;
  const duration = item.duration_s ?? item.duration;
  if (typeof duration === "number") call.durationS = duration;
  const cost = item.cost_usd ?? item.cost;
  if (typeof cost === "number") call.costUsd = cost;
  if (isJsonObject(item.metadata)) call.metadata = item.metadata;
  return call;
}

/**
 * Read token usage from `{input_tokens, output_tokens}` (or OpenAI's
 * `prompt_tokens` / `completion_tokens`).
 *
 * @param value The usage object.
 * @returns The usage, or `undefined` when the value holds none.
 *
 * @example Usage
 * ```ts
 * import { usageFromJson } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(usageFromJson({ prompt_tokens: 5 }), { inputTokens: 5, outputTokens: null });
 * ```
 */
export function usageFromJson(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const number = (...keys: string[]): number | null => {
    for (const key of keys) if (typeof value[key] === "number") return value[key] as number;
    return null;
  };
  const usage = {
    inputTokens: number("input_tokens", "prompt_tokens", "inputTokens", "promptTokenCount"),
    outputTokens: number(
      "output_tokens",
      "completion_tokens",
      "outputTokens",
      "candidatesTokenCount",
    ),
  };
  return usage.inputTokens === null && usage.outputTokens === null ? undefined : usage;
}

function envelopeExtras(value: unknown, trace: Trace): Trace {
  if (!isJsonObject(value)) return trace;
  if (typeof value.final_answer === "string") trace.finalAnswer = value.final_answer;
  if (typeof value.model === "string") trace.model = value.model;
  const usage = usageFromJson(value.usage);
  if (usage) trace.usage = usage;
  return trace;
}

/** The `toolscore` envelope reader. */
export const toolscoreReader: FormatReader = {
  name: "toolscore",
  claims: (value) => isJsonObject(value) && value.format === "toolscore",
  read(value, source) {
    if (!isJsonObject(value) || !Array.isArray(value.calls)) {
      throw new InputError("a toolscore trace needs a calls list", `${source}: calls`);
    }
    const calls = value.calls.map((item, i) => {
      try {
        return callFromJson(item, { path: joinPath("calls", i) });
      } catch (error) {
        if (error instanceof InputError) throw new InputError(error.message, source);
        throw error;
      }
    });
    return envelopeExtras(value, { calls, format: "toolscore" });
  },
};

/** The `custom` reader: call lists in loose shapes. */
export const customReader: FormatReader = {
  name: "custom",
  claims(value) {
    const list = customList(value);
    return list !== undefined && list.length > 0 && list.every(isCustomItem) ||
      (list !== undefined && list.length === 0 && !Array.isArray(value));
  },
  read(value, source) {
    const list = customList(value);
    if (list === undefined) {
      throw new InputError(`expected a list of calls, got ${describeJson(value)}`, source);
    }
    const base = Array.isArray(value)
      ? ""
      : Array.isArray((value as JsonObject).calls)
      ? "calls"
      : "tool_calls";
    const calls = list.map((item, i) => customCall(item, joinPath(base, i), source));
    return envelopeExtras(value, { calls, format: "custom" });
  },
};
