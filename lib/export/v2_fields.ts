/**
 * The fields the v2 run record added (issue 29), read from an agent-run row
 * or a record read back: `status`, `failed_checks`, `prior_cost_usd`,
 * `model`, `turns`, `stop`, `server_start_s`, `error_kind` and `task_class`.
 * An absent or `null` value stays `null` (unknown); a value of the wrong
 * type is an input error naming its key, as for every other field.
 *
 * @module
 */

import { describeJson } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import type { RunRecord } from "./schema.ts";

/** The fields the v2 record added. */
export type V2Fields = Required<
  Pick<
    RunRecord,
    | "status"
    | "failed_checks"
    | "prior_cost_usd"
    | "model"
    | "turns"
    | "stop"
    | "server_start_s"
    | "error_kind"
    | "task_class"
  >
>;

const STATUSES = ["ok", "error", "stopped"] as const;
const TASK_CLASSES = ["stable_pass", "stable_fail", "flaky", "single"] as const;

function oneOf<T extends string>(
  row: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
): T | null {
  const value = row[key];
  if (value === undefined || value === null) return null;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) {
    return value as T;
  }
  throw new InputError(
    `expected one of ${allowed.join(", ")} or null, got ${describeJson(value)}`,
    key,
  );
}

function name(row: Record<string, unknown>, key: string): string | null {
  const value = row[key];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string") return value;
  throw new InputError(`expected a string or null, got ${describeJson(value)}`, key);
}

function quantity(row: Record<string, unknown>, key: string, integer = false): number | null {
  const value = row[key];
  if (value === undefined || value === null) return null;
  if (
    typeof value !== "number" || !Number.isFinite(value) || value < 0 ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "a non-negative integer" : "a non-negative number";
    throw new InputError(`expected ${kind} or null, got ${describeJson(value)}`, key);
  }
  return value;
}

function checks(row: Record<string, unknown>): string[] | null {
  const value = row.failed_checks;
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    throw new InputError(
      `expected an array of check names or null, got ${describeJson(value)}`,
      "failed_checks",
    );
  }
  value.forEach((item, i) => {
    if (typeof item !== "string" || item === "") {
      throw new InputError(
        `expected a check name, got ${describeJson(item)}`,
        `failed_checks[${i}]`,
      );
    }
  });
  return [...new Set(value as string[])];
}

/**
 * The v2 fields of a row (absent ones `null`).
 *
 * @param row An agent-run row or a run record.
 * @returns The fields.
 * @throws {InputError} On a value of the wrong type, naming its key.
 *
 * @example Usage
 * ```ts
 * import { v2Fields } from "./v2_fields.ts";
 * import assert from "node:assert/strict";
 *
 * const fields = v2Fields({ status: "stopped", stop: "budget", model: "m", turns: 3 });
 * assert.equal(fields.status, "stopped");
 * assert.equal(fields.failed_checks, null);
 * assert.throws(() => v2Fields({ turns: 1.5 }), /turns: expected a non-negative integer/);
 * ```
 */
export function v2Fields(row: Record<string, unknown>): V2Fields {
  return {
    status: oneOf(row, "status", STATUSES),
    failed_checks: checks(row),
    prior_cost_usd: quantity(row, "prior_cost_usd"),
    model: name(row, "model"),
    turns: quantity(row, "turns", true),
    stop: name(row, "stop"),
    server_start_s: quantity(row, "server_start_s"),
    error_kind: name(row, "error_kind"),
    task_class: oneOf(row, "task_class", TASK_CLASSES),
  };
}
