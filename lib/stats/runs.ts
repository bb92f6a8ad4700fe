/**
 * Runs: one run of one task under one variant, read from agent-run JSONL
 * rows or exported run records. Since issue 22 a run also knows its
 * `repeat` (rows' `repeat`), so two variants' runs can be matched one to one.
 *
 * @module
 */

import { describeJson, isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { parseJsonLine, textLines } from "../base/jsonl_lines.ts";
import { readTextFile } from "../base/load.ts";

/**
 * The outcomes a run can have.
 *
 * @example Usage
 * ```ts
 * import { Run, RUN_OUTCOMES } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...RUN_OUTCOMES], ["pass", "fail", "error", "unknown"]);
 * assert.throws(() => new Run("a", "t", "skipped" as "pass"));
 * ```
 */
export const RUN_OUTCOMES = ["pass", "fail", "error", "unknown"] as const;

/**
 * The `schema` value of a `toolscore agent run` JSONL row (this version of the row).
 *
 * @example Usage
 * ```ts
 * import { AGENT_RUN_SCHEMA, runFromRow } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { schema: AGENT_RUN_SCHEMA, arm_id: "mini", task_id: "refund", passed: true };
 * assert.equal(runFromRow(row).outcome, "pass");
 * assert.equal(AGENT_RUN_SCHEMA, "toolscore.agent_run/1");
 * ```
 */
export const AGENT_RUN_SCHEMA = "toolscore.agent_run/1";

/** A run's outcome: `error` is an infrastructure failure, `unknown` a run that was not judged. */
export type RunOutcome = typeof RUN_OUTCOMES[number];

/** Options for the {@linkcode Run} constructor. */
export interface RunOptions {
  /**
   * Cost in USD; `null` when unknown (0 is a known zero).
   * @default {null}
   */
  cost?: number | null;
  /**
   * Wall-clock seconds; `null` when unknown.
   * @default {null}
   */
  latency?: number | null;
  /**
   * An identifier for reports.
   * @default {""}
   */
  runId?: string;
  /**
   * Which repeat of the task this is (0, 1, …); `null` when unknown. Runs of
   * two variants with the same task and repeat are matched one to one.
   * @default {null}
   */
  repeat?: number | null;
}

/**
 * One run of one task under one variant.
 *
 * @example Usage
 * ```ts
 * import { Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const run = new Run("mini", "refund", "pass", { cost: 0.003, repeat: 2 });
 * assert.equal(run.latency, null);
 * assert.deepEqual(run.toJSON(), {
 *   variant: "mini", task: "refund", outcome: "pass", cost: 0.003, latency: null, run_id: "",
 *   repeat: 2,
 * });
 * ```
 */
export class Run {
  /** The variant (arm, model, configuration…). */
  readonly variant: string;
  /** The task. */
  readonly task: string;
  /** `pass`, `fail`, `error` or `unknown`. */
  readonly outcome: RunOutcome;
  /** Cost in USD, or `null` when unknown. */
  readonly cost: number | null;
  /** Wall-clock seconds, or `null` when unknown. */
  readonly latency: number | null;
  /** An identifier for reports. */
  readonly runId: string;
  /** Which repeat of the task this is, or `null` when unknown. */
  readonly repeat: number | null;

  /**
   * Create a run.
   *
   * @param variant The variant.
   * @param task The task.
   * @param outcome The outcome.
   * @param options Cost, latency, run id and repeat.
   * @throws {InputError} On an unknown outcome, a negative or non-finite cost or latency, or a
   *   repeat that is not a non-negative integer.
   */
  constructor(variant: string, task: string, outcome: RunOutcome, options: RunOptions = {}) {
    if (!(RUN_OUTCOMES as readonly string[]).includes(outcome)) {
      throw new InputError(
        `unknown outcome ${JSON.stringify(outcome)}; use ${RUN_OUTCOMES.join(", ")}`,
        "outcome",
      );
    }
    this.variant = variant;
    this.task = task;
    this.outcome = outcome;
    this.cost = checkAmount(options.cost ?? null, "cost");
    this.latency = checkAmount(options.latency ?? null, "latency");
    this.runId = options.runId ?? "";
    this.repeat = checkRepeat(options.repeat ?? null, "repeat");
  }

  /**
   * The run in file shape.
   *
   * @returns `{variant, task, outcome, cost, latency, run_id, repeat}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      variant: this.variant,
      task: this.task,
      outcome: this.outcome,
      cost: this.cost,
      latency: this.latency,
      run_id: this.runId,
      repeat: this.repeat,
    };
  }
}

function checkRepeat(value: unknown, name: string): number | null {
  if (value !== null && !(typeof value === "number" && Number.isSafeInteger(value) && value >= 0)) {
    throw new InputError(
      `expected a non-negative integer or null, got ${describeJson(value)}`,
      name,
    );
  }
  return value as number | null;
}

function checkAmount(value: number | null, name: string): number | null {
  if (value !== null && (!Number.isFinite(value) || value < 0)) {
    throw new InputError(`expected a non-negative number or null, got ${value}`, name);
  }
  return value;
}

/**
 * The `schema` of a line of `agent run`'s spend ledger (`RUNS.spend.jsonl`):
 * a model call's cost, not a run; readers of runs refuse it.
 *
 * @example Usage
 * ```ts
 * import { SPEND_SCHEMA } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SPEND_SCHEMA, "toolscore.agent_spend/1");
 * ```
 */
export const SPEND_SCHEMA = "toolscore.agent_spend/1";

/** Options for {@linkcode runFromRow} and {@linkcode loadRuns}. */
export interface RunFromRowOptions {
  /**
   * The key that names the variant, tried before `arm_id`, `variant`, `arm` and `model`.
   * @default {undefined}
   */
  variantKey?: string;
  /**
   * Told of each row stopped by the budget (`status: "stopped"`): it was not
   * judged, so it is left out of the runs read (out of every `n`).
   * @default {undefined}
   */
  onStopped?: (where: string) => void;
}

const VARIANT_KEYS = ["arm_id", "variant", "arm", "model"];
const TASK_KEYS = ["task_id", "task"];
const COST_KEYS = ["cost_usd", "cost"];
const LATENCY_KEYS = ["duration_s", "latency", "duration"];
const ID_KEYS = ["run_id", "id"];

/** The first key of `keys` whose value is present (not undefined and not null). */
function firstPresent(row: Record<string, unknown>, keys: string[]): [string, unknown] | undefined {
  for (const key of keys) {
    const value = row[key];
    if (value !== undefined && value !== null) return [key, value];
  }
  return undefined;
}

function nameValue(row: Record<string, unknown>, keys: string[]): string | undefined {
  const found = firstPresent(row, keys);
  if (found === undefined) return undefined;
  const [key, value] = found;
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw new InputError(`expected a string, got ${describeJson(value)}`, key);
}

function amountValue(row: Record<string, unknown>, keys: string[]): number | null {
  const found = firstPresent(row, keys);
  if (found === undefined) return null;
  const [key, value] = found;
  const amount = isJsonObject(value) && "usd" in value ? value.usd : value;
  if (amount === null) return null;
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) {
    throw new InputError(
      `expected a non-negative number or null, got ${describeJson(amount)}`,
      key === "cost" && amount !== value ? "cost.usd" : key,
    );
  }
  return amount;
}

function outcomeOf(row: Record<string, unknown>): RunOutcome {
  const outcome = row.outcome;
  if (outcome !== undefined && outcome !== null) {
    if (typeof outcome === "string" && (RUN_OUTCOMES as readonly string[]).includes(outcome)) {
      return outcome as RunOutcome;
    }
    throw new InputError(
      `unknown outcome ${JSON.stringify(outcome)}; use ${RUN_OUTCOMES.join(", ")}`,
      "outcome",
    );
  }
  if (row.status === "error") return "error";
  if (row.passed === true) return "pass";
  if (row.passed === false) return "fail";
  return "unknown";
}

/**
 * Read a run from a JSONL row: a `toolscore agent run` row or an exported
 * run record.
 *
 * The variant is `row[variantKey]`, else `arm_id`, `variant`, `arm` or
 * `model`; the task `task_id` or `task` (`""` when absent). The outcome is
 * `outcome`, else derived: `status: "error"` is an error, `passed`
 * true/false is a pass/fail, anything else unknown. Cost is `cost_usd` or
 * `cost` (a number, or `{"usd": …}`); latency `duration_s`, `latency` or
 * `duration`; absent or `null` stays unknown. The run id is `run_id` or `id`;
 * the repeat `repeat` (a non-negative integer, or absent/`null`: unknown).
 *
 * @param row The parsed row.
 * @param options The variant key.
 * @returns The run.
 * @throws {InputError} When the row is not an object, names no variant, or has a bad value
 *   (the error names the key).
 *
 * @example Usage
 * ```ts
 * import { runFromRow } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const run = runFromRow({ arm_id: "mini", task_id: "refund", status: "ok", passed: true, cost_usd: 0.003 });
 * assert.equal(run.variant, "mini");
 * assert.equal(run.outcome, "pass");
 * assert.equal(run.latency, null);
 * assert.throws(() => runFromRow({ task: "refund" }), /names no variant/);
 * ```
 */
export function runFromRow(row: unknown, options: RunFromRowOptions = {}): Run {
  if (!isJsonObject(row)) {
    throw new InputError(`expected a JSON object, got ${describeJson(row)}`);
  }
  const keys = options.variantKey === undefined
    ? VARIANT_KEYS
    : [options.variantKey, ...VARIANT_KEYS];
  const variant = nameValue(row, keys);
  if (variant === undefined || variant === "") {
    throw new InputError(
      `the row names no variant; add one of ${keys.join(", ")} or pass --variant-key`,
    );
  }
  return new Run(variant, nameValue(row, TASK_KEYS) ?? "", outcomeOf(row), {
    cost: amountValue(row, COST_KEYS),
    latency: amountValue(row, LATENCY_KEYS),
    runId: nameValue(row, ID_KEYS) ?? "",
    repeat: checkRepeat(row.repeat ?? null, "repeat"),
  });
}

/**
 * Runs from the text of one JSONL file (one JSON object per line; blank lines
 * and rows stopped by the budget, `status: "stopped"`, skipped).
 *
 * @param text The file's text.
 * @param file The file name, for errors.
 * @param options The variant key.
 * @returns The runs, in line order.
 * @throws {InputError} On a line that is not a JSON object or not a run, naming `file:line`.
 *
 * @example Usage
 * ```ts
 * import { runsFromJsonl } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * const text = '{"arm_id": "a", "task_id": "t", "passed": true}\n\n{"arm_id": "b", "passed": false}\n';
 * assert.deepEqual(runsFromJsonl(text, "runs.jsonl").map((run) => run.outcome), ["pass", "fail"]);
 * assert.throws(() => runsFromJsonl('{"arm_id": "a"}\n{oops\n', "runs.jsonl"), /^InputError: runs\.jsonl:2:/);
 * ```
 */
export function runsFromJsonl(text: string, file: string, options: RunFromRowOptions = {}): Run[] {
  const runs: Run[] = [];
  for (const { text: raw, line } of textLines(text)) {
    const content = raw.trim();
    if (content === "") continue;
    const row = parseJsonLine(content, `${file}:${line}`);
    if (isJsonObject(row) && row.schema === SPEND_SCHEMA) {
      throw new InputError(
        "is agent run's spend ledger (one line per model call), not runs; give the rows file",
        `${file}:${line}`,
      );
    }
    if (isJsonObject(row) && row.status === "stopped") {
      options.onStopped?.(`${file}:${line}`);
      continue;
    }
    try {
      runs.push(runFromRow(row, options));
    } catch (error) {
      if (error instanceof InputError) {
        throw new InputError(error.message, `${file}:${line}`, { cause: error });
      }
      throw error;
    }
  }
  return runs;
}

/**
 * Read runs from JSONL files: `toolscore agent run` output or exported run
 * records, mixed freely.
 *
 * @param paths The JSONL files.
 * @param options The variant key.
 * @returns Every run, file by file, in line order.
 * @throws {InputError} When a file cannot be read, holds no runs, or on a bad line, naming `file:line`.
 *
 * @example Usage
 * ```ts ignore
 * import { compareRuns, loadRuns } from "@toolscore/cli";
 *
 * const comparison = compareRuns(await loadRuns(["runs.jsonl"]));
 * ```
 */
export async function loadRuns(
  paths: Iterable<string>,
  options: RunFromRowOptions = {},
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const path of paths) {
    const before = runs.length;
    let stopped = 0;
    const onStopped = (where: string) => (stopped++, options.onStopped?.(where));
    for (const run of runsFromJsonl(await readTextFile(path), path, { ...options, onStopped })) {
      runs.push(run);
    }
    // An empty file is not "no runs happened": say so rather than compare nothing.
    if (runs.length === before && stopped === 0) {
      throw new InputError("no runs: the file has no JSON lines; give agent-run JSONL", path);
    }
  }
  return runs;
}
