/**
 * One preflight check and its status.
 *
 * @module
 */

/** A check's outcome; `skip` when it could not or need not run. */
export type DoctorStatus = "pass" | "warn" | "fail" | "skip";

/** Every status, least severe first (`skip` < `pass` < `warn` < `fail`). */
export const DOCTOR_STATUSES: readonly DoctorStatus[] = ["skip", "pass", "warn", "fail"];

/** Options for {@linkcode DoctorCheck}. */
export interface DoctorCheckOptions {
  /**
   * What to do about a check that did not pass, in one sentence.
   * @default {null}
   */
  fix?: string | null;
}

/**
 * One preflight check: its name, status, a detail sentence and, when it did
 * not pass, how to fix it. Details never contain a secret's value.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const check = new DoctorCheck("keys", "fail", "OPENAI_API_KEY is not set", {
 *   fix: "export OPENAI_API_KEY=…",
 * });
 * assert.deepEqual(check.toJSON(), {
 *   name: "keys",
 *   status: "fail",
 *   detail: "OPENAI_API_KEY is not set",
 *   fix: "export OPENAI_API_KEY=…",
 * });
 * ```
 */
export class DoctorCheck {
  /** How to fix it; `null` when there is nothing to do. */
  readonly fix: string | null;

  /**
   * Create a check result.
   *
   * @param name The check: `spec`, `contract`, `keys`, `packages`, `prices`, `budget`,
   *   `config` (a client config's entry), `server-start`, `handshake`, `stdout`, `tools-list`, `tool-schemas`, `tool-lint`,
   *   `resources`, `prompts`, `shutdown`, `server-build`, `catalog-drift`, `contract-tools`.
   * @param status Its outcome.
   * @param detail One sentence saying what was found.
   * @param options The fix.
   */
  constructor(
    readonly name: string,
    readonly status: DoctorStatus,
    readonly detail: string,
    options: DoctorCheckOptions = {},
  ) {
    this.fix = options.fix ?? null;
  }

  /**
   * The check in the file shape.
   *
   * @returns `{name, status, detail, fix}`.
   */
  toJSON(): { name: string; status: DoctorStatus; detail: string; fix: string | null } {
    return { name: this.name, status: this.status, detail: this.detail, fix: this.fix };
  }
}

/**
 * The most severe status of some checks (`fail` > `warn` > `pass` > `skip`);
 * `skip` when there are none.
 *
 * @param checks The checks.
 * @returns The worst status.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck } from "@toolscore/cli";
 * import { worstStatus } from "./check.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(worstStatus([new DoctorCheck("a", "pass", ""), new DoctorCheck("b", "warn", "")]), "warn");
 * ```
 */
export function worstStatus(checks: readonly DoctorCheck[]): DoctorStatus {
  let worst = 0;
  for (const check of checks) worst = Math.max(worst, DOCTOR_STATUSES.indexOf(check.status));
  return DOCTOR_STATUSES[worst]!;
}
