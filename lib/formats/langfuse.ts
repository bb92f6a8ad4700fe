/**
 * The `langfuse` format: Langfuse trace exports (issue 36).
 *
 * Shapes: `{trace, observations: […]}` (a trace downloaded with its
 * observations), the public API's trace with full details `{id, …,
 * observations: […]}` (`GET /api/public/traces/{id}`), or a list of either
 * (one trace each). An observation is `{id, traceId, type, name,
 * parentObservationId, startTime, endTime, input, output, level,
 * statusMessage, model, usage | usageDetails}`, typed `GENERATION`, `TOOL`,
 * `SPAN`, `AGENT`, `CHAIN`, `EVENT`, `RETRIEVER`, `EMBEDDING`, `GUARDRAIL`
 * or `EVALUATOR` — what every framework Langfuse instruments (Claude Agent
 * SDK, Google ADK, OpenAI Agents, Pydantic AI, Vercel AI SDK) records.
 *
 * Decisions where Langfuse is silent:
 * - A call is a `TOOL` observation: the tool is its name (a leading
 *   `execute_tool ` or `tool:` dropped), the arguments its input (an
 *   object, or JSON text of one; other input is `{input: …}`), the result its
 *   output. `level: "ERROR"` failed, its error the `statusMessage`; an
 *   observation with an `endTime` otherwise succeeded; one without has no
 *   outcome.
 * - A file with no `TOOL` observation reads the calls its `GENERATION`
 *   outputs request (OpenAI-style `tool_calls`, Anthropic `tool_use`
 *   blocks), outcome unknown; with `TOOL` observations these are the same
 *   calls and are not read again.
 * - Observations are ordered by `startTime` (document order breaks ties);
 *   `parentObservationId` only nests them and is kept in the call metadata.
 * - The final answer is the trace's `output` when it is text, else the text
 *   output of the last `GENERATION` (or `AGENT`) that calls no tool, when it
 *   starts after the last call.
 * - Usage is summed over the `GENERATION`s (`usageDetails` or `usage`
 *   `{input, output}`); the model is the first generation's.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
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

const TYPES = new Set([
  "GENERATION",
  "TOOL",
  "SPAN",
  "AGENT",
  "CHAIN",
  "EVENT",
  "RETRIEVER",
  "EMBEDDING",
  "GUARDRAIL",
  "EVALUATOR",
]);

function isObservation(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.id === "string" && typeof value.type === "string" &&
    TYPES.has(value.type);
}

interface Found {
  trace: JsonObject;
  observations: JsonObject[];
}

function findOne(value: unknown): Found | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.observations)) return undefined;
  const observations = value.observations;
  if (observations.length > 0 && !observations.every(isObservation)) return undefined;
  if (isJsonObject(value.trace)) return { trace: value.trace, observations };
  if (typeof value.id === "string" && (observations.length > 0 || "projectId" in value)) {
    return { trace: value, observations };
  }
  return undefined;
}

function findTraces(value: unknown): Found[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const found = value.map(findOne);
    return found.every((f) => f !== undefined) ? found as Found[] : undefined;
  }
  const one = findOne(value);
  return one === undefined ? undefined : [one];
}

function json(value: unknown): unknown {
  return typeof value === "string" ? resultFromText(value) : value;
}

function time(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function toolName(observation: JsonObject, source: string): string {
  const name = typeof observation.name === "string" ? observation.name.trim() : "";
  const bare = name.replace(/^execute_tool\s+/, "").replace(/^tool:\s*/, "").trim();
  if (bare === "") {
    throw new InputError(`TOOL observation ${observation.id} has no name`, source);
  }
  return bare;
}

function toolCall(observation: JsonObject, source: string): ToolCall {
  const call: ToolCall = { tool: toolName(observation, source) };
  const input = json(observation.input);
  if (isJsonObject(input)) call.args = input;
  else if (input === undefined || input === null) call.args = {};
  else setArgs(call, { input });
  if (observation.output !== undefined && observation.output !== null) {
    call.result = json(observation.output);
  }
  const start = time(observation.startTime);
  const end = time(observation.endTime);
  if (observation.level === "ERROR") {
    call.isError = true;
    call.error = typeof observation.statusMessage === "string" && observation.statusMessage !== ""
      ? observation.statusMessage
      : "error";
  } else if (end !== undefined) call.isError = false;
  if (start !== undefined && end !== undefined && end >= start) {
    call.durationS = (end - start) / 1000;
  }
  const metadata: JsonObject = { observation_id: observation.id as string };
  if (typeof observation.parentObservationId === "string") {
    metadata.parent_observation_id = observation.parentObservationId;
  }
  call.metadata = metadata;
  return call;
}

// Calls a generation's output asks for: OpenAI-style tool_calls or Anthropic tool_use blocks.
function requestedCalls(output: unknown): ToolCall[] {
  const calls: ToolCall[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isJsonObject(value)) return;
    if (value.type === "tool_use" && typeof value.name === "string") {
      const call: ToolCall = { tool: value.name };
      setArgs(call, value.input);
      const id = idOf(value.id);
      if (id !== undefined) call.id = id;
      calls.push(call);
      return;
    }
    if (Array.isArray(value.tool_calls)) {
      for (const entry of value.tool_calls) {
        const fn = isJsonObject(entry) && isJsonObject(entry.function) ? entry.function : entry;
        if (!isJsonObject(fn) || typeof fn.name !== "string") continue;
        const call: ToolCall = { tool: fn.name };
        setArgs(call, fn.arguments ?? fn.args);
        const id = isJsonObject(entry) ? idOf(entry.id) : undefined;
        if (id !== undefined) call.id = id;
        calls.push(call);
      }
    }
    if (isJsonObject(value.message)) visit(value.message, depth + 1);
    if (Array.isArray(value.content)) visit(value.content, depth + 1);
    if (Array.isArray(value.choices)) visit(value.choices, depth + 1);
  };
  visit(json(output), 0);
  return calls;
}

function outputText(output: unknown): string | undefined {
  const value = json(output);
  if (typeof value === "string") return value;
  const answer = new FinalAnswer();
  const visit = (item: unknown, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(item)) {
      for (const entry of item) visit(entry, depth + 1);
      return;
    }
    if (!isJsonObject(item)) return;
    if (typeof item.content === "string") answer.text(item.content);
    else if (item.type === "text" && typeof item.text === "string") answer.text(item.text);
    else if (Array.isArray(item.content)) visit(item.content, depth + 1);
    else if (isJsonObject(item.message)) visit(item.message, depth + 1);
  };
  visit(value, 0);
  return answer.value;
}

function readOne(found: Found, source: string) {
  const observations = found.observations
    .map((o, i) => ({ o, i, at: time(o.startTime) }))
    .sort((a, b) =>
      a.at !== undefined && b.at !== undefined && a.at !== b.at ? a.at - b.at : a.i - b.i
    )
    .map((entry) => entry.o);
  const tools = observations.filter((o) => o.type === "TOOL");
  const calls: ToolCall[] = tools.map((o) => toolCall(o, source));
  let lastCall = tools.reduce<number | undefined>((latest, o) => {
    const at = time(o.startTime);
    return at !== undefined && (latest === undefined || at > latest) ? at : latest;
  }, undefined);
  let usage: Usage | undefined;
  let model: string | undefined;
  let answer: string | undefined;
  for (const o of observations) {
    if (o.type !== "GENERATION" && o.type !== "AGENT") continue;
    if (o.type === "GENERATION") {
      if (model === undefined && typeof o.model === "string" && o.model !== "") model = o.model;
      const details = isJsonObject(o.usageDetails) ? o.usageDetails : o.usage;
      if (isJsonObject(details)) {
        const input = details.input ?? details.promptTokens ?? details.input_tokens;
        const output = details.output ?? details.completionTokens ?? details.output_tokens;
        if (typeof input === "number" || typeof output === "number") {
          usage = addUsage(usage, {
            inputTokens: typeof input === "number" ? input : null,
            outputTokens: typeof output === "number" ? output : null,
          });
        }
      }
    }
    const requested = requestedCalls(o.output);
    const at = time(o.startTime);
    if (requested.length > 0) {
      if (tools.length === 0) {
        pushAll(calls, requested);
        if (at !== undefined && (lastCall === undefined || at > lastCall)) lastCall = at;
      }
      answer = undefined;
      continue;
    }
    const text = outputText(o.output);
    if (text !== undefined && (lastCall === undefined || at === undefined || at > lastCall)) {
      answer = text;
    }
  }
  const traceOutput = json(found.trace.output);
  if (typeof traceOutput === "string" && traceOutput.trim() !== "") answer = traceOutput;
  const trace = makeTrace("langfuse", calls, { finalAnswer: answer, model, usage });
  const metadata: JsonObject = {};
  if (typeof found.trace.id === "string") metadata.trace_id = found.trace.id;
  if (typeof found.trace.name === "string") metadata.trace_name = found.trace.name;
  if (Object.keys(metadata).length > 0) trace.metadata = metadata;
  return trace;
}

/**
 * The `langfuse` reader (one trace; a list of several exports is read one
 * trace each, see {@linkcode langfuseGroups}).
 *
 * @example Usage
 * ```ts
 * import { langfuseReader } from "./langfuse.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = langfuseReader.read({
 *   trace: { id: "t1", name: "chat", output: "It is sunny." },
 *   observations: [
 *     { id: "o1", type: "TOOL", name: "get_weather", input: { city: "Paris" }, output: "sunny",
 *       startTime: "2025-01-01T00:00:00.000Z", endTime: "2025-01-01T00:00:00.250Z" },
 *   ],
 * }, "trace.json");
 * assert.equal(trace.calls[0]?.tool, "get_weather");
 * assert.equal(trace.calls[0]?.durationS, 0.25);
 * assert.equal(trace.finalAnswer, "It is sunny.");
 * ```
 */
export const langfuseReader: FormatReader = documentReader(
  "langfuse",
  findTraces,
  "not a Langfuse trace export: expected {trace, observations} or a trace with observations",
  (found, source, value) => {
    if (found.length !== 1) {
      throw new InputError(
        `holds ${found.length} Langfuse traces; read each export on its own`,
        source,
      );
    }
    return finishTrace(readOne(found[0]!, source), Array.isArray(value) ? undefined : value);
  },
);

/**
 * The exports of a Langfuse document holding more than one trace (a list of
 * exports), each a document the `langfuse` reader reads as one trace;
 * `undefined` when the document is one trace or not Langfuse.
 *
 * @param value A parsed document.
 * @returns The exports in order, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { langfuseGroups, langfuseReader } from "./langfuse.ts";
 * import assert from "node:assert/strict";
 *
 * const one = (id: string) => ({ id, observations: [{ id: `${id}-o`, type: "TOOL", name: "a" }] });
 * const groups = langfuseGroups([one("t1"), one("t2")]);
 * assert.equal(groups?.length, 2);
 * assert.equal(langfuseReader.read(groups?.[1], "x.json").metadata?.trace_id, "t2");
 * assert.equal(langfuseGroups(one("t1")), undefined);
 * ```
 */
export function langfuseGroups(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value) || value.length < 2) return undefined;
  return findTraces(value) === undefined ? undefined : value;
}
