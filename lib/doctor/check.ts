/**
 * One preflight check and its status.
 *
 * @module
 */

/** A check's outcome; `skip` when it could not or need not run. */
export type DoctorStatus = "pass" | "warn" | "fail" | "skip";

/** Every status, least severe first (`skip` < `pass` < `warn` < `fail`). */
export const DOCTOR_STATUSES: readonly DoctorStatus[] = ["skip", "pass", "warn", "fail"];

/** How much a finding matters: `fail` and `warn` as the check's statuses, `info` for the record. */
export type FindingSeverity = "fail" | "warn" | "info";

/** Why a server did not start (or stopped answering), for CI to branch on. */
export type StartCause =
  | "not-found"
  | "spawn-failed"
  | "auth"
  | "http-status"
  | "timeout"
  | "protocol"
  | "crashed";

/**
 * One thing a check found, for CI to gate on: a stable `code`
 * (`lint.hidden-unicode`, `drift.breaking`, …), a JSON pointer into the
 * catalog as a baseline file holds it (`/tools/NAME/inputSchema/...`; `""`
 * for the check as a whole) and, for drift, the change's class.
 */
export interface DoctorFinding {
  /** A stable code: `CHECK` for a check without finer findings, else `FAMILY.WHAT`. */
  code: string;
  /** How much it matters. */
  severity: FindingSeverity;
  /** Where: a JSON pointer into the catalog (`/tools/search/description`), or `""`. */
  path: string;
  /** What was found, in one line. */
  message: string;
  /** A drift change's class. */
  class?: "breaking" | "safety" | "compatible";
}

/** Options for {@linkcode DoctorCheck}. */
export interface DoctorCheckOptions {
  /**
   * What to do about a check that did not pass, in one sentence.
   * @default {null}
   */
  fix?: string | null;
  /**
   * What the check found, one entry each; a check that warns or fails
   * without any gets one finding coded by its name.
   * @default {[]}
   */
  findings?: readonly DoctorFinding[];
  /**
   * Why the server did not start (`server-start`, `tools-list`).
   * @default {null}
   */
  cause?: StartCause | null;
  /**
   * Seconds the check took (a probe's call).
   * @default {null}
   */
  durationS?: number | null;
  /**
   * A redacted, capped excerpt of what the server answered (a probe's).
   * @default {null}
   */
  excerpt?: string | null;
}

/** A check in the file shape. */
export interface DoctorCheckJson {
  /** The check's name. */
  name: string;
  /** Its outcome. */
  status: DoctorStatus;
  /** One sentence. */
  detail: string;
  /** How to fix it, or `null`. */
  fix: string | null;
  /** What it found. */
  findings: DoctorFinding[];
  /** Why a server did not start (only on a failed start). */
  cause?: StartCause;
  /** Seconds the check took (probes only). */
  duration_s?: number;
  /** A redacted, capped excerpt of the answer (probes only). */
  excerpt?: string;
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
 *   findings: [{ code: "keys", severity: "fail", path: "", message: "OPENAI_API_KEY is not set" }],
 * });
 * ```
 */
export class DoctorCheck {
  /** How to fix it; `null` when there is nothing to do. */
  readonly fix: string | null;
  /** What the check found. */
  readonly findings: readonly DoctorFinding[];
  /** Why a server did not start; `null` otherwise. */
  readonly cause: StartCause | null;
  /** Seconds the check took; `null` when not timed. */
  readonly durationS: number | null;
  /** An excerpt of the answer; `null` when none. */
  readonly excerpt: string | null;

  /**
   * Create a check result.
   *
   * @param name The check: `spec`, `contract`, `keys`, `packages`, `prices`, `budget`,
   *   `config` (a client config's entry), `server-start`, `handshake`, `stdout`, `tools-list`, `tool-schemas`, `tool-lint`,
   *   `resources`, `prompts`, `shutdown`, `server-build`, `catalog-drift`, `contract-tools`,
   *   `probe:NAME` (one per `--probe` entry).
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
    this.cause = options.cause ?? null;
    this.durationS = options.durationS ?? null;
    this.excerpt = options.excerpt ?? null;
    this.findings = options.findings !== undefined && options.findings.length > 0
      ? [...options.findings]
      : status === "warn" || status === "fail"
      ? [{ code: name, severity: status, path: "", message: detail }]
      : [];
  }

  /**
   * The check in the file shape.
   *
   * @returns `{name, status, detail, fix, findings}` and `cause` after a failed start.
   */
  toJSON(): DoctorCheckJson {
    const out: DoctorCheckJson = {
      name: this.name,
      status: this.status,
      detail: this.detail,
      fix: this.fix,
      findings: this.findings.map((finding) => ({ ...finding })),
    };
    if (this.cause !== null) out.cause = this.cause;
    if (this.durationS !== null) out.duration_s = Math.round(this.durationS * 1000) / 1000;
    if (this.excerpt !== null) out.excerpt = this.excerpt;
    return out;
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
