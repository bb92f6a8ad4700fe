/**
 * The `inspect` format: Inspect AI eval logs (issue 35). A `.json` log is
 * `{version, status, eval, plan, results, stats, samples: [sample…]}`; the
 * zipped `.eval` log holds one `samples/ID_epoch_N.json` per sample (read by
 * `inspect_zip.ts`). A sample is `{id, epoch, input, target, messages,
 * output, scores, events, model_usage, attachments}`: one trace per sample
 * and epoch, named `FILE[id#epoch]`.
 *
 * Decisions where Inspect is silent:
 * - Calls are the assistant messages' `tool_calls` (`{id, function,
 *   arguments}`, arguments an object); a `parse_error` keeps the arguments
 *   as text that did not parse. A sample without messages reads its
 *   `events` of type `tool` (`{id, function, arguments, result, error}`).
 * - A tool message pairs by `tool_call_id`; its `error` (`{type, message}`)
 *   failed with the message, no error succeeded. Content written as
 *   `attachment://HASH` is the sample's attachment of that hash.
 * - The final answer is the assistant's text after the last call, else
 *   `output.completion`. Usage is `model_usage` summed over the models; the
 *   model is the first one named.
 * - A log with no samples (written with `--no-log-samples`) is an input
 *   error, not a trace of 0 calls.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachTextResult,
  FinalAnswer,
  idOf,
  makeTrace,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

function isSample(value: unknown): value is JsonObject {
  return isJsonObject(value) && idOf(value.id) !== undefined &&
    typeof value.epoch === "number" && "input" in value &&
    (Array.isArray(value.messages) || Array.isArray(value.events));
}

/**
 * The samples of an Inspect `.json` log (`{eval, samples}`), or `undefined`
 * when the document is not one.
 *
 * @param value A parsed document.
 * @param source The file name, for errors.
 * @returns The samples.
 * @throws {InputError} When the log holds no samples.
 *
 * @example Usage
 * ```ts
 * import { inspectLogSamples } from "./inspect.ts";
 * import assert from "node:assert/strict";
 *
 * const log = { eval: { task: "t" }, samples: [{ id: 1, epoch: 1, input: "hi", messages: [] }] };
 * assert.equal(inspectLogSamples(log, "log.json")?.length, 1);
 * assert.equal(inspectLogSamples({ samples: [] }, "x.json"), undefined);
 * assert.throws(() => inspectLogSamples({ eval: { task: "t" }, status: "success" }, "log.json"), /no samples/);
 * ```
 */
export function inspectLogSamples(value: unknown, source: string): JsonObject[] | undefined {
  if (!isJsonObject(value) || !isJsonObject(value.eval)) return undefined;
  if (value.samples === undefined || value.samples === null) {
    if (typeof value.status !== "string") return undefined;
    throw new InputError(
      "the Inspect log holds no samples (written with --no-log-samples?); log the samples to score them",
      source,
    );
  }
  if (!Array.isArray(value.samples) || !value.samples.every(isSample)) return undefined;
  if (value.samples.length === 0) {
    throw new InputError("the Inspect log holds no samples", source);
  }
  return value.samples as JsonObject[];
}

function contentText(content: unknown, attachments: JsonObject): string {
  const resolve = (text: string): string => {
    if (!text.startsWith("attachment://")) return text;
    const found = attachments[text.slice("attachment://".length)];
    return typeof found === "string" ? found : text;
  };
  if (typeof content === "string") return resolve(content);
  if (!Array.isArray(content)) return "";
  return content.map((part) =>
    isJsonObject(part) && typeof part.text === "string" ? resolve(part.text) : ""
  ).filter((text) => text !== "").join("\n");
}

function errorText(error: unknown): string | undefined {
  if (typeof error === "string") return error.trim() === "" ? undefined : error;
  if (!isJsonObject(error)) return undefined;
  if (typeof error.message === "string" && error.message !== "") return error.message;
  return typeof error.type === "string" ? error.type : "tool error";
}

function readCall(item: JsonObject): ToolCall | undefined {
  if (typeof item.function !== "string" || item.function === "") return undefined;
  const call: ToolCall = { tool: item.function };
  const id = idOf(item.id);
  if (id !== undefined) call.id = id;
  if (typeof item.parse_error === "string" && item.parse_error !== "") {
    call.args = {};
    call.rawArgs = JSON.stringify(item.arguments ?? null);
    call.argsError = item.parse_error;
  } else setArgs(call, item.arguments ?? undefined);
  return call;
}

function fail(call: ToolCall, error: unknown): void {
  const text = errorText(error);
  if (text !== undefined) {
    call.isError = true;
    call.error = text;
  } else call.isError = false;
}

/**
 * The `inspect` reader: one sample of an Inspect eval log.
 *
 * @example Usage
 * ```ts
 * import { inspectReader } from "./inspect.ts";
 * import assert from "node:assert/strict";
 *
 * const sample = {
 *   id: "q1", epoch: 2, input: "weather?",
 *   messages: [
 *     { role: "assistant", content: "", tool_calls: [{ id: "c1", function: "weather", arguments: { city: "Oslo" } }] },
 *     { role: "tool", content: "", tool_call_id: "c1", function: "weather", error: { type: "unknown", message: "timed out" } },
 *     { role: "assistant", content: "I could not tell." },
 *   ],
 * };
 * const trace = inspectReader.read(sample, "log.eval");
 * assert.deepEqual(trace.run, { task: "q1", trial: 2 });
 * assert.equal(trace.calls[0]?.error, "timed out");
 * assert.equal(trace.finalAnswer, "I could not tell.");
 * ```
 */
export const inspectReader: FormatReader = documentReader(
  "inspect",
  (value) => isSample(value) ? value : undefined,
  "not an Inspect sample: expected {id, epoch, input, messages} (or a log {eval, samples})",
  (sample) => {
    const attachments = isJsonObject(sample.attachments) ? sample.attachments : {};
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    const answer = new FinalAnswer();
    const messages = Array.isArray(sample.messages) ? sample.messages : [];
    for (const message of messages) {
      if (!isJsonObject(message)) continue;
      if (message.role === "assistant") {
        answer.message();
        answer.text(contentText(message.content, attachments));
        for (const item of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
          const call = isJsonObject(item) ? readCall(item) : undefined;
          if (call === undefined) continue;
          calls.push(call);
          if (call.id !== undefined) byId.set(call.id, call);
          answer.call();
        }
      } else if (message.role === "tool") {
        const call = byId.get(idOf(message.tool_call_id) ?? "");
        if (call === undefined || call.result !== undefined) continue;
        attachTextResult(call, contentText(message.content, attachments));
        fail(call, message.error);
      }
    }
    if (messages.length === 0 && Array.isArray(sample.events)) {
      for (const event of sample.events) {
        if (!isJsonObject(event) || event.event !== "tool") continue;
        const call = readCall(event);
        if (call === undefined) continue;
        if (event.result !== undefined && event.result !== null) {
          attachTextResult(call, contentText(event.result, attachments));
          fail(call, event.error);
        }
        calls.push(call);
      }
    }
    const output = isJsonObject(sample.output) ? sample.output : undefined;
    const completion = typeof output?.completion === "string" && output.completion.trim() !== ""
      ? output.completion
      : undefined;
    let usage: Usage | undefined;
    let model: string | undefined;
    if (isJsonObject(sample.model_usage)) {
      for (const [name, counts] of Object.entries(sample.model_usage)) {
        model ??= name;
        usage = addUsage(usage, usageFromJson(counts));
      }
    }
    const finalAnswer = answer.value ??
      (calls.length === 0 || messages.length === 0 ? completion : undefined);
    const trace = makeTrace("inspect", calls, { finalAnswer, model, usage });
    trace.run = { task: idOf(sample.id) as string, trial: sample.epoch as number };
    return trace;
  },
);
