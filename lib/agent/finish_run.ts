/**
 * After a run: write its trace (`toolscore` format), score it with the
 * task's contract (honesty included), write its receipt and the faults
 * applied, and build its JSONL row. Every file of a run lives in
 * `OUT/ARM/`: `TASK-REPEAT.json` (trace), `.receipt.json`, `.injected.json`;
 * the contract and honesty file a receipt names are copied into
 * `OUT/ARM/inputs/` under a name holding their hash, so that each receipt's
 * inputs sit inside its own folder and it verifies where it was written.
 * Paths in the row are relative to the JSONL file's folder.
 *
 * @module
 */

import { basename, dirname, join, relative } from "node:path";
import { callToJson, type JsonObject } from "../scoring/calls.ts";
import { evaluationEvidence } from "../checks/evidence.ts";
import { DEFAULT_HONESTY, type HonestyConfig } from "../checks/honesty_config.ts";
import type { InjectedFault } from "../checks/injected_faults.ts";
import { evaluateExpected, type Expected, expectedMinScore } from "../evaluate/expected.ts";
import { buildReceipt } from "../receipts/build.ts";
import { fileDigest } from "../receipts/digest.ts";
import { writeReceipt } from "../receipts/io.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import type { ReplacedResult, ScheduledFault } from "./faults.ts";
import type { Redactor } from "./keys.ts";
import type { PlannedRun } from "./plan.ts";
import { costUsd, lookupPrice } from "../spec/prices.ts";
import type { RunOutput } from "./run_loop.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";

/** The row schema name (v2 since issue 29: run ids from the run's identity, `identity` digests). */
export const ROW_SCHEMA = "toolscore.agent_run/2";

/** What every run of one `agent run` shares when it is finished. */
export interface FinishContext {
  /** The spec. */
  spec: AgentSpec;
  /** Where traces and receipts go. */
  outDir: string;
  /** The JSONL file's folder (row paths are relative to it). */
  rowsDir: string;
  /** Each task's contract or gold file, by task id. */
  expected: Map<string, Expected>;
  /** The spec's honesty configuration, when it names one. */
  honesty?: HonestyConfig;
  /** Hides key values. */
  redactor: Redactor;
}

/** The files of one run. */
export interface RunFiles {
  /** The trace. */
  trace: string;
  /** The receipt. */
  receipt: string;
  /** The faults as applied. */
  injected: string;
  /** A scratch folder for the server (`${TOOLSCORE_RUN_DIR}`). */
  work: string;
}

/**
 * Where one run's files go.
 *
 * @param outDir The output folder.
 * @param run The run.
 * @returns Its paths.
 *
 * @example Usage
 * ```ts
 * import { runFiles } from "./finish_run.ts";
 * import assert from "node:assert/strict";
 *
 * const run = { arm: { id: "mini" }, task: { id: "book" }, repeat: 2 };
 * assert.equal(runFiles("out", run as never).receipt, "out/mini/book-2.receipt.json");
 * ```
 */
export function runFiles(outDir: string, run: PlannedRun): RunFiles {
  const stem = join(outDir, run.arm.id, `${run.task.id}-${run.repeat}`);
  return {
    trace: `${stem}.json`,
    receipt: `${stem}.receipt.json`,
    injected: `${stem}.injected.json`,
    work: `${stem}.work`,
  };
}

function forRow(context: FinishContext, path: string): string {
  const rel = relative(context.rowsDir, path);
  return rel.replaceAll("\\", "/");
}

// A byte copy of an input inside the receipt's folder, named by its hash (written once).
async function inputCopy(path: string, folder: string): Promise<string> {
  const digest = await fileDigest(path);
  const target = join(folder, "inputs", `${digest.sha256.slice(0, 12)}-${basename(path)}`);
  try {
    await Deno.stat(target);
    return target;
  } catch {
    // not there yet
  }
  await Deno.mkdir(dirname(target), { recursive: true });
  const temp = `${target}.${crypto.randomUUID()}.tmp`;
  await Deno.copyFile(path, temp);
  await Deno.rename(temp, target);
  return target;
}

function traceJson(run: PlannedRun, output: RunOutput): JsonObject {
  const trace: JsonObject = {
    format: "toolscore",
    run_id: run.runId,
    arm_id: run.arm.id,
    task_id: run.task.id,
    repeat: run.repeat,
    provider: run.arm.provider,
    model: output.model,
    calls: output.calls.map(callToJson),
  };
  if (output.finalAnswer !== undefined) trace.final_answer = output.finalAnswer;
  if (output.finalAnswerTruncated === true) trace.final_answer_truncated = true;
  if (output.usage.inputTokens !== null && output.usage.outputTokens !== null) {
    trace.usage = {
      input_tokens: output.usage.inputTokens,
      output_tokens: output.usage.outputTokens,
    };
  }
  trace.turns = output.turns;
  trace.stop = output.stop;
  if (output.error !== undefined) trace.error = output.error;
  if (Object.keys(output.renamed).length > 0) trace.renamed_tools = output.renamed;
  // Issue 30: every model turn, with its stop reason and the text beside its calls.
  if (output.modelTurns !== undefined) trace.metadata = { model_turns: output.modelTurns };
  return trace;
}

/** What {@linkcode finishRun} writes and returns. */
export interface FinishedRun {
  /** The JSONL row. */
  row: Record<string, unknown>;
  /** Its cost in USD, `null` when unknown. */
  costUsd: number | null;
}

/**
 * Write a run's files and build its row. The trace is written for every run
 * (with the calls so far when it failed); the receipt only for a scored run.
 *
 * @param context What runs share.
 * @param run The run.
 * @param output What it produced.
 * @param startedAt When it started.
 * @param injected The cell's fault schedule and the faults applied to its tool results, when
 *   the spec injects faults.
 * @returns The row and cost.
 *
 * @example Usage
 * ```ts ignore
 * import { finishRun } from "./finish_run.ts";
 *
 * const { row } = await finishRun(context, run, output, new Date());
 * ```
 */
export async function finishRun(
  context: FinishContext,
  run: PlannedRun,
  output: RunOutput,
  startedAt: Date,
  injected?: {
    schedule?: ScheduledFault[];
    applied?: ScheduledFault[];
    faults: InjectedFault[];
    replaced: ReplacedResult[];
  },
): Promise<FinishedRun> {
  const applied = injected?.faults;
  const { spec, redactor } = context;
  const files = runFiles(context.outDir, run);
  const folder = dirname(files.trace);
  await Deno.mkdir(folder, { recursive: true });
  const trace = redactor.value(traceJson(run, output));
  await writeTextFileAtomic(files.trace, `${JSON.stringify(trace, null, 2)}\n`);
  if (applied !== undefined) {
    await writeTextFileAtomic(
      files.injected,
      `${
        JSON.stringify(
          redactor.value({
            run_id: run.runId,
            task_id: run.task.id,
            repeat: run.repeat,
            ...injected,
          }),
          null,
          2,
        )
      }\n`,
    );
  }
  const notes: string[] = [];
  // Stopped by the budget: not judged (outcome unknown, left out of n), run again by a rerun.
  const stopped = output.stop === "budget" || output.stop === "run_budget";
  if (output.budgetNote !== undefined) notes.push(output.budgetNote);
  if (!output.serverFresh) {
    notes.push("the server is remote (url): it is not fresh per run, so runs may share state");
  }
  const price = lookupPrice(run.arm.model, { overrides: spec.prices });
  const { inputTokens, outputTokens } = output.usage;
  let cost: number | null = null;
  if (inputTokens === null || outputTokens === null) {
    notes.push("the provider did not report token usage for every reply: cost unknown");
  } else if (price === null) {
    notes.push(`no price for ${run.arm.model}: cost unknown (add it under prices in the spec)`);
  } else {
    cost = costUsd(price.price, { inputTokens, outputTokens });
  }
  const row: Record<string, unknown> = {
    schema: ROW_SCHEMA,
    run_id: run.runId,
    arm_id: run.arm.id,
    provider: run.arm.provider,
    model: run.arm.model,
    task_id: run.task.id,
    repeat: run.repeat,
    status: output.stop === "error" ? "error" : stopped ? "stopped" : "ok",
    passed: null,
    failed_checks: null,
    outcome: stopped ? "unknown" : "error",
    score: null,
    grade: null,
    min_score: null,
    cost_usd: cost,
    // Issue 31: the latency from the server being ready; its start beside it.
    duration_s: output.durationS,
    server_start_s: output.serverStartS,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    honesty_errors: null,
    evidence: null,
    turns: output.turns,
    stop: output.stop,
    trace: forRow(context, files.trace),
    receipt: null,
    injected: applied !== undefined ? forRow(context, files.injected) : null,
    // The cell's fault schedule (the same for every arm) and what landed on this run's calls.
    faults: injected?.schedule !== undefined
      ? { schedule: injected.schedule, applied: injected.applied ?? [] }
      : null,
    trace_sha256: (await fileDigest(files.trace)).sha256,
    receipt_sha256: null,
    error: output.error ?? null,
    error_kind: output.stop === "error" ? output.errorKind ?? "server" : null,
    notes,
    server_fresh: output.serverFresh,
    spec_sha256: spec.sha256,
    identity: run.identity,
    started_at: startedAt.toISOString(),
  };
  if (output.stop === "error" || stopped) return { row: redactor.value(row), costUsd: cost };

  const expected = context.expected.get(run.task.id)!;
  const honesty: HonestyConfig | undefined = applied !== undefined
    ? { ...(context.honesty ?? DEFAULT_HONESTY), injected: applied }
    : context.honesty;
  const result = evaluateExpected(expected, trace, { format: "toolscore", honesty });
  const bar = expectedMinScore(expected) ?? 0.9;
  const fullEvidence = evaluationEvidence(result);
  // The contract's passing rule (issue 28), the same verdict the receipt records.
  const { passed, failedChecks } = result.verdict(bar, fullEvidence);
  const evidence = fullEvidence.counts;
  const honestyMetrics = result.metrics.honesty_metrics as { error_count?: number } | undefined;
  const inputs: Record<string, string | undefined> = {
    gold: await inputCopy(run.task.contract, folder),
    trace: files.trace,
    honesty_config: spec.honesty !== undefined ? await inputCopy(spec.honesty, folder) : undefined,
    injected: applied !== undefined ? files.injected : undefined,
  };
  const receipt = await buildReceipt(result, {
    inputs,
    settings: { format: "toolscore", strict: false },
    minScore: bar,
    relativeTo: folder,
  });
  await writeReceipt(files.receipt, receipt);
  Object.assign(row, {
    passed,
    failed_checks: failedChecks,
    outcome: passed ? "pass" : "fail",
    score: result.score,
    grade: result.grade,
    min_score: bar,
    honesty_errors: honestyMetrics?.error_count ?? 0,
    evidence,
    receipt: forRow(context, files.receipt),
    receipt_sha256: receipt.receipt_sha256,
  });
  return { row: redactor.value(row), costUsd: cost };
}
