/**
 * The three evidence states and one check's verdict, shared by the evidence
 * summary and the checks that produce states (honesty).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/**
 * The three states, in report order.
 *
 * @example Usage
 * ```ts
 * import { STATES } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...STATES], ["pass", "fail", "unknown"]);
 * ```
 */
export const STATES: readonly ["pass", "fail", "unknown"] = Object.freeze(
  ["pass", "fail", "unknown"] as const,
);

/** A check's state: `pass`, `fail` or `unknown`. */
export type EvidenceState = (typeof STATES)[number];

/** A check's verdict in the JSON shape. */
export interface CheckJson {
  /** The check ID (`required-calls`…). */
  check: string;
  /** `pass`, `fail` or `unknown`. */
  status: EvidenceState;
  /** Why, in a few words. */
  detail: string;
}

/**
 * One check's verdict.
 *
 * @example Usage
 * ```ts
 * import { EvidenceCheck } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const check = new EvidenceCheck("call-errors", "pass", "none of the 3 calls failed");
 * assert.deepEqual(check.toJSON(), { check: "call-errors", status: "pass", detail: "none of the 3 calls failed" });
 * ```
 */
export class EvidenceCheck {
  /**
   * Make a verdict.
   *
   * @param check The check ID (`required-calls`…).
   * @param status `pass`, `fail` or `unknown`.
   * @param detail Why, in a few words a person can act on.
   * @throws {InputError} When the status is not one of {@linkcode STATES}.
   */
  constructor(readonly check: string, readonly status: EvidenceState, readonly detail: string) {
    if (!STATES.includes(status)) {
      throw new InputError(
        `status must be pass, fail or unknown, got ${JSON.stringify(status)}`,
        check,
      );
    }
  }

  /**
   * The JSON form.
   *
   * @returns `{check, status, detail}`.
   */
  toJSON(): CheckJson {
    return { check: this.check, status: this.status, detail: this.detail };
  }
}

/**
 * The API reference's name for {@linkcode EvidenceCheck}, kept as a permanent
 * alias: `new Check(…)` and `instanceof Check` work as with the class.
 *
 * @example Usage
 * ```ts
 * import { Check, EvidenceCheck } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.ok(new Check("credentials", "pass", "no credentials in arguments") instanceof EvidenceCheck);
 * ```
 */
export const Check: typeof EvidenceCheck = EvidenceCheck;

/** The API reference's name for the {@linkcode EvidenceCheck} type. */
export type Check = EvidenceCheck;

/** How many checks are in each state (always all three keys). */
export interface EvidenceCounts {
  /** Checks that passed. */
  pass: number;
  /** Checks that failed. */
  fail: number;
  /** Checks that lacked the data to decide. */
  unknown: number;
}

/**
 * Count statuses.
 *
 * @param statuses Statuses, each one of {@linkcode STATES}.
 * @returns `{pass, fail, unknown}`, always all three keys.
 * @throws {InputError} On a status that is not one of the three.
 *
 * @example Usage
 * ```ts
 * import { tally } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(tally(["pass", "unknown", "pass"]), { pass: 2, fail: 0, unknown: 1 });
 * assert.deepEqual(tally([]), { pass: 0, fail: 0, unknown: 0 });
 * ```
 */
export function tally(statuses: Iterable<string>): EvidenceCounts {
  const counts: EvidenceCounts = { pass: 0, fail: 0, unknown: 0 };
  let i = 0;
  for (const status of statuses) {
    if (!STATES.includes(status as EvidenceState)) {
      throw new InputError(
        `status must be pass, fail or unknown, got ${JSON.stringify(status)}`,
        `[${i}]`,
      );
    }
    counts[status as EvidenceState]++;
    i++;
  }
  return counts;
}

/**
 * The one-line summary: `"5 pass, 1 fail, 2 unknown"`.
 *
 * @param counts The counts; a missing key counts as 0.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { summaryLine } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(summaryLine({ pass: 5, fail: 1, unknown: 2 }), "5 pass, 1 fail, 2 unknown");
 * ```
 */
export function summaryLine(counts: Partial<EvidenceCounts>): string {
  return STATES.map((state) => `${counts[state] ?? 0} ${state}`).join(", ");
}

/**
 * A boolean-or-unknown as a state: `true` → pass, `false` → fail,
 * `null`/`undefined` → unknown.
 *
 * @param value The verdict, or `null` when the data is missing.
 * @returns The state.
 *
 * @example Usage
 * ```ts
 * import { triState } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(triState(true), "pass");
 * assert.equal(triState(false), "fail");
 * assert.equal(triState(null), "unknown");
 * ```
 */
export function triState(value: boolean | null | undefined): EvidenceState {
  return value === true ? "pass" : value === false ? "fail" : "unknown";
}
