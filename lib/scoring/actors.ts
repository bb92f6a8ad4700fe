/**
 * Who made a call: the agent, or the user (τ² dual control, where the user
 * simulator has tools of its own and its calls are `actor: "user"`).
 *
 * Decisions (issue 34): the user's calls are not the agent's. A score is
 * computed on the agent's calls alone, unless the expected calls name the
 * user's (an expected call with `actor: "user"`); then both are scored, and
 * a user call can only pair with an expected user call and an agent call
 * with an expected agent call: each side's calls are scored under the key
 * `user:TOOL` ({@linkcode USER_TOOL_PREFIX}), which no agent call has. The
 * per-tool metrics then name the user's tools `user:TOOL`.
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";

/** The prefix of a user call's tool in the score's view (`user:toggle_airplane_mode`). */
export const USER_TOOL_PREFIX = "user:";

/**
 * Whether the user made a call.
 *
 * @param call The call.
 * @returns `true` for `actor: "user"`.
 *
 * @example Usage
 * ```ts
 * import { isUserCall } from "./actors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isUserCall({ tool: "toggle_airplane_mode", actor: "user" }), true);
 * assert.equal(isUserCall({ tool: "get_customer" }), false);
 * ```
 */
export function isUserCall(call: { tool: string; actor?: string }): boolean {
  return call.actor === "user";
}

/**
 * How many calls each actor made.
 *
 * @param calls The calls.
 * @returns `{agent, user}`.
 *
 * @example Usage
 * ```ts
 * import { actorCounts } from "./actors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(actorCounts([{ tool: "a" }, { tool: "b", actor: "user" }]), { agent: 1, user: 1 });
 * ```
 */
export function actorCounts(calls: readonly ToolCall[]): { agent: number; user: number } {
  let user = 0;
  for (const call of calls) if (isUserCall(call)) user++;
  return { agent: calls.length - user, user };
}

function keyed<T extends { tool: string; actor?: string }>(call: T): T {
  return isUserCall(call) && !call.tool.startsWith(USER_TOOL_PREFIX)
    ? { ...call, tool: USER_TOOL_PREFIX + call.tool }
    : call;
}

/**
 * The expected calls as the score sees them: an expected user call under
 * `user:TOOL` (the same array when none is the user's).
 *
 * @param expected The expected calls (or optional entries).
 * @returns The expected calls, keyed.
 *
 * @example Usage
 * ```ts
 * import { scoringExpected } from "./actors.ts";
 * import assert from "node:assert/strict";
 *
 * const [call] = scoringExpected([{ tool: "reboot_device", actor: "user" as const }]);
 * assert.equal(call?.tool, "user:reboot_device");
 * ```
 */
export function scoringExpected<T extends { tool: string; actor?: string }>(
  expected: readonly T[],
): T[] {
  return expected.some(isUserCall) ? expected.map(keyed) : expected as T[];
}

/**
 * The actual calls the score is computed on: the agent's alone when the
 * expected calls name no user call, else every call with the user's under
 * `user:TOOL`. The same array when no call is the user's.
 *
 * @param calls The actual calls.
 * @param namesUser Whether the expected calls name a user call.
 * @returns The calls to score; `original` maps a keyed copy back to its call.
 *
 * @example Usage
 * ```ts
 * import { scoringCalls } from "./actors.ts";
 * import assert from "node:assert/strict";
 *
 * const calls = [{ tool: "get_customer" }, { tool: "reboot_device", actor: "user" as const }];
 * assert.deepEqual(scoringCalls(calls, false).calls.map((c) => c.tool), ["get_customer"]);
 * assert.deepEqual(scoringCalls(calls, true).calls.map((c) => c.tool), ["get_customer", "user:reboot_device"]);
 * ```
 */
export function scoringCalls(
  calls: readonly ToolCall[],
  namesUser: boolean,
): { calls: ToolCall[]; original: (call: ToolCall) => ToolCall } {
  if (!calls.some(isUserCall)) return { calls: calls as ToolCall[], original: (call) => call };
  if (!namesUser) return { calls: calls.filter((c) => !isUserCall(c)), original: (call) => call };
  const back = new Map<ToolCall, ToolCall>();
  const out = calls.map((call) => {
    const copy = keyed(call);
    if (copy !== call) back.set(copy, call);
    return copy;
  });
  return { calls: out, original: (call) => back.get(call) ?? call };
}
