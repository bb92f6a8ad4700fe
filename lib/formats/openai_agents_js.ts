/**
 * The OpenAI Agents **JS** SDK's serialized `RunState` (`state.toString()`,
 * `$schemaVersion` 1.x; issue 36), turned into the shape of the Python SDK's
 * run state that the `openai-agents` reader reads. Private to
 * `lib/formats/`.
 *
 * The JS state is camelCase: `originalInput` (text or input items),
 * `modelResponses` (`{output: [items], usage: {inputTokens, outputTokens}}`),
 * `generatedItems` (`{type: "tool_call_item" | "tool_call_output_item" |
 * "message_output_item" | "tool_approval_item", rawItem}`), and its protocol
 * items say `callId` for `call_id` and `function_call_result` (with `output`
 * text or `{type: "text", text}`) for `function_call_output`.
 *
 * Decisions where the SDK is silent:
 * - A state is the JS one when it has `$schemaVersion` and `generatedItems`
 *   (the Python SDK writes `generated_items`).
 * - A call waiting for a human is a `tool_approval_item` in
 *   `generatedItems` or in `currentStep.data.interruptions`: kept once,
 *   marked `approval: "requested"`, no outcome.
 * - An agent used as a tool that is still running leaves its own state in
 *   `pendingAgentToolRuns` (`"tool:callId"` → the nested state's JSON text):
 *   its calls are the sub-agent's and are read after the outer ones, marked
 *   `metadata.parent_call_id`, at most 8 levels deep.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { resultFromText } from "./_shared.ts";

const MAX_DEPTH = 8;

/**
 * Whether a value is a JS SDK run state.
 *
 * @param value Any value.
 * @returns `true` for `{$schemaVersion, generatedItems: […]}`.
 */
export function isJsRunState(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.$schemaVersion === "string" &&
    Array.isArray(value.generatedItems);
}

function outputText(output: unknown): unknown {
  if (isJsonObject(output) && output.type === "text" && typeof output.text === "string") {
    return output.text;
  }
  return output;
}

/** One JS protocol item in the Responses API's snake_case form. */
function pythonItem(raw: unknown): unknown {
  if (!isJsonObject(raw)) return raw;
  const item: JsonObject = { ...raw };
  if (item.callId !== undefined && item.call_id === undefined) item.call_id = item.callId;
  delete item.callId;
  if (item.type === "function_call_result") {
    item.type = "function_call_output";
    item.output = outputText(item.output);
  }
  return item;
}

function generated(entry: unknown): JsonObject | undefined {
  if (!isJsonObject(entry) || !isJsonObject(entry.rawItem)) return undefined;
  return { type: entry.type ?? null, raw_item: pythonItem(entry.rawItem) };
}

/**
 * A JS run state in the Python SDK's run-state shape, and the nested states
 * of agents used as tools (each with the call that runs it).
 *
 * @param state The JS run state.
 * @param depth How deep this state is (0 for the file's).
 * @returns The states, the file's first.
 */
export function pythonRunStates(
  state: JsonObject,
  depth = 0,
): { state: JsonObject; parentCallId?: string }[] {
  const input = Array.isArray(state.originalInput) ? state.originalInput.map(pythonItem) : [];
  const items = (state.generatedItems as unknown[]).map(generated).filter((g) => g !== undefined);
  const step = isJsonObject(state.currentStep) && isJsonObject(state.currentStep.data)
    ? state.currentStep.data
    : {};
  if (Array.isArray(step.interruptions)) {
    for (const entry of step.interruptions) {
      const item = generated(entry);
      if (item !== undefined && item.type === "tool_approval_item") items.push(item);
    }
  }
  const responses = Array.isArray(state.modelResponses)
    ? state.modelResponses.filter(isJsonObject).map((response) => ({
      ...response,
      output: Array.isArray(response.output) ? response.output.map(pythonItem) : [],
    }))
    : [];
  const out: { state: JsonObject; parentCallId?: string }[] = [{
    state: {
      $schemaVersion: state.$schemaVersion ?? null,
      original_input: input,
      generated_items: items,
      model_responses: responses,
    },
  }];
  if (depth >= MAX_DEPTH || !isJsonObject(state.pendingAgentToolRuns)) return out;
  for (const [key, text] of Object.entries(state.pendingAgentToolRuns)) {
    const nested = typeof text === "string" ? resultFromText(text) : text;
    if (!isJsRunState(nested)) continue;
    const parentCallId = key.includes(":") ? key.slice(key.indexOf(":") + 1) : key;
    for (const inner of pythonRunStates(nested, depth + 1)) {
      out.push({ state: inner.state, parentCallId: inner.parentCallId ?? parentCallId });
    }
  }
  return out;
}
