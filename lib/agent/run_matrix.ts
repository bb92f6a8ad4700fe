/**
 * `agent run` as a library call: plan the matrix (or one shard of it), skip
 * the runs the output already holds, run the rest N at a time, and append
 * one row per finished run. A stop (Ctrl-C, SIGTERM: the `signal`) ends the
 * runs in flight without writing them and stops their servers; a rerun
 * completes the matrix.
 *
 * @module
 */

import { dirname, extname, resolve } from "node:path";
import { loadHonestyConfig } from "../checks/honesty_config.ts";
import { type Expected, loadExpected } from "../evaluate/expected.ts";
import { type FinishContext, finishRun, runFiles } from "./finish_run.ts";
import type { PostJsonOptions } from "./http.ts";
import { readArmKeys } from "./keys.ts";
import { dropRows, readExistingRows, RowWriter } from "./output.ts";
import { type PlannedRun, planRuns, runKey, type Shard } from "./plan.ts";
import { createProvider } from "./providers.ts";
import { BudgetGate } from "./budget.ts";
import { type FaultSpec, loadFaults, RunFaults } from "./faults.ts";
import { executeRun } from "./run_loop.ts";
import { checkResume } from "./resume_guard.ts";
import { runInputDigests } from "./run_identity.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";

/** A run that was not started, and why. */
export interface NotStarted {
  /** The arm. */
  arm_id: string;
  /** The task. */
  task_id: string;
  /** The repeat. */
  repeat: number;
  /** Why it was not started. */
  reason: string;
}

/** Something that happened, for progress lines. */
export type MatrixEvent =
  | { type: "planned"; total: number; skipped: number; todo: number }
  | { type: "started"; run: PlannedRun }
  | { type: "finished"; run: PlannedRun; row: Record<string, unknown>; costUsd: number | null }
  | { type: "note"; text: string };

/** Options for {@linkcode runMatrix}. */
export interface RunMatrixOptions {
  /** The spec. */
  spec: AgentSpec;
  /** The output JSONL file. */
  output: string;
  /**
   * Where traces and receipts go.
   * @default {beside the output, in a folder named after it (`runs.jsonl` → `runs/`)}
   */
  outDir?: string;
  /**
   * Runs at once.
   * @default {1}
   */
  concurrency?: number;
  /**
   * Only this shard of the matrix.
   * @default {undefined} (all of it)
   */
  shard?: Shard;
  /**
   * Run again the runs whose row is an error row.
   * @default {false}
   */
  retryErrors?: boolean;
  /** Reads an environment variable (`undefined` when unset or not permitted). */
  readEnv: (name: string) => string | undefined;
  /**
   * Stops the matrix: runs in flight are dropped, nothing more starts.
   * @default {undefined}
   */
  signal?: AbortSignal;
  /**
   * Told what happens.
   * @default {undefined}
   */
  onEvent?: (event: MatrixEvent) => void;
  /**
   * Retry and timeout settings of provider requests (key redaction is always added).
   * @default {{}}
   */
  http?: Omit<PostJsonOptions, "signal" | "redactor">;
  /**
   * Under a budget, run arms whose price is unknown (their cost stays `null`).
   * @default {false}
   */
  allowUnknownPrice?: boolean;
}

/** What {@linkcode runMatrix} did. */
export interface MatrixSummary {
  /** Runs in the matrix (or shard). */
  total: number;
  /** Runs skipped because the output holds them. */
  skipped: number;
  /** Of them, error rows (not retried without `retryErrors`). */
  skippedErrors: number;
  /** Rows written now. */
  runs: number;
  /** Of them, error rows. */
  errors: number;
  /** Runs not started, with the reason. */
  notStarted: NotStarted[];
  /** The known cost of the rows written now, USD. */
  spendUsd: number;
  /** Rows written now whose cost is unknown. */
  unknownCost: number;
  /** Whether the signal stopped the matrix. */
  interrupted: boolean;
}

/**
 * The default folder for traces and receipts: beside the output, named after it.
 *
 * @param output The JSONL file.
 * @returns The folder.
 *
 * @example Usage
 * ```ts
 * import { defaultOutDir } from "./run_matrix.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(defaultOutDir("results/runs.jsonl"), "results/runs");
 * ```
 */
export function defaultOutDir(output: string): string {
  const ext = extname(output);
  return ext === "" ? `${output}.d` : output.slice(0, -ext.length);
}

async function loadInputs(
  spec: AgentSpec,
): Promise<Pick<FinishContext, "expected" | "honesty"> & { faults?: FaultSpec[] }> {
  const expected = new Map<string, Expected>();
  for (const task of spec.tasks) expected.set(task.id, await loadExpected(task.contract));
  const honesty = spec.honesty !== undefined ? await loadHonestyConfig(spec.honesty) : undefined;
  const faults = spec.faults !== undefined ? await loadFaults(spec.faults) : undefined;
  return { expected, honesty, faults };
}

/**
 * Run the matrix.
 *
 * @param options The spec, output, concurrency, shard, signal…
 * @returns What was done.
 * @throws {InputError} On a bad contract, honesty file or output file, before any run starts.
 * @throws {UsageError} When an arm's key is missing, before any run starts.
 *
 * @example Usage
 * ```ts ignore
 * import { loadAgentSpec } from "../spec/agent_spec.ts";
 * import { runMatrix } from "./run_matrix.ts";
 *
 * const summary = await runMatrix({ spec: await loadAgentSpec("agent.yaml"), output: "runs.jsonl", readEnv: Deno.env.get });
 * ```
 */
export async function runMatrix(options: RunMatrixOptions): Promise<MatrixSummary> {
  const { spec } = options;
  const emit = options.onEvent ?? (() => {});
  const keys = readArmKeys(spec, options.readEnv);
  const { faults, ...inputs } = await loadInputs(spec);
  const outDir = options.outDir ?? defaultOutDir(options.output);
  const digests = await runInputDigests(spec);
  const planned = planRuns(spec, options.shard, digests);

  const existing = await readExistingRows(options.output);
  for (
    const text of checkResume(existing.rows, planRuns(spec, undefined, digests), options.output)
  ) {
    emit({ type: "note", text });
  }
  if (existing.cut !== null) {
    emit({
      type: "note",
      text: `removed a cut last line (${existing.cut.bytes} bytes, no newline) from ${
        keys.redactor.text(options.output)
      }: ${JSON.stringify(keys.redactor.text(existing.cut.preview))}; that run runs again`,
    });
  }
  const retry = new Set<string>();
  const todo: PlannedRun[] = [];
  let skippedErrors = 0;
  for (const run of planned) {
    const key = runKey(run.arm.id, run.task.id, run.repeat);
    const row = existing.rows.get(key);
    if (row === undefined) todo.push(run);
    else if (row.status === "error" && options.retryErrors === true) {
      retry.add(key);
      todo.push(run);
    } else if (row.status === "error") skippedErrors++;
  }
  const dropped = await dropRows(options.output, retry, outDir);
  if (dropped > 0) emit({ type: "note", text: `retrying ${dropped} error row(s)` });
  emit({
    type: "planned",
    total: planned.length,
    skipped: planned.length - todo.length,
    todo: todo.length,
  });

  const summary: MatrixSummary = {
    total: planned.length,
    skipped: planned.length - todo.length,
    skippedErrors,
    runs: 0,
    errors: 0,
    notStarted: [],
    spendUsd: 0,
    unknownCost: 0,
    interrupted: false,
  };
  const context: FinishContext = {
    spec,
    outDir,
    rowsDir: dirname(options.output),
    redactor: keys.redactor,
    ...inputs,
  };
  const stop = options.signal ?? new AbortController().signal;
  const writer = await RowWriter.open(options.output);
  const queue = [...todo];
  const gate = new BudgetGate(spec, { allowUnknownPrice: options.allowUnknownPrice });
  const notStarted = (run: PlannedRun, reason: string) =>
    summary.notStarted.push({
      arm_id: run.arm.id,
      task_id: run.task.id,
      repeat: run.repeat,
      reason,
    });

  // The run's cost when its row was written (`{cost}`), `null` when it was stopped unwritten.
  async function one(run: PlannedRun): Promise<{ cost: number | null } | null> {
    const startedAt = new Date();
    const work = runFiles(outDir, run).work;
    await Deno.remove(work, { recursive: true }).catch(() => {});
    await Deno.mkdir(work, { recursive: true });
    const runVariables: Record<string, string> = {
      TOOLSCORE_RUN_ID: run.runId,
      TOOLSCORE_RUN_DIR: resolve(work),
    };
    // Ended once the run is over, so that a request the run's timeout left behind is cancelled.
    const requests = new AbortController();
    const provider = createProvider(run.arm, keys.byArm.get(run.arm.id), {
      ...options.http,
      signal: AbortSignal.any([stop, requests.signal]),
      redactor: keys.redactor,
    });
    emit({ type: "started", run });
    const runFaults = faults !== undefined ? new RunFaults(faults, run.runId) : undefined;
    const output = await executeRun({
      spec,
      arm: run.arm,
      task: run.task,
      provider,
      lookup: (name) => runVariables[name] ?? options.readEnv(name),
      signal: stop,
      redactor: keys.redactor,
      faults: runFaults?.hook,
    }).finally(() => requests.abort());
    if (stop.aborted) return null;
    const injected = runFaults && { faults: runFaults.applied, replaced: runFaults.replaced };
    const finished = await finishRun(context, run, output, startedAt, injected);
    if (stop.aborted) return null;
    await writer.append(finished.row);
    summary.runs++;
    if (finished.row.status === "error") summary.errors++;
    if (finished.costUsd === null) summary.unknownCost++;
    else summary.spendUsd += finished.costUsd;
    emit({ type: "finished", run, row: finished.row, costUsd: finished.costUsd });
    return { cost: finished.costUsd };
  }

  // A failure that is not a run's (a file that cannot be written) stops the matrix once the
  // runs in flight are done; it is rethrown then.
  let fatal: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    while (!stop.aborted && fatal === undefined) {
      const run = queue.shift();
      if (run === undefined) return;
      const admission = gate.admit(run.arm);
      if (!admission.ok) {
        notStarted(run, admission.reason);
        continue;
      }
      let written: { cost: number | null } | null = null;
      try {
        written = await one(run);
      } catch (error) {
        if (!stop.aborted) fatal ??= { error };
      } finally {
        gate.settle(admission.estimate, written?.cost ?? null);
      }
      if (written === null && stop.aborted) notStarted(run, "stopped while it ran; not written");
    }
  }

  try {
    const workers = Math.max(1, Math.min(options.concurrency ?? 1, queue.length || 1));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    await writer.close();
  }
  if (fatal !== undefined) throw fatal.error;
  summary.interrupted = stop.aborted;
  for (const run of queue) notStarted(run, "the matrix was stopped before it started");
  return summary;
}
