/**
 * The `vercel-ai` format: Vercel AI SDK results and streams.
 *
 * Shapes:
 * - a `generateText` result (or `streamText`'s awaited steps) as JSON:
 *   `{"steps": [{content: […], usage, …}], "text"?, "totalUsage"?}`, whose
 *   steps carry `content` parts (what `JSON.stringify` writes) or the
 *   `toolCalls`/`toolResults` lists (what a logger that reads the getters
 *   writes); a bare step or a `{toolCalls, toolResults}` object too;
 * - UI message stream chunks (a JSON list or JSONL of `{"type":
 *   "tool-input-available"|"tool-output-available"|"tool-output-error"|
 *   "text-delta"|…}`), as `toUIMessageStream` sends them;
 * - `fullStream` parts (`tool-call`, `tool-result`, `tool-error`,
 *   `text-delta`…), which share the content parts' shape.
 *
 * A call is a `tool-call` part `{toolCallId, toolName, input}` (v4: `args`)
 * or a `tool-input-available` chunk; its result is the `tool-result` part
 * `{toolCallId, output}` (v4: `result`) or `tool-output-available` chunk of
 * the same `toolCallId`.
 *
 * Decisions where the SDK is silent:
 * - The SDK reports failures explicitly (`tool-error` parts,
 *   `tool-output-error` chunks), so a result is a known success (`is_error:
 *   false`). A `tool-error`'s `error` (a string, or an object's `message`;
 *   `"tool error"` when a serialized Error lost it) and a
 *   `tool-output-error`'s `errorText` mark the call failed.
 *   `tool-output-denied` fails it with `denied`. A `tool-approval-request`
 *   marks the call `metadata.approval: "requested"` (its outcome comes later,
 *   or stays unknown). A `tool-input-error` chunk
 *   (the model's input did not parse or validate, so the tool never ran) is
 *   a call with that input, failed with its `errorText`.
 * - A `preliminary` output is replaced by the final one.
 * - A result without `toolCallId` (a log that dropped the ids) belongs to
 *   the earliest call of its tool, with the same input, that has no id and
 *   no outcome yet; otherwise it is a call of its own.
 * - A call whose input was still streaming when the stream ended
 *   (`tool-input-start` and `tool-input-delta` chunks, no
 *   `tool-input-available`) is kept with the text it had as its arguments
 *   (unparsable text is `raw_args`), marked `metadata.input_incomplete`, no
 *   outcome — never dropped.
 * - Provider-executed tools (`providerExecuted: true`) are calls too, marked
 *   `metadata.provider_executed`.
 * - The final answer is the result's `text` when present, else the text
 *   parts after the last call. A top-level `final_answer` wins.
 * - `usage` is `totalUsage` (else the sum of the steps' `usage`):
 *   `inputTokens`/`outputTokens` (v4: `promptTokens`/`completionTokens`).
 *   `model` is the first step's `model.modelId` (else `response.modelId`).
 *   UI streams carry neither.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { canonicalJson } from "../base/canonical.ts";
import {
  addUsage,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  resultFromText,
  setArgs,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

// UI message stream chunk types and fullStream part types the reader knows.
const CHUNK_TYPES = new Set([
  "start",
  "finish",
  "abort",
  "error",
  "start-step",
  "finish-step",
  "message-metadata",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "reasoning",
  "source-url",
  "source-document",
  "source",
  "file",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
  "tool-input-available",
  "tool-input-error",
  "tool-approval-request",
  "tool-output-available",
  "tool-output-error",
  "tool-output-denied",
  "tool-call",
  "tool-result",
  "tool-error",
  "raw",
]);

// Types that only the AI SDK uses (so a list of them is this format).
const OWN_TYPES = new Set([
  "start-step",
  "finish-step",
  "text-start",
  "text-end",
  "tool-input-available",
  "tool-output-available",
  "tool-output-error",
  "tool-input-start",
  "tool-call",
  "tool-result",
  "tool-error",
]);

function isChunk(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.type === "string" &&
    (CHUNK_TYPES.has(value.type) || value.type.startsWith("data-"));
}

/**
 * Whether a value is one UI message stream chunk or `fullStream` part (a
 * JSONL line of a Vercel AI SDK stream).
 *
 * @param value Any value.
 * @returns `true` for a chunk the AI SDK defines.
 *
 * @example Usage
 * ```ts
 * import { isVercelChunk } from "./vercel_ai.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isVercelChunk({ type: "tool-output-available", toolCallId: "c", output: 1 }), true);
 * assert.equal(isVercelChunk({ type: "message" }), false);
 * ```
 */
export function isVercelChunk(value: unknown): boolean {
  return isChunk(value);
}

function isStep(value: unknown): value is JsonObject {
  return isJsonObject(value) && value.type === undefined &&
    ((Array.isArray(value.content) && value.content.every(isJsonObject) &&
      (value.usage !== undefined || value.finishReason !== undefined)) ||
      Array.isArray(value.toolCalls) || Array.isArray(value.toolResults));
}

type Document = { parts: JsonObject[]; steps: JsonObject[]; result?: JsonObject };

function stepParts(step: JsonObject): JsonObject[] {
  if (Array.isArray(step.content)) return step.content.filter(isJsonObject);
  const parts: JsonObject[] = [];
  for (const list of [step.toolCalls, step.toolResults]) {
    if (Array.isArray(list)) { for (const part of list) if (isJsonObject(part)) parts.push(part); }
  }
  if (typeof step.text === "string") parts.push({ type: "text", text: step.text });
  return parts;
}

function readDocument(value: unknown): Document | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isChunk)) return undefined;
    return value.some((c) => OWN_TYPES.has(c.type as string))
      ? { parts: value, steps: [] }
      : undefined;
  }
  if (!isJsonObject(value)) return undefined;
  if (Array.isArray(value.steps) && value.steps.length > 0 && value.steps.every(isStep)) {
    return { parts: value.steps.flatMap(stepParts), steps: value.steps, result: value };
  }
  if (isStep(value)) return { parts: stepParts(value), steps: [value], result: value };
  return undefined;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const number = (...keys: string[]) => {
    for (const key of keys) if (typeof value[key] === "number") return value[key] as number;
    return null;
  };
  const usage = {
    inputTokens: number("inputTokens", "promptTokens"),
    outputTokens: number("outputTokens", "completionTokens"),
  };
  return usage.inputTokens === null && usage.outputTokens === null ? undefined : usage;
}

function errorText(error: unknown): string {
  if (typeof error === "string" && error !== "") return error;
  if (isJsonObject(error) && typeof error.message === "string" && error.message !== "") {
    return error.message;
  }
  return "tool error";
}

// A result without `toolCallId` (a log that dropped the ids) is the result
// of the earliest call of the same tool, with the same input, that has no id
// and no outcome yet: results come in the order of their calls.
function openCallFor(calls: ToolCall[], part: JsonObject): ToolCall | undefined {
  if (!RESULT_TYPES.has(part.type as string) || typeof part.toolName !== "string") {
    return undefined;
  }
  const input = part.input ?? part.args;
  const wanted = input === undefined ? undefined : canonicalJson(input); // once, not per call
  return calls.find((call) =>
    call.id === undefined && call.tool === part.toolName && call.result === undefined &&
    call.isError === undefined &&
    (wanted === undefined || wanted === canonicalJson(call.args ?? {}))
  );
}

const RESULT_TYPES = new Set(["tool-result", "tool-error", "tool-output-available"]);

function fail(call: ToolCall, message: string): void {
  call.isError = true;
  call.error = message;
}

/**
 * The `vercel-ai` reader.
 *
 * @example Usage
 * ```ts
 * import { vercelAiReader } from "./vercel_ai.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = vercelAiReader.read([
 *   { type: "tool-input-available", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" } },
 *   { type: "tool-output-error", toolCallId: "c1", errorText: "timeout" },
 * ], "chunks.jsonl");
 * assert.equal(trace.calls[0]?.error, "timeout");
 * ```
 */
export const vercelAiReader: FormatReader = documentReader(
  "vercel-ai",
  readDocument,
  "not a Vercel AI SDK document: expected a result with steps, or UI message stream chunks",
  (doc, source, value) => {
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    const answer = new FinalAnswer("");
    const callOf = (part: JsonObject, index: number): ToolCall | undefined => {
      const id = idOf(part.toolCallId);
      const known = id === undefined ? openCallFor(calls, part) : byId.get(id);
      if (known !== undefined) return known;
      if (typeof part.toolName !== "string" || part.toolName === "") {
        if (part.type === "tool-result" || part.type === "tool-error") {
          throw new InputError(`${part.type} has no toolName`, `${source}: parts[${index}]`);
        }
        return undefined;
      }
      const call: ToolCall = { tool: part.toolName };
      setArgs(call, part.input ?? part.args);
      if (id !== undefined) {
        call.id = id;
        byId.set(id, call);
      }
      if (part.providerExecuted === true) call.metadata = { provider_executed: true };
      calls.push(call);
      answer.call();
      return call;
    };
    // Calls whose input was still streaming (tool-input-start/-delta, no -available yet).
    const started = new Map<string, { part: JsonObject; index: number; text: string }>();
    doc.parts.forEach((part, index) => {
      const type = part.type;
      const id = idOf(part.toolCallId);
      if (type === "tool-input-start" && id !== undefined && !byId.has(id)) {
        started.set(id, { part, index, text: "" });
        return;
      }
      if (type === "tool-input-delta" && id !== undefined) {
        const open = started.get(id);
        if (open !== undefined && typeof part.inputTextDelta === "string") {
          open.text += part.inputTextDelta;
        }
        return;
      }
      const open = id === undefined ? undefined : started.get(id);
      if (open !== undefined) {
        started.delete(id as string);
        // An outcome for a call whose input never completed: the call as far as it came.
        if (
          type !== "tool-input-available" && type !== "tool-input-error" && type !== "tool-call"
        ) {
          callOf({ ...open.part, input: open.text }, open.index);
        }
      }
      if (type === "text") answer.text(part.text);
      else if (type === "text-delta") answer.text(part.delta ?? part.text ?? part.textDelta);
      else if (type === "text-start" || type === "start-step") answer.message();
      else if (type === "tool-call" || type === "tool-input-available") {
        if (typeof part.toolName !== "string" || part.toolName === "") {
          throw new InputError(`${type} has no toolName`, `${source}: parts[${index}]`);
        }
        callOf(part, index);
      } else if (type === "tool-input-error") {
        const call = callOf(part, index);
        if (call !== undefined) fail(call, errorText(part.errorText));
      } else if (type === "tool-result" || type === "tool-output-available") {
        const call = callOf(part, index);
        if (call === undefined || call.isError === true) return;
        if (call.result !== undefined && call.metadata?.preliminary !== true) return;
        const output = part.output !== undefined ? part.output : part.result;
        call.result = typeof output === "string" ? resultFromText(output) : output ?? null;
        call.isError = false;
        if (part.preliminary === true) call.metadata = { ...call.metadata, preliminary: true };
        else if (call.metadata?.preliminary === true) {
          const { preliminary: _, ...rest } = call.metadata;
          if (Object.keys(rest).length > 0) call.metadata = rest;
          else delete call.metadata;
        }
      } else if (type === "tool-error" || type === "tool-output-error") {
        const call = callOf(part, index);
        if (call !== undefined) fail(call, errorText(part.error ?? part.errorText));
      } else if (type === "tool-approval-request") {
        const call = byId.get(idOf(part.toolCallId) ?? "");
        if (call !== undefined) call.metadata = { ...call.metadata, approval: "requested" };
      } else if (type === "tool-output-denied") {
        const call = byId.get(idOf(part.toolCallId) ?? "");
        if (call !== undefined) fail(call, "denied");
      }
    });
    // A call the model began but whose input never completed: kept, with the text it had.
    for (const { part, index, text } of started.values()) {
      const call = callOf({ ...part, input: text }, index);
      if (call !== undefined) call.metadata = { ...call.metadata, input_incomplete: true };
    }
    const result = doc.result;
    let usage = usageOf(result?.totalUsage);
    if (usage === undefined) {
      for (const step of doc.steps) usage = addUsage(usage, usageOf(step.usage));
    }
    let model: string | undefined;
    for (const step of doc.steps) {
      const meta = isJsonObject(step.model)
        ? step.model
        : isJsonObject(step.response)
        ? step.response
        : {};
      if (typeof meta.modelId === "string" && meta.modelId !== "") {
        model = meta.modelId;
        break;
      }
    }
    const text = result !== undefined && typeof result.text === "string" &&
        result.text.trim() !== "" && doc.steps.length > 0 && result !== doc.steps[0]
      ? result.text
      : answer.value;
    const trace = makeTrace("vercel-ai", calls, { finalAnswer: text, model, usage });
    return finishTrace(trace, Array.isArray(value) ? undefined : value);
  },
);
