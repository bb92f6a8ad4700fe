/**
 * Two contract keys that benchmark importers need: `matching`, how the
 * required calls are paired with the actual ones, and `source`, where an
 * imported contract came from.
 *
 * - `matching: "optimal"` (the default): one-to-one pairing that maximizes
 *   the score (the Hungarian pairing of `lib/scoring/pairing.ts`). Importers
 *   add the modes their benchmark's checker uses; each mode is listed in
 *   {@linkcode MATCHING_MODES} and documented here.
 * - `matching: "non-consuming"` (issue 44, τ²-bench's action check): each
 *   required call is matched by the first actual call that satisfies it, and
 *   one actual call may satisfy several required calls; the tool name must
 *   be equal, the actor is not compared, and the expected call's
 *   `metadata.compare_args` names the compared arguments
 *   (`lib/scoring/non_consuming.ts` has the rules). The matches are reported
 *   in `metrics.matching` and decide `pass: "tau2-actions"`; the composite
 *   score keeps the one-to-one pairing, so it stays comparable with every
 *   other contract's.
 * - `matching: "bfcl-greedy"` (BFCL, issue 43): BFCL's checker decides the
 *   verdict under `pass: "exact"` or `pass: "any-call"` — the count first,
 *   then the required calls in file order, each taking the first call not
 *   yet taken that passes it, no backtracking — with BFCL's per-call rules
 *   and its `error_type` (`lib/evaluate/bfcl_greedy.ts`). The score is still
 *   toolscore's optimal pairing; `eval --explain-divergence` says where that
 *   pairing would pass a trace the greedy one fails. The BFCL importer writes
 *   it on every AST contract: with one required call greedy and optimal
 *   pair the same way, and BFCL's call rules apply.
 * - `source`: a free object of metadata (`{benchmark, id, category, …}`),
 *   kept and written back as it was read, never scored. Its values must be
 *   JSON; its size is bounded by the file's.
 *
 * @module
 */

import { describeJson, isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { clipEcho } from "../base/clip_input.ts";

/**
 * Every `matching` mode a contract may name, the default first.
 *
 * @example Usage
 * ```ts
 * import { MATCHING_MODES } from "./matching.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MATCHING_MODES[0], "optimal");
 * ```
 */
export const MATCHING_MODES: readonly ["optimal", "non-consuming", "bfcl-greedy"] = [
  "optimal",
  "non-consuming",
  "bfcl-greedy",
];

/**
 * How a contract pairs its required calls with the actual calls: `optimal`
 * (one-to-one, maximizing the score), `non-consuming` (τ²'s) or
 * `bfcl-greedy` (BFCL's).
 */
export type MatchingMode = "optimal" | "non-consuming" | "bfcl-greedy";

/**
 * Read a contract's `matching` value.
 *
 * @param value The raw value (`undefined` for the default).
 * @param path Where it sits, for errors.
 * @returns The mode.
 * @throws {InputError} For a value that names no mode.
 *
 * @example Usage
 * ```ts
 * import { matchingFromJson } from "./matching.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(matchingFromJson(undefined), "optimal");
 * assert.equal(matchingFromJson("non-consuming"), "non-consuming");
 * assert.throws(() => matchingFromJson("greedy"), /matching: must be one of "optimal"/);
 * ```
 */
export function matchingFromJson(value: unknown, path = "matching"): MatchingMode {
  if (value === undefined) return MATCHING_MODES[0];
  const mode = MATCHING_MODES.find((name) => name === value);
  if (mode === undefined) {
    throw new InputError(
      `must be one of ${MATCHING_MODES.map((name) => JSON.stringify(name)).join(", ")}, got ${
        typeof value === "string" ? clipEcho(JSON.stringify(value)) : describeJson(value)
      }`,
      path,
    );
  }
  return mode;
}

/**
 * Read a contract's `source` value: an object, kept as it is.
 *
 * @param value The raw value (`undefined` when absent).
 * @param path Where it sits, for errors.
 * @returns The object, or `undefined`.
 * @throws {InputError} For anything but an object.
 *
 * @example Usage
 * ```ts
 * import { sourceFromJson } from "./matching.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(sourceFromJson({ benchmark: "bfcl", id: "simple_python_0" }), {
 *   benchmark: "bfcl",
 *   id: "simple_python_0",
 * });
 * assert.throws(() => sourceFromJson("bfcl"), /source: must be an object/);
 * ```
 */
export function sourceFromJson(value: unknown, path = "source"): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) {
    throw new InputError(`must be an object of metadata, got ${describeJson(value)}`, path);
  }
  return value;
}
