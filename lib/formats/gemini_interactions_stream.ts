/**
 * Gemini Interactions API event streams (`stream: true`): SSE events
 * `{event_type, …}` merged into the interaction the API would have returned
 * without streaming, which the `gemini` reader then reads.
 *
 * - `interaction.created` / `interaction.completed` carry the interaction
 *   (id, model, status, usage; later fields win); `interaction.status_update`
 *   (and `interaction.in_progress` / `.requires_action`) carry its `status`.
 * - `step.start {index, step}` opens step `index`; `step.delta {index,
 *   delta}` fills it: `text` deltas are concatenated into the step's text
 *   content, `arguments_delta` fragments (partial JSON text) are concatenated
 *   into the step's `arguments` (text that does not parse stays the raw
 *   arguments with the parse error), and a delta typed like the step
 *   (`google_search_call` `{arguments}`, `google_search_result` `{result,
 *   is_error}`) sets those fields. Thought signatures and summaries, citation
 *   annotations and media deltas are not part of a trace and are skipped.
 * - A `step.delta` for a step that never started is an error naming the
 *   event: the stream is cut, and reading it on would lose the call.
 * - Steps are ordered by `index`; an `error` event's `error` is kept on the
 *   interaction.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

const INTERACTION_EVENTS = new Set([
  "interaction.created",
  "interaction.completed",
  "interaction.status_update",
  "interaction.in_progress",
  "interaction.requires_action",
  "step.start",
  "step.delta",
  "step.stop",
  "error",
]);

function isEvent(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.event_type === "string" &&
    INTERACTION_EVENTS.has(value.event_type);
}

/**
 * Whether a list of values is a Gemini Interactions event stream: every value
 * an event of a known `event_type`, and at least one that opens a step or
 * carries the interaction.
 *
 * @param values The parsed events, in order.
 * @returns `true` for an Interactions event stream.
 *
 * @example Usage
 * ```ts
 * import { isInteractionStream } from "./gemini_interactions_stream.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isInteractionStream([{ event_type: "step.start", index: 0, step: { type: "thought" } }]), true);
 * assert.equal(isInteractionStream([{ event_type: "step.stop", index: 0 }]), false);
 * ```
 */
export function isInteractionStream(values: readonly unknown[]): boolean {
  return values.length > 0 && values.every(isEvent) &&
    values.some((v) => {
      const type = (v as JsonObject).event_type;
      return type === "step.start" || type === "interaction.created" ||
        type === "interaction.completed";
    });
}

interface OpenStep {
  step: JsonObject;
  arguments: string;
}

function applyDelta(open: OpenStep, delta: JsonObject): void {
  const step = open.step;
  if (delta.type === "text" && typeof delta.text === "string") {
    const content = Array.isArray(step.content) ? step.content : [];
    const last = content[content.length - 1];
    if (isJsonObject(last) && last.type === "text" && typeof last.text === "string") {
      last.text += delta.text;
    } else content.push({ type: "text", text: delta.text });
    step.content = content;
  } else if (delta.type === "arguments_delta" && typeof delta.arguments === "string") {
    open.arguments += delta.arguments;
  } else if (delta.type === step.type) {
    for (const [key, value] of Object.entries(delta)) if (key !== "type") step[key] = value;
  }
}

/**
 * Merge an Interactions event stream into one interaction.
 *
 * @param events The events, in order.
 * @param source The file name, for errors.
 * @returns The interaction, with its `steps` put together.
 * @throws {InputError} On a `step.delta` for a step that never started.
 *
 * @example Usage
 * ```ts
 * import { mergeInteractionEvents } from "./gemini_interactions_stream.ts";
 * import assert from "node:assert/strict";
 *
 * const merged = mergeInteractionEvents([
 *   { event_type: "interaction.created", interaction: { id: "v1", status: "in_progress" } },
 *   { event_type: "step.start", index: 0, step: { id: "c1", type: "function_call", name: "f", arguments: {} } },
 *   { event_type: "step.delta", index: 0, delta: { type: "arguments_delta", arguments: '{"a":' } },
 *   { event_type: "step.delta", index: 0, delta: { type: "arguments_delta", arguments: "1}" } },
 *   { event_type: "interaction.completed", interaction: { id: "v1", status: "requires_action" } },
 * ], "s.jsonl");
 * assert.deepEqual(merged.steps, [{ id: "c1", type: "function_call", name: "f", arguments: '{"a":1}' }]);
 * assert.equal(merged.status, "requires_action");
 * ```
 */
export function mergeInteractionEvents(events: readonly JsonObject[], source: string): JsonObject {
  let interaction: JsonObject = {};
  const steps = new Map<number, OpenStep>();
  events.forEach((event, i) => {
    const index = event.index;
    switch (event.event_type) {
      case "interaction.created":
      case "interaction.completed":
        if (isJsonObject(event.interaction)) interaction = { ...interaction, ...event.interaction };
        break;
      case "interaction.status_update":
      case "interaction.in_progress":
      case "interaction.requires_action":
        if (typeof event.status === "string") interaction.status = event.status;
        break;
      case "error":
        if (event.error !== undefined) interaction.error = event.error;
        break;
      case "step.start":
        if (typeof index === "number" && isJsonObject(event.step)) {
          const step: JsonObject = { ...event.step };
          if (Array.isArray(step.content)) {
            step.content = step.content.map((item) => isJsonObject(item) ? { ...item } : item);
          }
          steps.set(index, { step, arguments: "" });
        }
        break;
      case "step.delta": {
        const open = typeof index === "number" ? steps.get(index) : undefined;
        if (open === undefined) {
          throw new InputError(
            `step.delta for step ${JSON.stringify(index)} before its step.start; the stream is cut`,
            `${source}: [${i}]`,
          );
        }
        if (isJsonObject(event.delta)) applyDelta(open, event.delta);
        break;
      }
    }
  });
  const merged = [...steps.entries()].sort((a, b) => a[0] - b[0]).map(([, open]) => {
    if (open.arguments !== "") open.step.arguments = open.arguments;
    return open.step;
  });
  const { steps: given, ...rest } = interaction;
  return {
    ...rest,
    object: "interaction",
    steps: merged.length === 0 && Array.isArray(given) ? given : merged,
  };
}
