/**
 * Braintrust's OpenTelemetry attributes, as its SDKs' exporters write them
 * (issue 36). Private to `lib/formats/`.
 *
 * A Braintrust span records what it is in `braintrust.span_attributes` (JSON
 * `{type, name}`: `llm`, `tool`, `task`, `function`, `score`, `eval`) and
 * its payload in `braintrust.input_json` / `braintrust.output_json` (JSON
 * text):
 * - a `tool` span is a tool execution: the tool is the span attributes'
 *   `name` (else the span name), the arguments the input (an object), the
 *   result the output; its outcome is the span's status;
 * - any other span's input and output are chat messages (OpenAI-style
 *   `{role, content, tool_calls}`, or choices `{message: …}`): the output's
 *   `tool_calls` are calls the model asked for, the input's are history,
 *   `role: "tool"` messages are results; an output message with text and no
 *   call is answer text.
 *
 * Decision where Braintrust is silent: its exporter sends one root span per
 * logged row (a traced function, an eval case, a score), each with its own
 * trace id, so a file of Braintrust spans is one trace per trace id even when
 * no span links to another (the `otel` reader's rule for unlinked spans of
 * other writers is to keep them one trace).
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../../scoring/calls.ts";
import { jsonFromText } from "../_shared.ts";

/** What a Braintrust span records. */
export interface BraintrustSpan {
  /** The span type (`llm`, `tool`, `score`…), when recorded. */
  type?: string;
  /** The name in the span attributes, when recorded. */
  name?: string;
  /** The parsed input, when recorded. */
  input?: unknown;
  /** The parsed output, when recorded. */
  output?: unknown;
}

function parse(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parsed = jsonFromText(value);
  return parsed === undefined ? value : parsed; // past the input limits it is not read
}

/**
 * The Braintrust view of a span's attributes, or `undefined` when it has no
 * Braintrust attributes.
 *
 * @param a The span's decoded attributes.
 * @returns What the span records.
 */
export function braintrustSpan(a: JsonObject): BraintrustSpan | undefined {
  // Asked several times per span (is it a tool span, its name, arguments…): parse once.
  if (SEEN.has(a)) return SEEN.get(a);
  const found = readSpan(a);
  SEEN.set(a, found);
  return found;
}

const SEEN = new WeakMap<JsonObject, BraintrustSpan | undefined>();

function readSpan(a: JsonObject): BraintrustSpan | undefined {
  const attributes = parse(a["braintrust.span_attributes"]);
  const input = a["braintrust.input_json"] ?? a["braintrust.input"];
  const output = a["braintrust.output_json"] ?? a["braintrust.output"];
  if (!isJsonObject(attributes) && input === undefined && output === undefined) return undefined;
  const found: BraintrustSpan = {};
  if (isJsonObject(attributes)) {
    if (typeof attributes.type === "string") found.type = attributes.type;
    if (typeof attributes.name === "string" && attributes.name !== "") {
      found.name = attributes.name;
    }
  }
  if (input !== undefined) found.input = parse(input);
  if (output !== undefined) found.output = parse(output);
  return found;
}

/**
 * Whether any span of a list carries Braintrust attributes (its trace ids
 * are then trusted without links; see the module doc).
 *
 * @param attributes The decoded attributes of each span.
 * @returns `true` when one has `braintrust.span_attributes`.
 */
export function hasBraintrustSpans(attributes: readonly JsonObject[]): boolean {
  return attributes.some((a) => a["braintrust.span_attributes"] !== undefined);
}

/** The messages of a Braintrust payload: a list, or one message on its own. */
export function braintrustMessages(payload: unknown): unknown[] | undefined {
  if (Array.isArray(payload)) return payload;
  if (isJsonObject(payload) && (payload.role !== undefined || isJsonObject(payload.message))) {
    return [payload];
  }
  if (isJsonObject(payload) && Array.isArray(payload.messages)) return payload.messages;
  return undefined;
}

/**
 * The answer text of a Braintrust model span's output: the text of its
 * assistant messages, or `undefined` when one asks for a tool or none has
 * text.
 *
 * @param span The Braintrust view of the span.
 * @returns The text, or `undefined`.
 */
export function braintrustOutputText(span: BraintrustSpan): string | undefined {
  if (span.type === "tool" || span.type === "score") return undefined;
  const messages = braintrustMessages(span.output);
  if (messages === undefined) return undefined;
  const texts: string[] = [];
  for (const entry of messages) {
    const message = isJsonObject(entry) && isJsonObject(entry.message) ? entry.message : entry;
    if (!isJsonObject(message) || message.role !== "assistant") continue;
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return undefined;
    if (typeof message.content === "string") texts.push(message.content);
  }
  const text = texts.join("");
  return text.trim() === "" ? undefined : text;
}
