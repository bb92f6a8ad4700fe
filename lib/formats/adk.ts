/**
 * The `adk` format: Google Agent Development Kit sessions (issue 36).
 *
 * Shapes: a session `{id, events: [event…]}` (as `adk web` exports it, the
 * session service's JSON, `adk run --save_session`), or a bare list of
 * events (what the API server's `/run` returns). An event is `{author,
 * content: {role, parts}, invocationId | invocation_id, actions, id,
 * timestamp, usageMetadata?, partial?, errorCode?, errorMessage?}`; its
 * content is a Gemini `Content`, so calls are `functionCall` /
 * `function_call` parts and results `functionResponse` /
 * `function_response` parts, read by the `gemini` reader's rules (a result
 * pairs by id, else with the earliest unanswered call of its name; an
 * `error` in the response fails the call).
 *
 * Decisions where ADK is silent:
 * - A document is claimed when every event has an `author` (text) and the
 *   events carry ADK's own keys: some event has an invocation id or
 *   `actions`. A session without events is a trace of 0 calls.
 * - An event without a content role is the model's unless its author is
 *   `user`. `partial: true` events (streamed pieces; a session keeps the
 *   whole event after them) are not read, so text is not counted twice.
 * - Every agent's text counts toward the final answer (sub-agents write to
 *   the same session): the final answer is the model text after the last
 *   call. A transfer to another agent (`transfer_to_agent`) is a call like
 *   any other.
 * - An event with an `errorCode` or `errorMessage` (a model or tool error
 *   ADK recorded) is listed in the notes; it is no call.
 * - Usage is summed over the events' `usageMetadata`; the model is unknown
 *   (events do not name it).
 *
 * @module
 */

import { isJsonObject, type JsonObject, type Trace, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { addUsage, finishTrace, usageFromJson } from "./_shared.ts";
import { geminiReader } from "./gemini.ts";
import { documentReader, type FormatReader } from "./reader.ts";

function isEvent(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.author === "string" &&
    (value.content === undefined || value.content === null || isJsonObject(value.content));
}

function hasAdkKeys(event: JsonObject): boolean {
  return typeof (event.invocationId ?? event.invocation_id) === "string" ||
    isJsonObject(event.actions);
}

function findEvents(value: unknown): JsonObject[] | undefined {
  if (isJsonObject(value) && Array.isArray(value.events) && typeof value.id === "string") {
    const events = value.events;
    if (!events.every(isEvent)) return undefined;
    return events.length === 0 || events.some(hasAdkKeys) ? events : undefined;
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isEvent)) {
    return value.some(hasAdkKeys) ? value as JsonObject[] : undefined;
  }
  return undefined;
}

/**
 * The `adk` reader.
 *
 * @example Usage
 * ```ts
 * import { adkReader } from "./adk.ts";
 * import assert from "node:assert/strict";
 *
 * const session = {
 *   id: "s1",
 *   events: [
 *     { author: "user", invocationId: "e-1", content: { role: "user", parts: [{ text: "roll" }] } },
 *     { author: "agent", invocationId: "e-1", content: { role: "model", parts: [{ functionCall: { id: "c1", name: "roll_die", args: { sides: 6 } } }] } },
 *     { author: "agent", invocationId: "e-1", content: { role: "user", parts: [{ functionResponse: { id: "c1", name: "roll_die", response: { result: 4 } } }] } },
 *     { author: "agent", invocationId: "e-1", content: { role: "model", parts: [{ text: "You rolled 4." }] } },
 *   ],
 * };
 * const trace = adkReader.read(session, "session.json");
 * assert.equal(trace.format, "adk");
 * assert.deepEqual(trace.calls[0]?.result, { result: 4 });
 * assert.equal(trace.finalAnswer, "You rolled 4.");
 * ```
 */
export const adkReader: FormatReader = documentReader(
  "adk",
  findEvents,
  "not a Google ADK session: expected {id, events: [{author, content: {parts}}]} or a list of events",
  (events, source, value) => {
    const contents: JsonObject[] = [];
    const notes: string[] = [];
    let usage: Usage | undefined;
    events.forEach((event, i) => {
      if (event.partial === true) return;
      const code = event.errorCode ?? event.error_code;
      const message = event.errorMessage ?? event.error_message;
      if (code !== undefined || message !== undefined) {
        notes.push(
          `events[${i}] (${event.author}) recorded an error: ${
            [code, message].filter((x) => x !== undefined && x !== null).join(": ")
          }`,
        );
      }
      usage = addUsage(usage, usageFromJson(event.usageMetadata ?? event.usage_metadata));
      const content = event.content;
      if (!isJsonObject(content) || !Array.isArray(content.parts)) return;
      const role = typeof content.role === "string"
        ? content.role
        : event.author === "user"
        ? "user"
        : "model";
      content.parts.forEach((part, j) => {
        // Named here, where the event is known (the gemini reader would name its own index).
        const call = isJsonObject(part) ? part.functionCall ?? part.function_call : undefined;
        if (isJsonObject(call) && (typeof call.name !== "string" || call.name === "")) {
          throw new InputError(
            "functionCall has no name",
            `${source}: events[${i}].content.parts[${j}]`,
          );
        }
      });
      contents.push({ role, parts: content.parts });
    });
    const read: Trace = contents.length === 0
      ? { calls: [], format: "adk" }
      : { ...geminiReader.read(contents, source), format: "adk" };
    const trace: Trace = { calls: read.calls, format: "adk" };
    if (read.finalAnswer !== undefined) trace.finalAnswer = read.finalAnswer;
    if (usage !== undefined) trace.usage = usage;
    if (read.skipped !== undefined) trace.skipped = read.skipped;
    if (notes.length > 0) trace.notes = notes;
    return finishTrace(trace, Array.isArray(value) ? undefined : value);
  },
);
