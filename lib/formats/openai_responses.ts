/**
 * The `openai-responses` format: Responses API objects and item lists.
 *
 * Shapes: a response `{"object": "response", "output": […]}`, a list of
 * responses (turns chained by `previous_response_id`), a request body
 * `{"input": […], "output"?: […]}`, or an input-item list. Calls are
 * `{"type": "function_call", "call_id", "name", "arguments"}` items; results
 * are `{"type": "function_call_output", "call_id", "output"}` items.
 *
 * Decisions where the design is silent:
 * - Results are paired by `call_id`, never by position; `call.id` is the
 *   `call_id` and the item's own `id` (`fc_…`) is kept as `metadata.item_id`.
 * - `custom_tool_call` items are calls whose free-form `input` text becomes
 *   `args.input`. `mcp_call` items are calls carrying their `output` and
 *   `error` inline; status `failed` marks one failed, `completed` without an
 *   error succeeded. Hosted tool calls (`web_search_call`, `file_search_call`,
 *   `code_interpreter_call`, `computer_call`, `local_shell_call`,
 *   `shell_call`, `apply_patch_call`, `image_generation_call`, and xAI's
 *   `x_search_call`) are calls named by the type without `_call`
 *   (`web_search`), with `action` (or `queries`, `code`, `operation`) as
 *   arguments; xAI writes these items with `name` and `arguments` text
 *   instead, and then `arguments` is read. The server runs `web_search_call`,
 *   `file_search_call`, `code_interpreter_call`, `image_generation_call` and
 *   `x_search_call`,
 *   so their status is the outcome: `completed` a success, `failed` a failure
 *   (other statuses: unknown). The client runs `computer_call`,
 *   `local_shell_call`, `shell_call` and `apply_patch_call`: their status only
 *   says the model finished writing the call (a real recorded `ls` reads
 *   `completed` before anything ran), so the outcome is unknown until their
 *   `*_output` item: `apply_patch_call_output` status `completed`/`failed`;
 *   `shell_call_output` entries `{stdout, stderr, outcome}`, failed on a
 *   `timeout` or a non-zero `exit_code`, the result their stdout/stderr text.
 * - An `mcp_approval_request` is a call the model asked for that waits for a
 *   human: kept as a call of its `name` with `metadata.approval:
 *   "requested"` and no outcome. A later `mcp_call` whose
 *   `approval_request_id` names it is the same call (merged, not counted
 *   twice); an `mcp_approval_response` with `approve: false` marks it failed
 *   (`not approved`), with `approve: true` it stays unknown until its
 *   `mcp_call` arrives.
 * - `tool_search_call` is a call named `tool_search` with its `arguments`;
 *   the `tool_search_output` of the same `call_id` is its result (the tools
 *   found), `status: "completed"` a success. A server-run search may carry
 *   no `call_id`: its output then goes to the latest id-less search.
 * - Programmatic tool calling: a `program` item is a code-execution call
 *   named `program` with `args.code` (read like `code_interpreter_call`), its
 *   `program_output` (same `call_id`) the result, `completed` a success and
 *   `incomplete` a failure. The function calls the program makes are
 *   ordinary calls that follow it, each marked `metadata.caller_id` (the
 *   program's `call_id`), as the `anthropic` reader keeps code execution and
 *   the calls it makes.
 * - The API has no error flag on `function_call_output`: output that is a JSON
 *   object or array is kept parsed, and an object with a non-empty top-level
 *   `error` marks the call failed (as in the `openai` reader). Output given as
 *   content parts is rendered to text first. Non-standard `duration_s`,
 *   `duration_ms` and `cost_usd` keys on an output item are attached.
 * - `usage` is summed over the responses that report it; `model` is the first
 *   named. The final answer is the text of the last assistant `message` item
 *   after the last call; a top-level `final_answer` wins.
 * - A plain list of `{role, content}` messages is left to the `openai` reader;
 *   this reader claims a list only when some item has a Responses item `type`.
 *
 * @module
 */

import {
  isJsonObject,
  type JsonObject,
  type ToolCall,
  type Trace,
  type Usage,
} from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachExtras,
  attachTextResult,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  setArgs,
  SkippedTypes,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

// Hosted tool calls: the item type and where their arguments are.
// (Which of them the server runs, so that their status is the outcome: SERVER_RUN.)
const HOSTED_CALLS: Record<string, string[]> = {
  web_search_call: ["action"],
  file_search_call: ["queries"],
  code_interpreter_call: ["code", "container_id"],
  computer_call: ["action"],
  local_shell_call: ["action"],
  shell_call: ["action"],
  apply_patch_call: ["operation"],
  image_generation_call: [],
  x_search_call: [],
};

const SERVER_RUN = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "x_search_call",
]);

const OUTPUT_TYPES = new Set([
  "function_call_output",
  "tool_search_output",
  "program_output",
  "custom_tool_call_output",
  "computer_call_output",
  "local_shell_call_output",
  "shell_call_output",
  "apply_patch_call_output",
]);

const OTHER_TYPES = new Set([
  "message",
  "function_call",
  "custom_tool_call",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "tool_search_call",
  "program",
  "reasoning",
  "item_reference",
  "compaction",
]);

function isItemType(type: unknown): boolean {
  return typeof type === "string" &&
    (OTHER_TYPES.has(type) || OUTPUT_TYPES.has(type) || Object.hasOwn(HOSTED_CALLS, type));
}

// Content part types of Responses messages; a message with other parts is another provider's.
const PART_TYPES = new Set([
  "input_text",
  "output_text",
  "refusal",
  "input_image",
  "input_file",
  "input_audio",
  "summary_text",
]);

function isMessageContent(content: unknown): boolean {
  if (typeof content === "string") return true;
  return Array.isArray(content) &&
    content.every((part) =>
      isJsonObject(part) && typeof part.type === "string" && PART_TYPES.has(part.type)
    );
}

function isItem(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.type === undefined || value.type === "message") {
    return typeof value.role === "string" && isMessageContent(value.content);
  }
  return isItemType(value.type);
}

function isResponse(value: unknown): value is JsonObject {
  return isJsonObject(value) && value.object === "response";
}

function isItemList(list: unknown): list is unknown[] {
  return Array.isArray(list) && list.every(isItem);
}

// Issue 13: a response's output item of a type this reader does not know is skipped and listed.
function isOutputList(list: unknown): list is unknown[] {
  return Array.isArray(list) &&
    list.every((item) => isItem(item) || (isJsonObject(item) && typeof item.type === "string"));
}

/** The items of a document, in order, and the responses they came from. */
function documentItems(value: unknown): { items: unknown[]; responses: JsonObject[] } | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isResponse)) {
      return {
        items: value.flatMap((r) => isOutputList(r.output) ? r.output : []),
        responses: value,
      };
    }
    const typed = value.some((item) => isJsonObject(item) && isItemType(item.type));
    return typed && isItemList(value) ? { items: value, responses: [] } : undefined;
  }
  if (!isJsonObject(value)) return undefined;
  const items: unknown[] = [];
  if (isItemList(value.input)) { for (const item of value.input) items.push(item); }
  else if (value.input !== undefined && typeof value.input !== "string") return undefined;
  if (isItemList(value.output) || (isResponse(value) && isOutputList(value.output))) {
    for (const item of value.output as unknown[]) items.push(item);
  } else if (value.output !== undefined) return undefined;
  if (isResponse(value)) return { items, responses: [value] };
  const typed = items.some((item) => isJsonObject(item) && isItemType(item.type));
  return typed ? { items, responses: [] } : undefined;
}

function partsText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (typeof part.text === "string") texts.push(part.text);
    else if (typeof part.refusal === "string") texts.push(part.refusal);
    else if (part.type === "input_image") texts.push("[image]");
    else if (part.type === "input_file") {
      texts.push(`[file${typeof part.filename === "string" ? ` ${part.filename}` : ""}]`);
    }
  }
  return texts.join("\n");
}

function hostedStatus(call: ToolCall, status: unknown): void {
  if (status === "failed") {
    call.isError = true;
    call.error = "failed";
  } else if (status === "completed") call.isError = false;
}

function itemCall(item: JsonObject, where: string): ToolCall | undefined {
  const type = item.type as string;
  let call: ToolCall;
  const named = () => {
    if (typeof item.name === "string" && item.name !== "") return item.name;
    // Never a silent zero: a call item we cannot name is an error.
    throw new InputError(`${type} item has no name`, where);
  };
  if (type === "function_call" || type === "mcp_call" || type === "mcp_approval_request") {
    call = { tool: named() };
    setArgs(call, item.arguments);
  } else if (type === "custom_tool_call") {
    named();
    call = {
      tool: item.name as string,
      args: typeof item.input === "string" ? { input: item.input } : {},
    };
  } else if (type === "tool_search_call") {
    call = { tool: "tool_search" };
    setArgs(call, item.arguments);
  } else if (type === "program") {
    call = { tool: "program", args: typeof item.code === "string" ? { code: item.code } : {} };
  } else if (Object.hasOwn(HOSTED_CALLS, type)) {
    call = { tool: type.slice(0, -"_call".length) };
    const keys = HOSTED_CALLS[type] ?? [];
    if (keys.every((k) => item[k] === undefined) && item.arguments !== undefined) {
      // xAI's hosted calls carry OpenAI's item types with `name` and `arguments` text instead.
      setArgs(call, item.arguments);
    } else {
      call.args = keys.length === 1 && isJsonObject(item[keys[0] as string])
        ? item[keys[0] as string] as JsonObject
        : Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
    }
    const result = item.results ?? item.outputs ?? item.result;
    if (result !== undefined && result !== null) call.result = result;
    if (SERVER_RUN.has(type)) hostedStatus(call, item.status);
  } else return undefined;
  const id = idOf(item.call_id) ?? idOf(item.id);
  if (id !== undefined) call.id = id;
  const itemId = idOf(item.id);
  if (itemId !== undefined && itemId !== id) call.metadata = { item_id: itemId };
  if (typeof item.server_label === "string") {
    call.metadata = { ...call.metadata, server_label: item.server_label };
  }
  if (isJsonObject(item.caller) && item.caller.type === "program") {
    const caller = idOf(item.caller.caller_id);
    if (caller !== undefined) call.metadata = { ...call.metadata, caller_id: caller };
  }
  if (type === "mcp_approval_request") call.metadata = { ...call.metadata, approval: "requested" };
  if (type === "mcp_call") attachMcpOutcome(call, item);
  return call;
}

function attachMcpOutcome(call: ToolCall, item: JsonObject): void {
  if (typeof item.output === "string") attachTextResult(call, item.output);
  if (typeof item.error === "string" && item.error !== "") {
    call.error = item.error;
    call.isError = true;
  } else if (isJsonObject(item.error)) {
    call.error = typeof item.error.message === "string"
      ? item.error.message
      : JSON.stringify(item.error);
    call.isError = true;
  } else if (item.status === "failed") {
    call.isError = true;
    call.error = "failed";
  } else if (item.status === "completed" && call.error === undefined) call.isError = false;
}

/** Attach an output item (`function_call_output`, `tool_search_output`, …) to its call. */
function attachOutput(call: ToolCall, item: JsonObject): void {
  if (item.type === "tool_search_output") {
    call.result = item.tools ?? null;
    if (item.status === "completed") call.isError = false;
    return;
  }
  if (item.type === "program_output") {
    attachTextResult(call, typeof item.result === "string" ? item.result : "");
    if (item.status === "incomplete") {
      call.isError = true;
      call.error = "incomplete";
    } else if (item.status === "completed" && call.error === undefined) call.isError = false;
    return;
  }
  if (item.type === "shell_call_output" && Array.isArray(item.output)) {
    attachShellOutput(call, item.output);
    return;
  }
  const output = item.output;
  if (item.type === "apply_patch_call_output") {
    if (typeof output === "string") attachTextResult(call, output);
    if (item.status === "failed") {
      call.isError = true;
      call.error = typeof output === "string" && output !== "" ? output : "failed";
    } else if (item.status === "completed" && call.error === undefined) call.isError = false;
    return;
  }
  if (typeof output === "string" || Array.isArray(output)) {
    attachTextResult(call, partsText(output) ?? "");
  } else if (output !== undefined && output !== null) call.result = output;
  attachExtras(call, item);
}

/** A `shell_call_output`'s entries: their text is the result; a timeout or non-zero exit fails it. */
function attachShellOutput(call: ToolCall, entries: readonly unknown[]): void {
  if (entries.length === 0) return; // nothing ran, or nothing was recorded: unknown
  const texts: string[] = [];
  let failure: string | undefined;
  let known = true; // every entry has an exit code or a timeout
  for (const entry of entries) {
    if (!isJsonObject(entry)) {
      known = false;
      continue;
    }
    for (const key of ["stdout", "stderr"]) {
      const text = entry[key];
      if (typeof text === "string" && text !== "") texts.push(text);
    }
    const outcome = isJsonObject(entry.outcome) ? entry.outcome : undefined;
    if (outcome?.type === "timeout") failure ??= "timeout";
    else if (outcome?.type === "exit" && typeof outcome.exit_code === "number") {
      if (outcome.exit_code !== 0) failure ??= `exit code ${outcome.exit_code}`;
    } else known = false;
  }
  call.result = texts.join("\n");
  if (failure !== undefined) {
    call.isError = true;
    call.error = failure;
  } else if (known) call.isError = false;
}

/**
 * Read Responses items (and the responses they came from) as a trace of
 * `format`. Shared with the `openai-agents` reader, whose run states hold
 * the same items.
 *
 * @param items The items, in order.
 * @param responses The response objects, for `usage` and `model`.
 * @param format The format name of the trace.
 * @param envelope The document, for a top-level `final_answer`.
 * @param source The file name, for errors.
 * @returns The trace.
 * @throws {InputError} On a call item without a name.
 *
 * @example Usage
 * ```ts
 * import { readResponseItems } from "./openai_responses.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readResponseItems([
 *   { type: "mcp_approval_request", id: "mcpr_1", name: "a", arguments: "{}", server_label: "s" },
 * ], [], "openai-responses", undefined);
 * assert.equal(trace.calls[0]?.metadata?.approval, "requested");
 * ```
 */
export function readResponseItems(
  items: readonly unknown[],
  responses: readonly JsonObject[],
  format: Trace["format"],
  envelope: unknown,
  source = "<trace>",
): Trace {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  const answer = new FinalAnswer();
  const skipped = new SkippedTypes();
  for (const [index, item] of items.entries()) {
    if (!isJsonObject(item)) continue;
    // Issue 13: an item of a type this reader does not know is skipped and listed.
    if (item.type !== undefined && !isItemType(item.type)) {
      skipped.add(String(item.type));
      continue;
    }
    if (item.type === "message" || item.type === undefined) {
      if (item.role !== "assistant") continue;
      answer.message();
      answer.text(partsText(item.content));
      continue;
    }
    if (OUTPUT_TYPES.has(item.type as string)) {
      const call = idOf(item.call_id) === undefined && item.type === "tool_search_output"
        ? calls.findLast((c) => c.tool === "tool_search" && c.id === undefined)
        : byId.get(idOf(item.call_id) ?? "");
      if (call === undefined || call.result !== undefined) continue;
      attachOutput(call, item);
      continue;
    }
    if (item.type === "mcp_approval_response") {
      const call = byId.get(idOf(item.approval_request_id) ?? "");
      if (call === undefined || call.metadata?.approval !== "requested") continue;
      call.metadata = {
        ...call.metadata,
        approval: item.approve === false ? "denied" : "approved",
      };
      if (item.approve === false) {
        call.isError = true;
        call.error = typeof item.reason === "string" && item.reason !== ""
          ? `not approved: ${item.reason}`
          : "not approved";
      }
      continue;
    }
    const requested = item.type === "mcp_call"
      ? byId.get(idOf(item.approval_request_id) ?? "")
      : undefined;
    if (requested !== undefined && requested.metadata?.approval !== undefined) {
      // The approved call running: the same call as its approval request.
      attachMcpOutcome(requested, item);
      const itemId = idOf(item.id);
      if (itemId !== undefined) byId.set(itemId, requested);
      continue;
    }
    const call = itemCall(item, `${source}: items[${index}]`);
    if (call === undefined) continue;
    calls.push(call);
    answer.call();
    if (call.id !== undefined) byId.set(call.id, call);
  }
  let usage: Usage | undefined;
  let model: string | undefined;
  for (const response of responses) {
    usage = addUsage(usage, usageFromJson(response.usage));
    if (model === undefined && typeof response.model === "string") model = response.model;
  }
  const trace = makeTrace(format, calls, { finalAnswer: answer.value, model, usage, skipped });
  return finishTrace(trace, Array.isArray(envelope) ? undefined : envelope);
}

/**
 * The `openai-responses` reader.
 *
 * @example Usage
 * ```ts
 * import { openaiResponsesReader } from "./openai_responses.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = openaiResponsesReader.read([
 *   { type: "function_call", call_id: "c1", name: "a", arguments: "{}" },
 *   { type: "function_call_output", call_id: "c1", output: "done" },
 * ], "trace.json");
 * assert.equal(trace.calls[0]?.result, "done");
 * ```
 */
export const openaiResponsesReader: FormatReader = documentReader(
  "openai-responses",
  documentItems,
  "not an OpenAI Responses document: expected a response, {input}, or a list of items",
  (found, source, value) =>
    readResponseItems(found.items, found.responses, "openai-responses", value, source),
);
