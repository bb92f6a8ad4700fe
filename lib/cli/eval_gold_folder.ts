/**
 * `toolscore eval DIR TRACE…` (issues 43 and 44): GOLD is a folder of
 * contracts (`lib/evaluate/contract_folder.ts` reads it and says which
 * contract a trace takes), and every trace is scored against its own
 * contract, with its own bar and passing rule.
 *
 * Decisions where the issues are silent:
 *
 * - A trace whose contract id is not in the folder stops the run with exit 2,
 *   naming the trace, the id looked for and where the id came from; a trace
 *   read from standard input without a task or BFCL id names none and stops
 *   the same way.
 * - The bar of a trace is `--min-score`/`--fail-under`, else its contract's
 *   `min_score`, else 0.9 (a gold file in the folder). The gate line shows the
 *   bar when every contract has the same one, else the lowest.
 * - The first-day rule "the gold is never scored as a trace" covers the
 *   folder: the folder walk leaves out its index and every contract file it
 *   lists (one note for them all), and a trace argument naming one of them is
 *   refused (exit 2; a gold file named as a trace is still read, as before).
 * - `--waivers` and `--bfcl-score` need a gold folder (a usage error otherwise).
 * - With a gold folder, `--json` always prints `{results, summary}`, even for
 *   one trace (the summary lists the contracts without a trace).
 * - Waived traces (`--waivers`, `eval_waivers.ts`) are left out of the gate:
 *   a run whose only failures are waived exits 0.
 *
 * @module
 */

import { resolve } from "node:path";
import { InputError, UsageError } from "../base/errors.ts";
import { contractIdOf, loadContractFolder } from "../evaluate/contract_folder.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import { expectedMinScore } from "../evaluate/expected.ts";
import { minOf } from "../base/arrays.ts";
import { loadWaivers } from "./eval_waivers.ts";
import type { BfclFailure, GoldFolderRun, GoldRow, TraceGold } from "./eval_gold_types.ts";
import { excludedNote, type NamedTrace } from "./inputs.ts";
import type { Scored } from "./eval_types.ts";

/** The `--help` lines of the gold folder and its flags (the lines of eval's "Options:"). */
export const GOLD_FOLDER_HELP =
  `  --waivers FILE           with a gold folder: known-bad items ([{id, reason, link}]), scored
                           but left out of the category accuracy and the gate, listed apart
  --bfcl-score DIR         with a gold folder: write BFCL-shaped score files
                           (DIR/<group>/BFCL_v4_<category>_score.json) for the BFCL contracts`;

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false; // loadExpected says why it cannot be read
  }
}

/**
 * Load the gold folder when GOLD is one, with its waivers.
 *
 * @param goldPath GOLD.
 * @param flags `--waivers`, `--bfcl-score`, the flag bar and the trace arguments.
 * @returns The run, or `undefined` when GOLD is a file.
 * @throws {UsageError} When `--waivers` or `--bfcl-score` is given without a gold folder, or a
 *   trace argument is one of the folder's own files.
 * @throws {InputError} When the folder, a contract or the waivers cannot be read.
 */
export async function prepareGoldFolder(
  goldPath: string,
  flags: { waivers?: string; bfclScore?: string; flagBar?: number; tracePaths?: string[] },
): Promise<GoldFolderRun | undefined> {
  if (!await isFolder(goldPath)) {
    const flag = flags.waivers !== undefined
      ? "--waivers"
      : flags.bfclScore !== undefined
      ? "--bfcl-score"
      : undefined;
    if (flag !== undefined) {
      throw new UsageError(`${flag} needs GOLD to be a folder of contracts; ${goldPath} is not`);
    }
    return undefined;
  }
  const folder = await loadContractFolder(goldPath);
  const own = new Set(
    goldFolderFiles({ folder, waivers: new Map(), unusedWaivers: [] }).map((f) => resolve(f)),
  );
  for (const path of flags.tracePaths ?? []) {
    if (path !== "-" && own.has(resolve(path))) {
      throw new UsageError(
        `${path} is a file of the gold folder ${goldPath}, not a trace: the gold is never scored as a trace`,
      );
    }
  }
  const waivers = flags.waivers !== undefined ? await loadWaivers(flags.waivers) : new Map();
  const unusedWaivers = [...waivers.keys()].filter((id) => !folder.byId.has(id));
  return {
    folder,
    waivers,
    unusedWaivers,
    ...(flags.flagBar !== undefined ? { flagBar: flags.flagBar } : {}),
    ...(flags.bfclScore !== undefined ? { bfclScore: flags.bfclScore } : {}),
  };
}

/**
 * The bar a gold folder run shows and gates with: the flag's, else the
 * contracts' common `min_score` (the lowest when they differ), else none.
 *
 * @param run The gold folder run.
 * @returns The bar, or `undefined` when no contract sets one (gold files only).
 */
export function folderBar(run: GoldFolderRun): number | undefined {
  if (run.flagBar !== undefined) return run.flagBar;
  const bars = run.folder.entries.map((entry) => expectedMinScore(entry.expected))
    .filter((bar): bar is number => bar !== undefined);
  return bars.length === 0 ? undefined : minOf(bars);
}

function idSource(named: NamedTrace): string {
  if (named.trace.run !== undefined) return "its task";
  if (typeof named.trace.metadata?.bfcl_id === "string") return "its BFCL id";
  return "its file name";
}

/**
 * The contract a trace is scored against.
 *
 * @param run The gold folder run.
 * @param named The trace.
 * @returns Its contract and bar.
 * @throws {InputError} When the folder has no contract of the trace's id (exit 2).
 */
export function traceGoldOf(run: GoldFolderRun, named: NamedTrace): TraceGold {
  const id = contractIdOf(named.trace, named.file);
  if (id === undefined) {
    throw new InputError(
      `names no contract (no task, no BFCL id, no file name); give the trace as a file`,
      named.name,
    );
  }
  const entry = run.folder.byId.get(id);
  if (entry === undefined) {
    throw new InputError(
      `no contract ${JSON.stringify(id)} (${idSource(named)}) in the gold folder ${run.folder.dir}`,
      named.name,
    );
  }
  const bar = run.flagBar ?? expectedMinScore(entry.expected) ?? 0.9;
  return { id, path: entry.path, expected: entry.expected, bar };
}

/**
 * The files of the gold folder, left out of a trace folder that holds them.
 *
 * @param run The gold folder run, if any.
 * @returns The index and every contract file.
 *
 * @example Usage
 * ```ts
 * import { goldFolderFiles } from "./eval_gold_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(goldFolderFiles(undefined), []);
 * ```
 */
export function goldFolderFiles(run: GoldFolderRun | undefined): string[] {
  if (run === undefined) return [];
  const files = run.folder.entries.map((entry) => entry.path);
  if (run.folder.index !== undefined) files.push(run.folder.index);
  return files;
}

/**
 * The notes on a trace folder walk: the gold folder's files left out (one
 * line, by count), the other files left out, and the waivers naming no contract.
 *
 * @param run The gold folder run, if any.
 * @param excluded The files the walk left out.
 * @returns The stderr lines.
 *
 * @example Usage
 * ```ts
 * import { walkNotes } from "./eval_gold_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(walkNotes(undefined, []), []);
 * assert.match(walkNotes(undefined, ["gold.json"])[0]!, /left gold\.json out of the traces/);
 * ```
 */
export function walkNotes(run: GoldFolderRun | undefined, excluded: readonly string[]): string[] {
  const ours = new Set(goldFolderFiles(run).map((file) => resolve(file)));
  const rest = excluded.filter((file) => !ours.has(resolve(file)));
  const left = excluded.length - rest.length;
  const notes: (string | undefined)[] = [
    left === 0 ? undefined : `toolscore: note: left ${left} ${left === 1 ? "file" : "files"} ` +
      `of the gold folder ${
        run!.folder.dir
      } out of the traces: the gold is never scored as a trace\n`,
    excludedNote(rest),
    unusedWaiversNote(run),
  ];
  return notes.filter((note): note is string => note !== undefined);
}

/**
 * The warning on waivers whose id has no contract in the folder.
 *
 * @param run The gold folder run, if any.
 * @returns The stderr line, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { unusedWaiversNote } from "./eval_gold_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unusedWaiversNote(undefined), undefined);
 * ```
 */
export function unusedWaiversNote(run: GoldFolderRun | undefined): string | undefined {
  if (run === undefined || run.unusedWaivers.length === 0) return undefined;
  const n = run.unusedWaivers.length;
  const ids = run.unusedWaivers;
  const shown = ids.length > 10
    ? `${ids.slice(0, 10).join(", ")} and ${ids.length - 10} more`
    : ids.join(", ");
  return `toolscore: warning: ${n} ${n === 1 ? "waiver names an id" : "waivers name ids"} with ` +
    `no contract in ${run.folder.dir}, unused: ${shown}\n`;
}

/**
 * BFCL's `error_type` of a result, when the checker gave one: a string
 * `errorType` on the result, else `error_type` in its JSON document.
 *
 * @param result The evaluation.
 * @returns The error type, or `null`.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { errorTypeOf } from "./eval_gold_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(errorTypeOf(evaluate([{ tool: "a" }], [])), null); // no BFCL checker ran
 * ```
 */
export function errorTypeOf(result: EvaluationResult): string | null {
  const own = (result as unknown as { errorType?: unknown }).errorType;
  if (typeof own === "string") return own;
  const doc = result.toJSON() as { error_type?: unknown };
  return typeof doc.error_type === "string" ? doc.error_type : null;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The gold folder row of a scored trace.
 *
 * @param run The gold folder run.
 * @param scored The scored trace (scored against its own contract).
 * @param reason The failing trace's first reason, if any.
 * @returns The row, or `undefined` when the trace was not scored against a folder contract.
 */
export function goldRowOf(
  run: GoldFolderRun,
  scored: Scored,
  reason: string | undefined,
): GoldRow | undefined {
  const gold = scored.gold;
  if (gold === undefined) return undefined;
  const { trace } = scored.named;
  const source = gold.expected.kind === "contract" ? gold.expected.contract.source : undefined;
  const benchmark = text(source?.benchmark);
  const category = text(source?.category);
  const bfclId = text(trace.metadata?.bfcl_id);
  const entry = bfclId ??
    (trace.run !== undefined ? `${trace.run.task}#${trace.run.trial ?? ""}` : scored.named.name);
  const waived = run.waivers.get(gold.id);
  const row: GoldRow = {
    trace: scored.named.name,
    contract: gold.id,
    entry,
    ...(benchmark !== undefined ? { benchmark } : {}),
    ...(category !== undefined ? { category } : {}),
    passed: scored.passed,
    score: scored.result.score,
    ...(waived !== undefined ? { waived } : {}),
  };
  if (run.bfclScore !== undefined && benchmark === "bfcl" && !scored.passed) {
    row.bfcl = bfclFailure(scored, reason);
  }
  return row;
}

function bfclFailure(scored: Scored, reason: string | undefined): BfclFailure {
  const error: string[] = [];
  for (const check of scored.failedChecks) error.push(`failed check: ${check}`);
  if (reason !== undefined) error.push(reason);
  return {
    model_name: scored.named.trace.model ?? null,
    error,
    error_type: errorTypeOf(scored.result),
    model_result_decoded: scored.named.trace.calls.map((call) => ({ [call.tool]: call.args })),
  };
}
