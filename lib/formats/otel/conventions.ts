/**
 * The tool calls each OpenTelemetry convention records, read from one span.
 * Private to `lib/formats/`.
 *
 * A tool **execution** span is one of:
 * - GenAI: `gen_ai.operation.name == "execute_tool"` (tool
 *   `gen_ai.tool.name`, arguments `gen_ai.tool.call.arguments`, result
 *   `gen_ai.tool.call.result`, id `gen_ai.tool.call.id`; without those, the
 *   generic `input` (a JSON object) and `output` attributes that
 *   OpenInference's GenAI mapping reads as the span's input and output);
 * - MCP: `mcp.method.name == "tools/call"` (`mcp.tool.name`,
 *   `mcp.request.argument.*`, `jsonrpc.request.id`);
 * - OpenInference: `openinference.span.kind == "TOOL"` (`tool.name`, else
 *   the span name,
 *   arguments `input.value`, else `tool.parameters` unless that is a JSON
 *   schema; result `output.value`; id `tool.id`, `tool_call.id`);
 * - Vercel AI SDK: a span named `ai.toolCall` (`ai.toolCall.name`,
 *   `ai.toolCall.args` / `ai.toolCall.input`, `ai.toolCall.result` /
 *   `ai.toolCall.output`, `ai.toolCall.id`);
 * - OpenLLMetry (Traceloop): `traceloop.span.kind == "tool"`
 *   (`traceloop.entity.name`, `traceloop.entity.input` whose `kwargs` are the
 *   arguments, `traceloop.entity.output` the JSON of the return value).
 *
 * Model spans also name calls the model **requested** (its output) and the
 * calls and tool results of the **history** it was given (its input):
 * - GenAI `gen_ai.output.messages` / `gen_ai.input.messages` (and the
 *   deprecated `gen_ai.prompt` / `gen_ai.completion` JSON): parts
 *   `{type: "tool_call", id, name, arguments}` and `{type:
 *   "tool_call_response", id, response}`;
 * - OpenLLMetry `gen_ai.completion.N.tool_calls.M.{id,name,arguments}` and
 *   `gen_ai.prompt.N.{role,content,tool_call_id,tool_calls.M.*}` (or
 *   `….tool_calls` as one JSON list, as some writers of these keys do);
 * - OpenInference `llm.output_messages.N.message.tool_calls.M.tool_call.{id,
 *   function.name, function.arguments}` and `llm.input_messages.N.message.*`
 *   (role `tool` with `tool_call_id` is a result);
 * - Vercel AI SDK `ai.response.toolCalls` (JSON) and `ai.prompt.messages`
 *   (`tool-call` / `tool-result` content parts);
 * - Braintrust `braintrust.output_json` / `braintrust.input_json` chat
 *   messages, and `tool` spans (`braintrust.span_attributes.type`); see
 *   `braintrust.ts`.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall } from "../../scoring/calls.ts";
import { InputError } from "../../base/errors.ts";
import { idOf, jsonFromText, resultFromText, setArgs } from "../_shared.ts";
import type { Span } from "./spans.ts";
import { braintrustMessages, braintrustSpan } from "./braintrust.ts";

/** A tool result seen in a model span's input. */
export interface SeenResult {
  /** The call id, when given. */
  id?: string;
  /** The tool name, when given. */
  tool?: string;
  /** The result as recorded (text or a value). */
  value: unknown;
}

/** What a model span says about calls. */
export interface MessageCalls {
  /** Calls the model asked for (its output). */
  requests: ToolCall[];
  /** Calls in the history it was given (its input). */
  history: ToolCall[];
  /** Tool results in that history. */
  results: SeenResult[];
}

const MAX_INDEX = 10_000;

// An object or array given as text, parsed (past the input limits it stays text).
function json(value: unknown): unknown {
  return typeof value === "string" ? resultFromText(value) : value;
}

/**
 * Flattened attributes under a prefix as nested values: numeric segments
 * become list indexes (`p.0.message.role` → `[{message: {role}}]`).
 */
export function unflatten(attributes: JsonObject, prefix: string): unknown {
  const root: JsonObject = {};
  let found = false;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const path = key.slice(prefix.length + 1).split(".");
    if (path.some((p) => /^\d+$/.test(p) && Number(p) > MAX_INDEX)) continue;
    let node: JsonObject = root;
    for (let i = 0; i < path.length - 1; i++) {
      const segment = path[i] as string;
      if (!isJsonObject(node[segment])) node[segment] = {};
      node = node[segment] as JsonObject;
    }
    node[path.at(-1) as string] = value;
    found = true;
  }
  return found ? toLists(root) : undefined;
}

function toLists(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.map(Number).sort((a, b) => a - b).map((k) => toLists(value[String(k)]));
  }
  const out: JsonObject = {};
  for (const key of keys) out[key] = toLists(value[key]);
  return out;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function isSchema(value: unknown): boolean {
  return isJsonObject(value) &&
    (value.type === "object" || isJsonObject(value.properties) || value.$schema !== undefined);
}

/**
 * Whether a span is a tool execution span of any convention. A span with
 * GenAI tool-call attributes but no `gen_ai.operation.name` (writers omit the
 * required name) is a GenAI tool span too.
 */
export function isToolSpan(span: Span): boolean {
  const a = span.attributes;
  const unnamedGenAiTool = a["gen_ai.operation.name"] === undefined &&
    typeof a["gen_ai.tool.name"] === "string" &&
    (a["gen_ai.tool.call.id"] !== undefined || a["gen_ai.tool.call.arguments"] !== undefined);
  return a["gen_ai.operation.name"] === "execute_tool" || unnamedGenAiTool ||
    a["mcp.method.name"] === "tools/call" ||
    a["openinference.span.kind"] === "TOOL" || span.name === "ai.toolCall" ||
    a["traceloop.span.kind"] === "tool" || braintrustSpan(a)?.type === "tool";
}

function toolName(span: Span, source: string): string {
  const a = span.attributes;
  const named = str(a["gen_ai.tool.name"]) ?? str(a["mcp.tool.name"]) ?? str(a["tool.name"]) ??
    str(a["ai.toolCall.name"]) ?? str(a["traceloop.entity.name"]) ?? braintrustSpan(a)?.name;
  if (named !== undefined) return named;
  if (braintrustSpan(a) !== undefined && span.name.trim() !== "") return span.name.trim();
  // An OpenInference TOOL span is named after its tool; a GenAI one `execute_tool {name}`.
  const target = span.name === "ai.toolCall"
    ? ""
    : a["openinference.span.kind"] === "TOOL" && !span.name.startsWith("execute_tool")
    ? span.name.trim()
    : span.name.split(" ").slice(1).join(" ").trim();
  if (target !== "") return target;
  throw new InputError(
    `tool span ${
      span.spanId ?? span.name
    } names no tool (no gen_ai.tool.name, tool.name or ai.toolCall.name)`,
    source,
  );
}

function executionArgs(span: Span): unknown {
  const a = span.attributes;
  if (a["gen_ai.tool.call.arguments"] !== undefined) return a["gen_ai.tool.call.arguments"];
  if (a["ai.toolCall.args"] !== undefined) return a["ai.toolCall.args"];
  if (a["ai.toolCall.input"] !== undefined) return a["ai.toolCall.input"];
  if (a["gen_ai.operation.name"] === "execute_tool" && isJsonObject(json(a.input))) {
    return json(a.input); // the generic `input` OpenInference's GenAI mapping reads
  }
  if (a["traceloop.entity.input"] !== undefined) {
    const input = json(a["traceloop.entity.input"]);
    return isJsonObject(input) && isJsonObject(input.kwargs) ? input.kwargs : input;
  }
  if (a["openinference.span.kind"] === "TOOL") {
    const input = json(a["input.value"]);
    if (isJsonObject(input)) return input;
    const parameters = json(a["tool.parameters"]);
    if (isJsonObject(parameters) && !isSchema(parameters)) return parameters;
    return typeof input === "string" ? { input } : undefined;
  }
  const braintrust = braintrustSpan(a);
  if (braintrust?.type === "tool") {
    return isJsonObject(braintrust.input) ? braintrust.input : undefined;
  }
  const prefix = "mcp.request.argument.";
  const found: JsonObject = {};
  for (const [key, value] of Object.entries(a)) {
    if (key.startsWith(prefix)) found[key.slice(prefix.length)] = value;
  }
  return found;
}

function executionResult(span: Span): unknown {
  const a = span.attributes;
  const entity = a["traceloop.entity.output"];
  if (typeof entity === "string" && a["gen_ai.tool.call.result"] === undefined) {
    // OpenLLMetry writes the return value as JSON (a string result is quoted).
    const parsed = jsonFromText(entity);
    return parsed === undefined ? entity : parsed; // past the input limits it stays text
  }
  const result = a["gen_ai.tool.call.result"] ?? a["ai.toolCall.result"] ??
    a["ai.toolCall.output"] ?? a["traceloop.entity.output"] ??
    (a["openinference.span.kind"] === "TOOL" ? a["output.value"] : undefined) ??
    (a["gen_ai.operation.name"] === "execute_tool" ? a.output : undefined) ??
    braintrustSpan(a)?.output;
  return typeof result === "string" ? resultFromText(result) : result;
}

/**
 * The call a tool execution span records.
 *
 * @param span The span (a tool span of some convention).
 * @param source The file name, for errors.
 * @returns The call, with its outcome and duration.
 * @throws {InputError} When the span names no tool.
 */
export function executionCall(span: Span, source: string): ToolCall {
  const call: ToolCall = { tool: toolName(span, source) };
  const args = executionArgs(span);
  if (args !== undefined) setArgs(call, args);
  else call.args = {};
  const a = span.attributes;
  const id = idOf(
    a["gen_ai.tool.call.id"] ?? a["ai.toolCall.id"] ?? a["tool.id"] ?? a["tool_call.id"] ??
      a["jsonrpc.request.id"] ?? a["mcp.request.id"],
  );
  if (id !== undefined) call.id = id;
  const result = executionResult(span);
  if (result !== undefined) call.result = result;
  if (span.error !== undefined) {
    call.isError = true;
    call.error = span.error;
  } else if (span.end !== undefined || span.ok) call.isError = false;
  if (span.start !== undefined && span.end !== undefined && span.end >= span.start) {
    call.durationS = Number(span.end - span.start) / 1e9;
  }
  const metadata: JsonObject = {};
  if (span.spanId !== undefined) metadata.span_id = span.spanId;
  if (span.traceId !== undefined) metadata.trace_id = span.traceId;
  if (Object.keys(metadata).length > 0) call.metadata = metadata;
  return call;
}

/** Thrown inside a span's messages; the reader adds the span. */
export class UnnamedCall extends Error {
  override name = "UnnamedCall";
}

function newCall(name: unknown, args: unknown, id: unknown): ToolCall {
  // Never a silent zero: a recorded tool call we cannot name is an error.
  if (typeof name !== "string" || name === "") throw new UnnamedCall("a tool call has no name");
  const call: ToolCall = { tool: name };
  setArgs(call, args);
  const callId = idOf(id);
  if (callId !== undefined) call.id = callId;
  return call;
}

/** GenAI messages (`[{role, parts: […]}]`): tool_call parts and tool_call_response parts. */
function genAiMessages(messages: unknown, calls: ToolCall[], results: SeenResult[]): void {
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (!isJsonObject(message) || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) {
      if (!isJsonObject(part)) continue;
      if (part.type === "tool_call") {
        calls.push(newCall(part.name, part.arguments, part.id));
      } else if (part.type === "tool_call_response") {
        const result: SeenResult = { value: part.response ?? part.result ?? null };
        const id = idOf(part.id);
        if (id !== undefined) result.id = id;
        results.push(result);
      }
    }
  }
}

/** OpenAI-style messages (`{role, content, tool_calls, tool_call_id}`), flattened or not. */
function chatMessages(messages: unknown, calls: ToolCall[], results: SeenResult[]): void {
  if (!Array.isArray(messages)) return;
  for (const entry of messages) {
    const message = isJsonObject(entry) && isJsonObject(entry.message) ? entry.message : entry;
    if (!isJsonObject(message)) continue;
    // Some OpenLLMetry-style writers keep `….tool_calls` as one JSON string.
    const toolCalls = json(message.tool_calls);
    if (Array.isArray(toolCalls)) {
      for (const raw of toolCalls) {
        const toolCall = isJsonObject(raw) && isJsonObject(raw.tool_call) ? raw.tool_call : raw;
        if (!isJsonObject(toolCall)) continue;
        const fn = isJsonObject(toolCall.function) ? toolCall.function : toolCall;
        calls.push(newCall(fn.name, fn.arguments, toolCall.id));
      }
    }
    if (message.role === "tool") {
      const result: SeenResult = { value: message.content ?? null };
      const id = idOf(message.tool_call_id);
      if (id !== undefined) result.id = id;
      if (typeof message.name === "string") result.tool = message.name;
      results.push(result);
    }
  }
}

/** AI SDK messages (`ai.prompt.messages`): tool-call and tool-result content parts. */
function aiSdkMessages(messages: unknown, calls: ToolCall[], results: SeenResult[]): void {
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (!isJsonObject(message) || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (!isJsonObject(part)) continue;
      if (part.type === "tool-call") {
        calls.push(newCall(part.toolName, part.input ?? part.args, part.toolCallId));
      } else if (part.type === "tool-result") {
        let value: unknown = part.output ?? part.result ?? null;
        if (isJsonObject(value) && typeof value.type === "string" && "value" in value) {
          value = value.value; // v5 output {type: "text"|"json", value}
        }
        const result: SeenResult = { value };
        const id = idOf(part.toolCallId);
        if (id !== undefined) result.id = id;
        if (typeof part.toolName === "string") result.tool = part.toolName;
        results.push(result);
      }
    }
  }
}

/**
 * The calls and results a model span's messages record, in every
 * convention.
 *
 * @param span The span.
 * @returns What the model asked for, and the calls and results it was shown.
 */
export function messageCalls(span: Span): MessageCalls {
  const a = span.attributes;
  const out: MessageCalls = { requests: [], history: [], results: [] };
  genAiMessages(json(a["gen_ai.output.messages"]), out.requests, out.results);
  genAiMessages(json(a["gen_ai.input.messages"]), out.history, out.results);
  const prompt = json(a["gen_ai.prompt"]);
  if (Array.isArray(prompt)) genAiMessages(prompt, out.history, out.results);
  else chatMessages(unflatten(a, "gen_ai.prompt"), out.history, out.results);
  chatMessages(unflatten(a, "gen_ai.completion"), out.requests, out.results);
  chatMessages(unflatten(a, "llm.output_messages"), out.requests, out.results);
  chatMessages(unflatten(a, "llm.input_messages"), out.history, out.results);
  const toolCalls = json(a["ai.response.toolCalls"]);
  if (Array.isArray(toolCalls)) {
    for (const entry of toolCalls) {
      if (!isJsonObject(entry)) continue;
      out.requests.push(newCall(entry.toolName, entry.input ?? entry.args, entry.toolCallId));
    }
  }
  const promptMessages = json(a["ai.prompt.messages"]);
  aiSdkMessages(promptMessages, out.history, out.results);
  const braintrust = braintrustSpan(a);
  if (braintrust !== undefined && braintrust.type !== "tool") {
    chatMessages(braintrustMessages(braintrust.output), out.requests, out.results);
    chatMessages(braintrustMessages(braintrust.input), out.history, out.results);
  }
  return out;
}

/** The text of a result seen in messages, for {@linkcode SeenResult}s recorded as text. */
export function seenValue(result: SeenResult): unknown {
  return typeof result.value === "string" ? resultFromText(result.value) : result.value;
}
