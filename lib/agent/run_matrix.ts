/**
 * `agent run` as a library call: plan the matrix (or one shard of it), skip
 * the runs the output already holds, run the rest cell by cell, N runs at a
 * time, and append one row per finished run. A stop (Ctrl-C, SIGTERM: the
 * `signal`) ends the runs in flight without writing them and stops their
 * servers; a rerun completes the matrix.
 *
 * The budget (`budget.ts`) admits whole cells and reserves each model call;
 * every call's spend goes to the ledger (`ledger.ts`) at once, and the cap
 * of this invocation is the spec's (`budget.max_usd`, or under `--shard k/n`
 * `budget.per_shard_usd`, else `max_usd / n`; for a part of the plan,
 * `--runs`, `per_shard_usd`, else `max_usd × its runs / runs planned`: issue
 * 40) minus what the ledger already holds for these runs. A row with `status: "stopped"` (a budget stop) is
 * run again like a missing row, an error row too under `--retry-errors`;
 * the new row carries the cost of the one it replaced as `prior_cost_usd`,
 * and the old row is removed once its replacement is written (a run not
 * started keeps its old row). A run whose first model call the budget
 * refused is not started (no row).
 *
 * Issue 31: every provider request goes through its endpoint's circuit
 * breaker (`breaker.ts`); once one is open, the runs on that endpoint not yet
 * started are not started (with the breaker's reason), the runs in flight on
 * it end as error rows (`error_kind: "provider"`), the other endpoints go on.
 *
 * @module
 */

import { dirname, extname, resolve } from "node:path";
import { loadHonestyConfig } from "../checks/honesty_config.ts";
import { type Expected, loadExpected } from "../evaluate/expected.ts";
import { type FinishContext, finishRun, runFiles } from "./finish_run.ts";
import type { PostJsonOptions } from "./http.ts";
import { readArmKeys } from "./keys.ts";
import { dropEarlierRows, readExistingRows, RowWriter } from "./output.ts";
import { type PlannedRun, planRuns, runKey, type Shard } from "./plan.ts";
import { createProvider } from "./providers.ts";
import { BudgetGate, type CellTicket } from "./budget.ts";
import { ledgerSpend, openSpendLedger } from "./ledger.ts";
import { SPEND_SCHEMA } from "../stats/runs.ts";
import { faultCellOf, type FaultSpec, loadFaults, RunFaults } from "./faults.ts";
import { executeRun } from "./run_loop.ts";
import { scrubFolder } from "./scrub_work.ts";
import { Breakers, type BreakerState } from "./breaker.ts";
import { InputError } from "../base/errors.ts";
import { checkResume } from "./resume_guard.ts";
import { runInputDigests } from "./run_identity.ts";
import { partCapUsd, selectPart } from "./run_part.ts";
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
   * Only these runs: a part of the plan (`readRunPart`, run id → `file:line`); the cap is the
   * part's share of the budget (`partCapUsd`).
   * @default {undefined} (the shard, or all of the matrix)
   */
  part?: ReadonlyMap<string, string>;
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
  /**
   * Consecutive failed attempts that open an endpoint's circuit breaker.
   * @default {5}
   */
  maxProviderFailures?: number;
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
  /** Of them, rows stopped by the budget (`status: "stopped"`). */
  stopped: number;
  /** Runs not started, with the reason. */
  notStarted: NotStarted[];
  /** What the model calls of this invocation cost (the ledger's lines added now), USD. */
  spendUsd: number;
  /** The ledger's spend for the runs of this matrix (or shard), earlier invocations included. */
  spendTotalUsd: number;
  /** This matrix's (or shard's) cap, USD; `null` without a budget. */
  budgetUsd: number | null;
  /** Cells (task × repeat) in the matrix or shard. */
  cells: number;
  /** Of them, cells whose every arm has a row that is not stopped. */
  completeCells: number;
  /** Rows written now whose cost is unknown. */
  unknownCost: number;
  /** Whether the signal stopped the matrix. */
  interrupted: boolean;
  /** Each provider endpoint's circuit breaker, at the end. */
  breakers: BreakerState[];
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
  const breakers = new Breakers(options.maxProviderFailures);
  const all = planRuns(spec, undefined, digests);
  const planned = options.part !== undefined
    ? selectPart(all, options.part)
    : planRuns(spec, options.shard, digests);

  const existing = await readExistingRows(options.output);
  for (
    const text of checkResume(existing.rows, all, options.output)
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
  // A row whose replacement was written just before a kill: the old one goes now.
  await dropEarlierRows(options.output, existing.duplicates, outDir);
  const retry = new Set<string>();
  // What the rows a run replaces cost (a stopped row, an error row retried).
  const prior = new Map<string, number>();
  const todo: PlannedRun[] = [];
  let skippedErrors = 0;
  for (const run of planned) {
    const key = runKey(run.arm.id, run.task.id, run.repeat);
    const row = existing.rows.get(key);
    if (row === undefined) todo.push(run);
    else if (row.status === "stopped" || (row.status === "error" && options.retryErrors === true)) {
      if (row.status === "error") retry.add(key);
      prior.set(key, amount(row.cost_usd) + amount(row.prior_cost_usd));
      todo.push(run);
    } else if (row.status === "error") skippedErrors++;
  }
  const ledger = await openSpendLedger(options.output, existing.rows.values());
  if (retry.size > 0) emit({ type: "note", text: `retrying ${retry.size} error row(s)` });
  emit({
    type: "planned",
    total: planned.length,
    skipped: planned.length - todo.length,
    todo: todo.length,
  });

  const matrixKeys = new Set(planned.map((run) => runKey(run.arm.id, run.task.id, run.repeat)));
  const { maxUsd, perShardUsd } = spec.budget;
  const cap = options.part !== undefined
    ? partCapUsd(maxUsd, perShardUsd, planned.length, all.length)
    : options.shard === undefined
    ? maxUsd
    : perShardUsd ?? (maxUsd === null ? null : maxUsd / options.shard.n);
  const slice = options.shard !== undefined || options.part !== undefined;
  const priorSpend = ledgerSpend(ledger.entries, slice ? matrixKeys : undefined);
  const gate = new BudgetGate(spec, {
    allowUnknownPrice: options.allowUnknownPrice,
    capUsd: cap,
    priorSpendUsd: priorSpend,
  });
  const summary: MatrixSummary = {
    total: planned.length,
    skipped: planned.length - todo.length,
    skippedErrors,
    runs: 0,
    errors: 0,
    stopped: 0,
    notStarted: [],
    spendUsd: 0,
    spendTotalUsd: priorSpend,
    budgetUsd: cap,
    cells: new Set(planned.map((run) => run.cell)).size,
    completeCells: 0,
    unknownCost: 0,
    interrupted: false,
    breakers: [],
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
  const ledgerWriter = await RowWriter.open(ledger.path);
  const notStarted = (run: PlannedRun, reason: string) =>
    summary.notStarted.push({
      arm_id: run.arm.id,
      task_id: run.task.id,
      repeat: run.repeat,
      reason,
    });

  // Whether the run's row was written (not when it was stopped unwritten or not started).
  async function one(run: PlannedRun, ticket: CellTicket): Promise<boolean> {
    const startedAt = new Date();
    const key = runKey(run.arm.id, run.task.id, run.repeat);
    const work = runFiles(outDir, run).work;
    await Deno.remove(work, { recursive: true }).catch(() => {});
    await Deno.mkdir(work, { recursive: true });
    const runVariables: Record<string, string> = {
      TOOLSCORE_RUN_ID: run.runId,
      TOOLSCORE_RUN_DIR: resolve(work),
    };
    let turn = 0;
    const meter = gate.meter(run.arm, ticket, (spend) => {
      summary.spendUsd += spend.costUsd;
      // Written as soon as the reply is read, so that a run never written still counts.
      ledgerWriter.append({
        schema: SPEND_SCHEMA,
        arm_id: run.arm.id,
        task_id: run.task.id,
        repeat: run.repeat,
        run_id: run.runId,
        turn: ++turn,
        cost_usd: spend.costUsd,
        estimated: spend.estimated,
        input_tokens: spend.inputTokens,
        output_tokens: spend.outputTokens,
        at: new Date().toISOString(),
      }).catch((error) => fatal ??= { error: ledgerError(ledger.path, error) });
    });
    // Ended once the run is over, so that a request the run's timeout left behind is cancelled.
    const requests = new AbortController();
    const provider = createProvider(run.arm, keys.byArm.get(run.arm.id), {
      ...options.http,
      signal: AbortSignal.any([stop, requests.signal]),
      redactor: keys.redactor,
      beforeSend: (bytes) => meter.reserve(bytes),
      breaker: breakers.of(run.arm),
    });
    emit({ type: "started", run });
    // Drawn per (task, repeat) cell, never per arm: every arm of a cell faces the same faults.
    const runFaults = faults !== undefined ? new RunFaults(faults, faultCellOf(run)) : undefined;
    const output = await executeRun({
      spec,
      arm: run.arm,
      task: run.task,
      provider,
      lookup: (name) =>
        (Object.hasOwn(runVariables, name) ? runVariables[name] : undefined) ??
          options.readEnv(name),
      signal: stop,
      redactor: keys.redactor,
      faults: runFaults?.hook,
      meter,
    }).finally(() => requests.abort());
    // What the server wrote loses every secret, even for a run stopped unwritten (issue 31).
    const scrubbed = await scrubFolder(work, keys.redactor);
    if (stop.aborted) return false;
    if (output.stop === "budget" && output.turns === 0) {
      // Not one call fitted: the run did not start (nothing to score, nothing spent).
      await Deno.remove(work, { recursive: true }).catch(() => {});
      notStarted(run, output.budgetNote ?? "budget");
      return false;
    }
    const injected = runFaults && {
      schedule: [...runFaults.schedule],
      applied: runFaults.landed,
      faults: runFaults.applied,
      replaced: runFaults.replaced,
    };
    const finished = await finishRun(context, run, output, startedAt, injected);
    if (stop.aborted) return false;
    if (prior.has(key)) finished.row.prior_cost_usd = prior.get(key);
    for (const { path, why } of scrubbed.deleted) {
      (finished.row.notes as string[]).push(
        keys.redactor.text(`deleted ${path} from the work folder: ${why}`),
      );
    }
    await writer.append(finished.row);
    existing.rows.set(key, finished.row);
    if (prior.has(key)) replaced.add(key);
    summary.runs++;
    if (finished.row.status === "error") summary.errors++;
    if (finished.row.status === "stopped") summary.stopped++;
    if (finished.costUsd === null) summary.unknownCost++;
    emit({ type: "finished", run, row: finished.row, costUsd: finished.costUsd });
    return true;
  }

  // Runs of an arm that cannot run under the cap (no price) are not started; the rest of their
  // cell still is. Cells then go in matrix order, each admitted whole.
  const cells = new Map<number, PlannedRun[]>();
  for (const run of todo) {
    const refusal = gate.refusal(run.arm);
    if (refusal !== null) notStarted(run, refusal);
    else cells.set(run.cell, [...cells.get(run.cell) ?? [], run]);
  }
  const waiting = [...cells.values()];
  let current: { queue: PlannedRun[]; ticket: CellTicket; left: number } | undefined;
  function next(): { run: PlannedRun; cell: NonNullable<typeof current> } | undefined {
    while (current === undefined || current.queue.length === 0) {
      const runs = waiting.shift();
      if (runs === undefined) return undefined;
      const admission = gate.admitCell(runs.map((run) => run.arm));
      if (!admission.ok) {
        for (const run of [runs, ...waiting.splice(0)].flat()) notStarted(run, admission.reason);
        return undefined;
      }
      current = { queue: [...runs], ticket: admission.ticket, left: runs.length };
    }
    return { run: current.queue.shift()!, cell: current };
  }
  const replaced = new Set<string>();

  // A failure that is not a run's (a file that cannot be written) stops the matrix once the
  // runs in flight are done; it is rethrown then.
  let fatal: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    while (!stop.aborted && fatal === undefined) {
      const taken = next();
      if (taken === undefined) return;
      const { run, cell } = taken;
      const breaker = breakers.of(run.arm);
      if (breaker.isOpen()) {
        notStarted(run, keys.redactor.text(breaker.reason()));
        if (--cell.left === 0) gate.release(cell.ticket);
        continue;
      }
      let written = false;
      try {
        written = await one(run, cell.ticket);
      } catch (error) {
        if (!stop.aborted) fatal ??= { error };
      } finally {
        if (--cell.left === 0) gate.release(cell.ticket);
      }
      if (!written && stop.aborted) notStarted(run, "stopped while it ran; not written");
    }
  }

  try {
    const workers = Math.max(1, Math.min(options.concurrency ?? 1, todo.length || 1));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    await writer.close();
    await ledgerWriter.close();
  }
  if (fatal !== undefined) throw fatal.error;
  // The stopped and error rows that were run again now have their replacement: the old line goes.
  await dropEarlierRows(options.output, replaced, outDir);
  summary.interrupted = stop.aborted;
  summary.spendTotalUsd = gate.spentUsd;
  const left = [current?.queue ?? [], ...waiting].flat();
  for (const run of left) notStarted(run, "the matrix was stopped before it started");
  summary.completeCells = completeCells(planned, existing.rows);
  summary.breakers = keys.redactor.value(breakers.states());
  return summary;
}

function amount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function ledgerError(path: string, error: unknown): InputError {
  return new InputError(`cannot write (${(error as Error).message})`, path);
}

// Cells whose every arm has a row that is not stopped.
function completeCells(planned: PlannedRun[], rows: Map<string, Record<string, unknown>>): number {
  const complete = new Map<number, boolean>();
  for (const run of planned) {
    const row = rows.get(runKey(run.arm.id, run.task.id, run.repeat));
    const done = row !== undefined && row.status !== "stopped";
    complete.set(run.cell, (complete.get(run.cell) ?? true) && done);
  }
  return [...complete.values()].filter(Boolean).length;
}
