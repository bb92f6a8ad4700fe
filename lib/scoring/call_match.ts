/**
 * Whether an actual call matches an expected entry that lists only some
 * arguments: a contract's optional call or a forbidden rule.
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";
import { valuesMatch } from "./matchers.ts";

/**
 * Whether an actual call matches an entry (an optional call or a forbidden
 * rule): the same tool, and every argument the entry lists is present and
 * matches (lenient comparison, matchers allowed). An entry without `args`
 * matches every call of its tool.
 *
 * @param entry The optional entry or rule.
 * @param call The actual call.
 * @returns `true` on a match.
 *
 * @example Usage
 * ```ts
 * import { callMatchesEntry } from "./call_match.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(callMatchesEntry({ tool: "w", args: { city: "NYC" } }, { tool: "w", args: { city: "NYC", d: 1 } }), true);
 * assert.equal(callMatchesEntry({ tool: "w" }, { tool: "x" }), false);
 * ```
 */
export function callMatchesEntry(
  entry: { tool: string; args?: Record<string, unknown> | null },
  call: ToolCall,
): boolean {
  if (entry.tool !== call.tool) return false;
  const want = entry.args;
  if (want === undefined || want === null) return true;
  const got = call.argsError === undefined ? call.args ?? {} : {};
  for (const key in want) {
    if (!Object.hasOwn(got, key) || !valuesMatch(want[key], got[key])) return false;
  }
  return true;
}
