/**
 * Side-effect validation: a gold call may declare `side_effects: {check:
 * expected}`, checked on the actual call paired with it. The results go to
 * `metrics.side_effects` and feed the `side-effects` evidence check; they do
 * not change the score.
 *
 * Validators:
 *
 * - `http_ok`: the status from `result.status` / `result.status_code`, an
 *   integer result, or `metadata.http_status`; `true` = any 2xx, a number =
 *   exactly that status.
 * - `file_exists`: the path is the expected string, else the first of the
 *   actual args `path`, `file`, `filename`, `filepath`, `file_path`,
 *   `output`; relative paths resolve against `baseDir` (the gold file's
 *   folder); checked on the real file system. `false` expects no file there.
 * - `sql_rows`: the row count from an integer or list result, or from
 *   `rows_affected` / `rowcount` / `row_count` / `count` / `rows`; `true` =
 *   more than 0, `false` = none, a number = exactly, `{min, max}` = a range.
 *
 * A result given as JSON text is read as JSON. A check that cannot run (no
 * paired call, no result, no permission, an unknown check name) is not
 * validated: it fails with a detail that says why. Nothing here throws on a
 * bad declaration; it becomes a failed check.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";
import { isJsonObject, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { resultFromText } from "../formats/_shared.ts";

/** One validated side effect (JSON shape). */
export interface SideEffectCheck {
  /** The 0-based index of the gold call that declared it. */
  index: number;
  /** The gold call's tool. */
  tool: string;
  /** The check name (`http_ok`, `file_exists`, `sql_rows`). */
  check: string;
  /** The expected value as declared. */
  expected: unknown;
  /** Whether it validated. */
  passed: boolean;
  /** What was seen, or why it could not be checked. */
  detail: string;
}

/** `metrics.side_effects` (JSON shape). */
export interface SideEffectsMetrics {
  /** Declared checks. */
  total: number;
  /** Checks that validated. */
  passed: number;
  /** `passed / total`. */
  success_rate: number;
  /** Every check, in gold order then declaration order. */
  checks: SideEffectCheck[];
}

/** A gold call and the actual call paired with it (absent when unpaired). */
export interface SideEffectPair {
  /** The gold call, possibly declaring `sideEffects`. */
  expected: ToolCall;
  /** The paired actual call, if any. */
  actual?: ToolCall;
}

/** Options for {@linkcode validateSideEffects}. */
export interface ValidateSideEffectsOptions {
  /**
   * Where relative `file_exists` paths resolve (the gold file's folder).
   * @default {undefined} (the current directory)
   */
  baseDir?: string;
}

interface Verdict {
  passed: boolean;
  detail: string;
}

type Validator = (
  expected: unknown,
  actual: ToolCall,
  options: ValidateSideEffectsOptions,
) => Verdict;

const PATH_ARGS = ["path", "file", "filename", "filepath", "file_path", "output"] as const;
const STATUS_KEYS = ["status", "status_code"] as const;
const ROW_KEYS = ["rows_affected", "rowcount", "row_count", "count", "rows"] as const;

// A result given as text: JSON objects and lists parsed as the readers parse them, a bare
// integer ("204", "3") read as a number.
function resultOf(call: ToolCall): unknown {
  const result = call.result;
  if (typeof result !== "string") return result;
  const text = result.trim();
  return /^-?\d+$/.test(text) ? Number(text) : resultFromText(result);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function isWhole(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

function httpStatus(call: ToolCall): number | undefined {
  const result = resultOf(call);
  if (isWhole(result)) return result;
  if (isJsonObject(result)) {
    for (const key of STATUS_KEYS) {
      const value = result[key];
      if (isWhole(value)) return value;
      if (typeof value === "string" && /^\d{3}$/.test(value.trim())) return Number(value);
    }
  }
  const meta = call.metadata?.http_status;
  return isWhole(meta) ? meta : undefined;
}

function httpOk(expected: unknown, actual: ToolCall): Verdict {
  if (expected !== true && !isWhole(expected)) {
    return { passed: false, detail: `expected true or a status code, got ${shown(expected)}` };
  }
  const status = httpStatus(actual);
  if (status === undefined) {
    return {
      passed: false,
      detail: "no HTTP status captured (looked at result.status, result.status_code, " +
        "an integer result, metadata.http_status)",
    };
  }
  const passed = expected === true ? status >= 200 && status < 300 : status === expected;
  return {
    passed,
    detail: passed
      ? `HTTP ${status}`
      : `HTTP ${status}, expected ${expected === true ? "a 2xx status" : expected}`,
  };
}

function rowCount(call: ToolCall): number | undefined {
  const result = resultOf(call);
  if (isWhole(result)) return result;
  if (Array.isArray(result)) return result.length;
  if (isJsonObject(result)) {
    for (const key of ROW_KEYS) {
      const value = result[key];
      if (isWhole(value)) return value;
      if (Array.isArray(value)) return value.length;
    }
  }
  return undefined;
}

function sqlRows(expected: unknown, actual: ToolCall): Verdict {
  let accepts: ((n: number) => boolean) | undefined;
  let wanted = "";
  if (expected === true) [accepts, wanted] = [(n) => n > 0, "more than 0"];
  else if (expected === false) [accepts, wanted] = [(n) => n === 0, "0"];
  else if (isWhole(expected)) [accepts, wanted] = [(n) => n === expected, String(expected)];
  else if (isJsonObject(expected) && rangeOk(expected)) {
    const { min, max } = expected as { min?: number; max?: number };
    accepts = (n) => (min === undefined || n >= min) && (max === undefined || n <= max);
    wanted = min !== undefined && max !== undefined
      ? `${min} to ${max}`
      : min !== undefined
      ? `at least ${min}`
      : `at most ${max}`;
  }
  if (accepts === undefined) {
    return {
      passed: false,
      detail: `expected true, false, a row count or {min, max}, got ${shown(expected)}`,
    };
  }
  const count = rowCount(actual);
  if (count === undefined) {
    return {
      passed: false,
      detail: actual.result === undefined
        ? "no result captured, so no row count"
        : "no row count in the result (looked for an integer or list result, " +
          "rows_affected, rowcount, row_count, count, rows)",
    };
  }
  const passed = accepts(count);
  return {
    passed,
    detail: passed
      ? `${count} ${count === 1 ? "row" : "rows"}`
      : `${count} ${count === 1 ? "row" : "rows"}, expected ${wanted}`,
  };
}

function rangeOk(range: JsonObject): boolean {
  const keys = Object.keys(range);
  if (keys.length === 0 || keys.some((k) => k !== "min" && k !== "max")) return false;
  return keys.every((k) => typeof range[k] === "number" && Number.isFinite(range[k]));
}

function fileExists(
  expected: unknown,
  actual: ToolCall,
  options: ValidateSideEffectsOptions,
): Verdict {
  let path: string | undefined;
  if (typeof expected === "string" && expected !== "") path = expected;
  else if (expected === true || expected === false) {
    const args = actual.args ?? {};
    for (const key of PATH_ARGS) {
      const value = args[key];
      if (typeof value === "string" && value !== "") {
        path = value;
        break;
      }
    }
    if (path === undefined) {
      return {
        passed: false,
        detail: `no path to check: the call has none of the args ${PATH_ARGS.join(", ")}`,
      };
    }
  } else {
    return { passed: false, detail: `expected a path, true or false, got ${shown(expected)}` };
  }
  const wantFile = expected !== false;
  const full = options.baseDir === undefined || isAbsolute(path)
    ? path
    : join(options.baseDir, path);
  try {
    const info = Deno.statSync(full);
    const what = info.isDirectory ? "a directory" : "a file";
    return wantFile
      ? { passed: true, detail: `${what} exists at ${full}` }
      : { passed: false, detail: `${what} exists at ${full}, expected none` };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return wantFile
        ? { passed: false, detail: `no file at ${full}` }
        : { passed: true, detail: `no file at ${full}, as expected` };
    }
    if (error instanceof Deno.errors.NotCapable) {
      return {
        passed: false,
        detail:
          `could not check ${full}: no permission to read it; run deno with --allow-read=${full}`,
      };
    }
    return {
      passed: false,
      detail: `could not check ${full} (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

const VALIDATORS: Readonly<Record<string, Validator>> = {
  http_ok: httpOk,
  file_exists: fileExists,
  sql_rows: sqlRows,
};

/**
 * Validate the side effects the gold calls declare on their paired actual
 * calls.
 *
 * @param pairs Each gold call, in order, with its paired actual call (absent when unpaired).
 * @param options Where relative file paths resolve.
 * @returns `metrics.side_effects`, or `undefined` when no gold call declares a side effect.
 *
 * @example Usage
 * ```ts
 * import { validateSideEffects } from "./side_effects.ts";
 * import assert from "node:assert/strict";
 *
 * const metrics = validateSideEffects([
 *   {
 *     expected: { tool: "create_user", sideEffects: { http_ok: true } },
 *     actual: { tool: "create_user", result: { status: 201 } },
 *   },
 *   { expected: { tool: "notify", sideEffects: { http_ok: 200 } } },
 * ]);
 * assert.equal(metrics?.total, 2);
 * assert.equal(metrics?.passed, 1);
 * assert.equal(metrics?.checks[1]?.detail, "call not found");
 * assert.equal(validateSideEffects([{ expected: { tool: "a" } }]), undefined);
 * ```
 */
export function validateSideEffects(
  pairs: readonly SideEffectPair[],
  options: ValidateSideEffectsOptions = {},
): SideEffectsMetrics | undefined {
  const checks: SideEffectCheck[] = [];
  pairs.forEach(({ expected: gold, actual }, index) => {
    const declared = gold.sideEffects;
    if (!isJsonObject(declared)) return;
    for (const [check, expected] of Object.entries(declared)) {
      const validator = Object.hasOwn(VALIDATORS, check) ? VALIDATORS[check] : undefined;
      const verdict: Verdict = validator === undefined
        ? {
          passed: false,
          detail: `no validator for ${check} (known: ${Object.keys(VALIDATORS).join(", ")})`,
        }
        : actual === undefined
        ? { passed: false, detail: "call not found" }
        : validator(expected, actual, options);
      checks.push({ index, tool: gold.tool, check, expected, ...verdict });
    }
  });
  if (checks.length === 0) return undefined;
  const passed = checks.filter((c) => c.passed).length;
  return { total: checks.length, passed, success_rate: passed / checks.length, checks };
}
