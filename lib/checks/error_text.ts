/**
 * Errors written as text: a tool result that is plain text reporting an
 * error (`Error: payment amount does not add up`, a Python `ValueError: …`
 * line) marks its call failed when the reader found no explicit status. The
 * patterns are the honesty configuration's `error_text_patterns` (compiled
 * like every configurable pattern); the shipped defaults are a leading
 * `Error:`/`Exception:`-style prefix and, from real files (issue 34), a
 * leading `Encountered error` (Gemini / Antigravity: `Encountered error in
 * step execution: …`), `Tool execution failed` (agent frameworks' tool
 * messages) and `denied by` in the first words (`tool call denied by
 * pre-tool hook: …`, `Denied by policy '…'`), and from real cassettes (issue 35)
 * the OpenAI Agents SDK's default tool error (`An error occurred while running
 * the tool. Please try again. Error: …`) and pydantic-ai's retry prompt, which
 * ends `Fix the errors and try again.`; `[]` turns the rule off.
 *
 * The text tested is a string result, or the one string of a result object
 * with a single key (`{"output": "…"}`, `{"result": "…"}`: how Gemini
 * `functionResponse`s and many tools wrap text).
 *
 * A call with an explicit status (`isError` set either way, or a non-empty
 * `error`) is never changed. A marked call gets `isError: true` and
 * `metadata.outcome_source: "error_text"`; its result is kept as it was.
 *
 * @module
 */

import type { ToolCall, Trace } from "../scoring/calls.ts";
import { DEFAULT_HONESTY, type HonestyConfig } from "./honesty_config.ts";
import { textTest } from "./honesty_text.ts";

/** Where a call's failure came from when a rule, not the reader, decided it. */
export const OUTCOME_SOURCE_ERROR_TEXT = "error_text";

/**
 * The calls with the error-text rule applied: a copy of each call it marks
 * failed, the same object for every other call (the same array when none
 * changes).
 *
 * @param calls The calls as read.
 * @param config The honesty configuration whose `errorTextPatterns` apply.
 * @returns The calls, marked.
 *
 * @example Usage
 * ```ts
 * import { applyErrorText } from "./error_text.ts";
 * import assert from "node:assert/strict";
 *
 * const [call] = applyErrorText([{ tool: "book", result: "Error: payment amount does not add up" }]);
 * assert.equal(call?.isError, true);
 * assert.equal(call?.metadata?.outcome_source, "error_text");
 * const explicit = { tool: "book", result: "Error: x", isError: false };
 * assert.equal(applyErrorText([explicit])[0], explicit);
 * ```
 */
export function applyErrorText(
  calls: readonly ToolCall[],
  config: HonestyConfig = DEFAULT_HONESTY,
): ToolCall[] {
  const patterns = config.errorTextPatterns ?? DEFAULT_HONESTY.errorTextPatterns ?? [];
  if (patterns.length === 0) return calls as ToolCall[];
  const test = textTest(patterns);
  let out: ToolCall[] | undefined; // copied at the first call that changes
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    if (call.isError !== undefined) continue;
    if (typeof call.error === "string" && call.error !== "") continue;
    const text = resultText(call.result);
    if (text === undefined || !test(text)) continue;
    out ??= calls.slice();
    out[i] = {
      ...call,
      isError: true,
      metadata: { ...call.metadata, outcome_source: OUTCOME_SOURCE_ERROR_TEXT },
    };
  }
  return out ?? calls as ToolCall[];
}

// A string result, or the one string value of a single-key object.
function resultText(result: unknown): string | undefined {
  if (typeof result === "string") return result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) return undefined;
  let text: string | undefined;
  for (const key in result) {
    if (text !== undefined || !Object.hasOwn(result, key)) return undefined;
    const value = (result as Record<string, unknown>)[key];
    if (typeof value !== "string") return undefined;
    text = value;
  }
  return text;
}

/**
 * A trace with the error-text rule applied to its calls (the trace itself
 * when no call changes).
 *
 * @param trace The trace as read.
 * @param config The honesty configuration whose `errorTextPatterns` apply.
 * @returns The trace, its calls marked.
 *
 * @example Usage
 * ```ts
 * import { traceWithErrorText } from "./error_text.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = { format: "custom" as const, calls: [{ tool: "pay", result: "Error: declined" }] };
 * assert.equal(traceWithErrorText(trace).calls[0]?.isError, true);
 * ```
 */
export function traceWithErrorText(trace: Trace, config?: HonestyConfig): Trace {
  const calls = applyErrorText(trace.calls, config);
  return calls === trace.calls ? trace : { ...trace, calls };
}
