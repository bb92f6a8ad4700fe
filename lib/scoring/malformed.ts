/**
 * Calls a model sent that could not be made (issue 30): a call with no name,
 * arguments that are not a JSON object, or a call of a type the provider
 * does not define. `agent run` records such a call as failed, with its
 * reason in `malformed` and the message the model got in `error`, and goes
 * on with the run. A malformed call never matches an expected call, counts
 * as an extra call and fails `call-errors`. Only the `toolscore` format lets
 * such a call have `tool: ""`; every other reader rejects an empty name.
 *
 * @module
 */

/** Why a model's call could not be made. */
export type MalformedKind = "no-name" | "bad-arguments" | "unknown-type";

/**
 * The values of {@linkcode MalformedKind}.
 *
 * @example Usage
 * ```ts
 * import { MALFORMED_KINDS } from "./malformed.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...MALFORMED_KINDS], ["no-name", "bad-arguments", "unknown-type"]);
 * ```
 */
export const MALFORMED_KINDS: readonly MalformedKind[] = Object.freeze([
  "no-name",
  "bad-arguments",
  "unknown-type",
] as MalformedKind[]);

/**
 * Whether a value is a {@linkcode MalformedKind}.
 *
 * @param value Any value.
 * @returns `true` for one of the three reasons.
 *
 * @example Usage
 * ```ts
 * import { isMalformedKind } from "./malformed.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isMalformedKind("no-name"), true);
 * assert.equal(isMalformedKind("nameless"), false);
 * ```
 */
export function isMalformedKind(value: unknown): value is MalformedKind {
  return MALFORMED_KINDS.includes(value as MalformedKind);
}

/**
 * What is wrong with a call's `tool` in the file shape, if anything: it must
 * be a non-empty string, except that with `allowMalformed` it may be `""`
 * on a call that says why it could not be made (`malformed`) and what failed
 * (a non-empty `error`).
 *
 * @param value The call in the file shape.
 * @param options Whether empty names are allowed at all.
 * @returns The error message, or `undefined` when the name is fine.
 *
 * @example Usage
 * ```ts
 * import { namelessError } from "./malformed.ts";
 * import assert from "node:assert/strict";
 *
 * const call = { tool: "", malformed: "no-name", error: "the call has no name" };
 * assert.equal(namelessError(call, { allowMalformed: true }), undefined);
 * assert.equal(namelessError(call, {}), "tool must be a non-empty string");
 * assert.equal(namelessError({ tool: "search" }, {}), undefined);
 * ```
 */
export function namelessError(
  value: Record<string, unknown>,
  options: { allowMalformed?: boolean },
): string | undefined {
  const tool = value.tool;
  if (typeof tool === "string" && tool !== "") return undefined;
  if (tool !== "" || options.allowMalformed !== true) return "tool must be a non-empty string";
  if (isMalformedKind(value.malformed) && typeof value.error === "string" && value.error !== "") {
    return undefined;
  }
  return `tool must be a non-empty string (an empty tool needs malformed: ${
    MALFORMED_KINDS.join(" | ")
  } and a non-empty error)`;
}
