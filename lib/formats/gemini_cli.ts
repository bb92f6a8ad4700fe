/**
 * The `gemini-cli` format: gemini-cli's recorded fake-response files
 * (`.responses`, its `--fake-responses` replay input; issue 35): JSONL of
 * `{method, response}`, where `method` is the Gemini API method the CLI
 * called and `response` a `GenerateContentResponse` (`{candidates}`) or,
 * for `generateContentStream`, the list of its streamed chunks. One file is
 * one trace.
 *
 * Decisions where gemini-cli is silent:
 * - The agent's turns are the `generateContentStream` responses: their
 *   `functionCall` parts are the calls, in order. The other methods
 *   (`generateContent` for the model router, next-speaker checks and
 *   compression; `countTokens`) are the CLI's own requests, counted as
 *   skipped items of type `METHOD`.
 * - The file records only the model's side: function responses are in the
 *   requests, which are not saved, so every call's outcome is unknown.
 * - The final answer is the non-thought text of the turn after the last
 *   call (a turn's chunks are deltas, joined as they came); usage is the
 *   last `usageMetadata` of each turn, summed over the turns.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import {
  addUsage,
  FinalAnswer,
  idOf,
  makeTrace,
  setArgs,
  SkippedTypes,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

/**
 * Whether a value is one line of a `.responses` file: `{method, response}`.
 *
 * @param value A parsed JSONL line.
 * @returns Whether it is one.
 *
 * @example Usage
 * ```ts
 * import { isFakeResponseLine } from "./gemini_cli.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isFakeResponseLine({ method: "generateContent", response: { candidates: [] } }), true);
 * assert.equal(isFakeResponseLine({ method: "tools/call", params: {} }), false);
 * ```
 */
export function isFakeResponseLine(value: unknown): value is JsonObject {
  if (!isJsonObject(value) || typeof value.method !== "string") return false;
  const response = value.response;
  return isJsonObject(response) || (Array.isArray(response) && response.every(isJsonObject));
}

function findLines(value: unknown): JsonObject[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every(isFakeResponseLine)) return undefined;
  return list as JsonObject[];
}

function partsOf(chunk: JsonObject): unknown[] {
  const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
  const content = isJsonObject(candidate) ? candidate.content : undefined;
  return isJsonObject(content) && Array.isArray(content.parts) ? content.parts : [];
}

/**
 * The `gemini-cli` reader (a list of `{method, response}` lines, or one).
 *
 * @example Usage
 * ```ts
 * import { geminiCliReader } from "./gemini_cli.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = [
 *   { method: "generateContentStream", response: [{ candidates: [{ content: { parts: [{ functionCall: { name: "read_file", args: { file_path: "a.txt" } } }] } }] }] },
 *   { method: "generateContentStream", response: [{ candidates: [{ content: { parts: [{ text: "Done." }] } }] }] },
 * ];
 * const trace = geminiCliReader.read(lines, "run.responses");
 * assert.deepEqual(trace.calls[0]?.args, { file_path: "a.txt" });
 * assert.equal(trace.finalAnswer, "Done.");
 * ```
 */
export const geminiCliReader: FormatReader = documentReader(
  "gemini-cli",
  findLines,
  "not a gemini-cli fake-response file: expected JSONL of {method, response}",
  (lines) => {
    const calls: ToolCall[] = [];
    const answer = new FinalAnswer("");
    const skipped = new SkippedTypes();
    let usage: Usage | undefined;
    for (const line of lines) {
      if (line.method !== "generateContentStream") {
        skipped.add(line.method as string);
        continue;
      }
      answer.message();
      const chunks = Array.isArray(line.response) ? line.response : [line.response];
      let turnUsage: Usage | undefined;
      for (const chunk of chunks as JsonObject[]) {
        const found = usageFromJson(chunk.usageMetadata);
        if (found !== undefined) turnUsage = found;
        for (const part of partsOf(chunk)) {
          if (!isJsonObject(part)) continue;
          const fn = part.functionCall;
          if (isJsonObject(fn) && typeof fn.name === "string" && fn.name !== "") {
            const call: ToolCall = { tool: fn.name };
            const id = idOf(fn.id);
            if (id !== undefined) call.id = id;
            setArgs(call, fn.args ?? undefined);
            calls.push(call);
            answer.call();
          } else if (part.thought !== true) answer.text(part.text);
        }
      }
      usage = addUsage(usage, turnUsage);
    }
    return makeTrace("gemini-cli", calls, { finalAnswer: answer.value, usage, skipped });
  },
);
