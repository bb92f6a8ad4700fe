/**
 * Optional calls: which of the actual calls a contract's optional entries
 * leave out of the score.
 *
 * @module
 */

import type { ToolCall } from "../scoring/calls.ts";
import { callMatchesEntry } from "../scoring/call_match.ts";

/**
 * Leave out optional calls that are not needed to fill a required call.
 *
 * Walks the calls in order. A call matching an optional entry is dropped when
 * the required calls of its tool are already filled by the calls of that tool
 * kept so far (or the tool is not required at all); otherwise it is kept and
 * fills one. Every other call is kept.
 *
 * @param actual The actual calls.
 * @param required The required calls of one expansion.
 * @param optional The contract's optional entries.
 * @returns The scored calls and the indexes (in `actual`) of the optional calls left out.
 *
 * @example Usage
 * ```ts
 * import { splitOptional } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const [scored, leftOut] = splitOptional(
 *   [{ tool: "get_weather" }, { tool: "search" }, { tool: "search" }],
 *   [{ tool: "search" }],
 *   [{ tool: "get_weather" }, { tool: "search" }],
 * );
 * assert.deepEqual(scored.map((c) => c.tool), ["search"]);
 * assert.deepEqual(leftOut, [0, 2]);
 * ```
 */
export function splitOptional(
  actual: readonly ToolCall[],
  required: readonly ToolCall[],
  optional: readonly ToolCall[],
): [ToolCall[], number[]] {
  if (optional.length === 0) return [[...actual], []];
  const needed = new Map<string, number>();
  for (const call of required) needed.set(call.tool, (needed.get(call.tool) ?? 0) + 1);
  const kept = new Map<string, number>();
  const scored: ToolCall[] = [];
  const leftOut: number[] = [];
  actual.forEach((call, index) => {
    const have = kept.get(call.tool) ?? 0;
    if (
      have >= (needed.get(call.tool) ?? 0) && call.malformed === undefined &&
      optional.some((entry) => callMatchesEntry(entry, call))
    ) {
      leftOut.push(index);
      return;
    }
    scored.push(call);
    kept.set(call.tool, have + 1);
  });
  return [scored, leftOut];
}
