/**
 * Gemini Interactions API responses, read by the `gemini` reader.
 *
 * Shapes: an interaction `{id, status, model|agent, steps: […], usage}` (the
 * current API), the older `{…, outputs: […]}` (content items straight
 * under `outputs`), or a list of interactions (turns chained by
 * `previous_interaction_id`). Both are accepted.
 *
 * A call is a step or output item of type `function_call` `{id, name,
 * arguments}` or `mcp_server_tool_call` `{id, name, server_name,
 * arguments}`; a built-in tool call `{type: "X_call", id, arguments}`
 * (`code_execution_call`, `google_search_call`, `url_context_call`,
 * `file_search_call`, `google_maps_call`) is a call named `X`
 * (`google_search`). Results are `function_result` / `X_result` items
 * `{call_id, result, is_error?}` (in `steps`, `outputs` or the request's
 * `input`), paired by `call_id`.
 *
 * Decisions where the API is silent:
 * - `is_error: true` marks the call failed (its error is the result text,
 *   else `"tool error"`); `false` is a known success; absent, a result that is
 *   an object with a non-empty `error` failed, anything else is a result
 *   with no explicit status.
 * - A result given as content items (`[{type: "text", text}]`) is rendered
 *   to text; text that is JSON is kept parsed.
 * - The final answer is the text of the `model_output` steps (or `text`
 *   outputs) after the last call, as the SDK's `output_text` helper reads
 *   it; thoughts are not part of it. A top-level `final_answer` wins. In a
 *   `completed` interaction a server-run tool's (built-in or
 *   `mcp_server_tool_call`) call and result steps that
 *   come after the answer (a real Google Search grounding records
 *   `model_output`, then `google_search_call`, then `google_search_result`)
 *   do not void it: like `output_text`, the answer is the last run of
 *   `model_output` text; a `function_call` still does.
 * - `usage` is `total_input_tokens`/`total_output_tokens`, summed over the
 *   interactions; `model` is the first `model` (else `agent`).
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachTextResult,
  errorInResult,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  resultFromText,
  setArgs,
} from "./_shared.ts";
import type { Trace } from "../scoring/calls.ts";

// Interaction statuses the API documents.
const STATUSES = new Set([
  "in_progress",
  "requires_action",
  "completed",
  "failed",
  "cancelled",
  "incomplete",
  "budget_exceeded",
]);

function isTypedList(value: unknown): value is JsonObject[] {
  return Array.isArray(value) &&
    value.every((item) => isJsonObject(item) && typeof item.type === "string");
}

/**
 * Whether a value is a Gemini Interactions API interaction.
 *
 * @param value Any value.
 * @returns `true` for `{steps|outputs: [typed items], status|object: "interaction"}`.
 *
 * @example Usage
 * ```ts
 * import { isInteraction } from "./gemini_interactions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isInteraction({ id: "i1", status: "completed", outputs: [] }), true);
 * assert.equal(isInteraction({ outputs: [] }), false);
 * ```
 */
export function isInteraction(value: unknown): value is JsonObject {
  if (!isJsonObject(value)) return false;
  const items = value.steps ?? value.outputs;
  if (!isTypedList(items)) return false;
  return value.object === "interaction" ||
    (typeof value.status === "string" && STATUSES.has(value.status));
}

function callName(item: JsonObject): string | undefined {
  const type = item.type as string;
  if (type === "function_call" || type === "mcp_server_tool_call") {
    return typeof item.name === "string" && item.name !== "" ? item.name : "";
  }
  return type.endsWith("_call") ? type.slice(0, -"_call".length) : undefined;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const item of content) {
    if (isJsonObject(item) && item.type === "text" && typeof item.text === "string") {
      texts.push(item.text);
    }
  }
  return texts.join("");
}

function attachResult(call: ToolCall, item: JsonObject): void {
  const result = item.result;
  if (typeof result === "string") attachTextResult(call, result);
  else if (Array.isArray(result) && result.every((r) => isJsonObject(r) && r.type === "text")) {
    call.result = resultFromText(contentText(result) ?? "");
  } else {
    call.result = result ?? null;
    const error = errorInResult(result);
    if (error !== undefined) call.error = error;
  }
  if (item.is_error === true) {
    call.isError = true;
    if (typeof call.error !== "string" || call.error === "") {
      const text = typeof result === "string" ? result : contentText(result);
      call.error = text !== undefined && text !== "" ? text : "tool error";
    }
  } else if (item.is_error === false) call.isError = false;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const input = typeof value.total_input_tokens === "number" ? value.total_input_tokens : null;
  const output = typeof value.total_output_tokens === "number" ? value.total_output_tokens : null;
  return input === null && output === null
    ? undefined
    : { inputTokens: input, outputTokens: output };
}

/**
 * Read interactions as one `gemini` trace.
 *
 * @param interactions The interactions, in order.
 * @param source The file name, for errors.
 * @param envelope The document, for a top-level `final_answer`.
 * @returns The trace.
 * @throws {InputError} On a `function_call` without a name.
 *
 * @example Usage
 * ```ts
 * import { readInteractions } from "./gemini_interactions.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readInteractions([{
 *   id: "i1",
 *   status: "completed",
 *   steps: [
 *     { type: "function_call", id: "c1", name: "a", arguments: { x: 1 } },
 *     { type: "function_result", call_id: "c1", result: { sum: 2 }, is_error: false },
 *   ],
 * }], "t.json", undefined);
 * assert.deepEqual(trace.calls[0]?.result, { sum: 2 });
 * ```
 */
export function readInteractions(
  interactions: readonly JsonObject[],
  source: string,
  envelope: unknown,
): Trace {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  const answer = new FinalAnswer("");
  let usage: Usage | undefined;
  let model: string | undefined;
  interactions.forEach((interaction, n) => {
    const key = Array.isArray(interaction.steps) ? "steps" : "outputs";
    const input = Array.isArray(interaction.input) ? interaction.input : [];
    const items = [...input, ...(interaction[key] as JsonObject[])];
    const where = (i: number) =>
      i < input.length ? `[${n}].input[${i}]` : `[${n}].${key}[${i - input.length}]`;
    let modelTurn = false;
    const completed = interaction.status === "completed";
    items.forEach((item, i) => {
      if (!isJsonObject(item) || typeof item.type !== "string") return;
      const type = item.type;
      if (type.endsWith("_result")) {
        const call = byId.get(idOf(item.call_id) ?? "");
        if (call !== undefined && call.result === undefined) attachResult(call, item);
        return;
      }
      const name = callName(item);
      if (name !== undefined) {
        if (name === "") {
          throw new InputError(`${type} has no name`, `${source}: ${where(i)}`);
        }
        const call: ToolCall = { tool: name };
        setArgs(call, item.arguments);
        const id = idOf(item.id);
        if (id !== undefined) {
          call.id = id;
          byId.set(id, call);
        }
        if (typeof item.server_name === "string") call.metadata = { server_name: item.server_name };
        calls.push(call);
        const builtIn = type !== "function_call" && i >= input.length;
        if (!(completed && builtIn)) answer.call();
        modelTurn = false;
        return;
      }
      if (i < input.length || type === "user_input") {
        modelTurn = false;
        return;
      }
      if (type === "model_output" || type === "text") {
        if (!modelTurn) answer.message();
        modelTurn = true;
        answer.text(type === "text" ? item.text : contentText(item.content));
      }
    });
    usage = addUsage(usage, usageOf(interaction.usage));
    const named = interaction.model ?? interaction.agent;
    if (model === undefined && typeof named === "string" && named !== "") model = named;
  });
  const trace = makeTrace("gemini", calls, { finalAnswer: answer.value, model, usage });
  return finishTrace(trace, Array.isArray(envelope) ? undefined : envelope);
}
