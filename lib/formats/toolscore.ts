/**
 * The `toolscore` envelope: `{"format": "toolscore", "calls": […],
 * "final_answer"?, "final_answer_truncated"?, "model"?, "usage"?, "run"?,
 * "metadata"?, "skipped"?, "notes"?}`, what `agent run` writes and what
 * {@linkcode traceToJson} produces. Calls are in the file shape and checked
 * strictly by `callFromJson` (a bad field is an error naming its JSON path).
 * Issue 30: only this format accepts a call with `tool: ""`, and only with a
 * `malformed` reason and a non-empty `error` (a call the model sent that
 * could not be made); `final_answer_truncated: true` marks an answer cut
 * short by the model's output-token limit.
 *
 * @module
 */

import {
  callFromJson,
  callToJson,
  isJsonObject,
  type JsonObject,
  type SkippedItems,
  type Trace,
} from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { finishTrace, isEnvelope } from "./_shared.ts";
import type { FormatReader } from "./reader.ts";

/**
 * The `toolscore` envelope reader.
 *
 * @example Usage
 * ```ts
 * import { toolscoreReader } from "./toolscore.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = toolscoreReader.read({ format: "toolscore", calls: [{ tool: "a", is_error: true }] }, "trace.json");
 * assert.equal(trace.calls[0]?.isError, true);
 * ```
 */
export const toolscoreReader: FormatReader = {
  name: "toolscore",
  claims: (value) => isEnvelope(value, "toolscore"),
  read(value, source) {
    if (!isEnvelope(value, "toolscore") || !Array.isArray(value.calls)) {
      throw new InputError("a toolscore trace needs a calls list", `${source}: calls`);
    }
    const calls = value.calls.map((item, i) => {
      try {
        return callFromJson(item, { path: "calls", index: i, allowMalformed: true });
      } catch (error) {
        if (error instanceof InputError) throw new InputError(error.message, source);
        throw error;
      }
    });
    return envelopeExtras(finishTrace({ calls, format: "toolscore" }, value), value);
  },
};

/**
 * Write a trace in the file shape: the `toolscore` envelope with snake_case
 * keys, leaving unknown fields out (never `0` or `""` for unknown). The
 * format it was read from is kept as `source_format`.
 *
 * @param trace The trace.
 * @returns A JSON object that reads back as the same trace.
 *
 * @example Usage
 * ```ts
 * import { traceFromValue } from "./detect.ts";
 * import { traceToJson } from "./toolscore.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = traceFromValue([{ tool: "search", args: { q: "x" }, duration_s: 0.5 }]);
 * assert.deepEqual(traceToJson(trace), {
 *   format: "toolscore",
 *   source_format: "custom",
 *   calls: [{ tool: "search", args: { q: "x" }, duration_s: 0.5 }],
 * });
 * ```
 */
export function traceToJson(trace: Trace): JsonObject {
  const out: JsonObject = { format: "toolscore", source_format: trace.format };
  out.calls = trace.calls.map(callToJson);
  if (trace.finalAnswer !== undefined) out.final_answer = trace.finalAnswer;
  if (trace.finalAnswerTruncated === true) out.final_answer_truncated = true;
  if (trace.model !== undefined) out.model = trace.model;
  if (trace.usage !== undefined) {
    out.usage = { input_tokens: trace.usage.inputTokens, output_tokens: trace.usage.outputTokens };
  }
  // Issue 13: what the reader found beside the calls (run, metadata, skipped items, notes).
  if (trace.run !== undefined) out.run = { ...trace.run };
  if (trace.metadata !== undefined) out.metadata = { ...trace.metadata };
  if (trace.skipped !== undefined) out.skipped = trace.skipped.map((s) => ({ ...s }));
  if (trace.notes !== undefined) out.notes = [...trace.notes];
  return out;
}

/** The envelope fields of issue 13, read back: `run`, `metadata`, `skipped`, `notes`. */
function envelopeExtras(trace: Trace, value: JsonObject): Trace {
  const run = value.run;
  if (isJsonObject(run) && typeof run.task === "string") {
    trace.run = typeof run.trial === "number"
      ? { task: run.task, trial: run.trial }
      : { task: run.task };
  }
  if (isJsonObject(value.metadata)) trace.metadata = { ...value.metadata };
  // Issue 30: an answer cut short by the output-token limit (agent run's `stop: "max_tokens"`).
  if (value.final_answer_truncated === true && trace.finalAnswer !== undefined) {
    trace.finalAnswerTruncated = true;
  }
  if (Array.isArray(value.skipped)) {
    trace.skipped = value.skipped.filter((s): s is SkippedItems =>
      isJsonObject(s) && typeof s.type === "string" && typeof s.count === "number"
    );
  }
  if (Array.isArray(value.notes)) {
    trace.notes = value.notes.filter((n): n is string => typeof n === "string");
  }
  return trace;
}
