/**
 * Recovery: which failed calls were never retried successfully.
 *
 * @module
 */

import { callFailed, hasOutcome, type ToolCall } from "../scoring/calls.ts";

/**
 * The calls that failed and were not recovered: no later call to the same
 * tool succeeded (a later call without a captured outcome is not a success).
 *
 * @param calls The calls, in order.
 * @returns Their 0-based indexes, ascending.
 *
 * @example Usage
 * ```ts
 * import { unrecoveredCalls } from "./recovery.ts";
 * import assert from "node:assert/strict";
 *
 * const calls = [
 *   { tool: "deploy", error: "503" },
 *   { tool: "deploy", result: "ok" },
 *   { tool: "notify", isError: true },
 * ];
 * assert.deepEqual(unrecoveredCalls(calls), [2]);
 * ```
 */
export function unrecoveredCalls(calls: readonly ToolCall[]): number[] {
  return unrecoveredOf(calls, calls.map(callFailed));
}

export function unrecoveredOf(calls: readonly ToolCall[], failed: readonly boolean[]): number[] {
  if (!failed.includes(true)) return [];
  const succeededLater = new Set<string>();
  const out: number[] = [];
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i] as ToolCall;
    if (failed[i]) {
      if (!succeededLater.has(call.tool)) out.push(i);
    } else if (hasOutcome(call)) {
      succeededLater.add(call.tool);
    }
  }
  return out.reverse();
}
