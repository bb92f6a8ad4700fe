/**
 * Flags shared by the commands that score: `--weight NAME=VALUE` and
 * `--fail-under A-F|0.x`.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { FlagSpec } from "./command.ts";
import { type Grade, GRADE_BARS, normalizeWeights } from "../scoring/score.ts";

/**
 * Parse `--weight NAME=VALUE` values.
 *
 * @param values The flag values.
 * @returns The weights, validated.
 * @throws {UsageError} On a malformed value; {@linkcode InputError} on an unknown name.
 *
 * @example Usage
 * ```ts
 * import { parseWeightFlags } from "./gate_flags.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseWeightFlags(["argument_f1=0.5"]), { argument_f1: 0.5 });
 * ```
 */
export function parseWeightFlags(values: string[]): Record<string, number> | undefined {
  if (values.length === 0) return undefined;
  const weights: Record<string, number> = {};
  for (const value of values) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(value);
    const number = match ? Number(match[2]) : NaN;
    if (!match || !Number.isFinite(number)) {
      throw new UsageError(`--weight ${value}: expected NAME=NUMBER, e.g. argument_f1=0.5`);
    }
    weights[match[1]!] = number;
  }
  normalizeWeights(weights, "--weight");
  return weights;
}

/**
 * Parse `--fail-under`: a grade letter (its band's lower edge) or a number in [0, 1].
 *
 * @param value The flag value.
 * @returns The bar.
 * @throws {UsageError} On anything else.
 *
 * @example Usage
 * ```ts
 * import { parseFailUnder } from "./gate_flags.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseFailUnder("B"), 0.8);
 * assert.equal(parseFailUnder("0.75"), 0.75);
 * ```
 */
export function parseFailUnder(value: string): number {
  const upper = value.trim().toUpperCase();
  if (Object.hasOwn(GRADE_BARS, upper)) return GRADE_BARS[upper as Grade];
  const number = Number(value);
  if (value.trim() !== "" && Number.isFinite(number) && number >= 0 && number <= 1) return number;
  throw new UsageError(`--fail-under ${value}: expected a grade A-F or a number between 0 and 1`);
}

/**
 * The flags every command that scores takes (`eval`, `regrade`): format,
 * strictness, weights, rules, honesty inputs, the final answer, the bar and
 * `--json`.
 *
 * @example Usage
 * ```ts
 * import { parseFlags } from "./command.ts";
 * import { SCORING_FLAGS } from "./gate_flags.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("eval", ["--weight", "argument_f1=1", "--strict"], SCORING_FLAGS);
 * assert.equal(flags.values.strict, true);
 * ```
 */
export const SCORING_FLAGS: FlagSpec = {
  format: { type: "string" },
  strict: { type: "boolean" },
  weight: { type: "string", multiple: true },
  forbidden: { type: "string" },
  honesty: { type: "string" },
  injected: { type: "string" },
  "final-answer": { type: "string" },
  "final-answer-file": { type: "string" },
  "min-score": { type: "string" },
  json: { type: "boolean" },
};
