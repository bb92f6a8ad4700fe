/**
 * `toolscore merge` (issue 40): shard outputs of `agent run` into one rows
 * file, checked, not concatenated.
 *
 * - Rows go through the shared duplicate check (`lib/stats/duplicates.ts`):
 *   an exact duplicate (a shard given twice, a retried job's output) counts
 *   once with a note; two different rows of one run, or one (arm, task,
 *   repeat) under two run ids, stop the merge (exit 2) before anything is
 *   written.
 * - With a spec, each row's run id must be the id the spec plans for its
 *   (arm, task, repeat) (`planRuns` with the real digests); a row of another
 *   spec stops the merge. Planned runs with no row are listed (`missing`):
 *   the CLI writes the output and exits 4. Rows are written in matrix order;
 *   without a spec, in input order.
 * - A row's `trace_sha256`, where the row has one, is checked against its
 *   trace file (a missing trace is an error too: the merged row would point
 *   at nothing).
 * - Row paths (`trace`, `receipt`, `injected`) are rewritten relative to the
 *   output's folder. With an out-dir every file is placed at
 *   `OUT_DIR/ARM/NAME` (the layout `agent run` writes), with the inputs a
 *   receipt names inside its folder (`inputs/…`), hard-linked when the file
 *   system allows, else copied — never symlinked, and a source that is a
 *   symlink is copied, since `verify` refuses inputs reached through one.
 *   Two different files for one place stop the merge.
 * - The spend ledgers beside the inputs (`RUNS.spend.jsonl`) merge into the
 *   output's, exact duplicate lines once, so the merged budget is complete;
 *   an input without a ledger is noted.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { canonicalJson } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import { readFileCapped } from "../base/read_limits.ts";
import { fileLineBlocks, parseJsonLine } from "../base/jsonl_lines.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { fileDigest } from "../receipts/digest.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { RunRowIndex } from "../stats/duplicates.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";
import { planRuns, runKey } from "./plan.ts";
import { runInputDigests } from "./run_identity.ts";
import { spendLedgerPath } from "./ledger.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** The row fields that name a run's files. */
const PATH_FIELDS = ["trace", "receipt", "injected"] as const;

/** Options for {@linkcode mergeRuns}. */
export interface MergeRunsOptions {
  /** The shard outputs (JSONL files of `agent run`). */
  inputs: string[];
  /** The merged rows file. */
  output: string;
  /**
   * Place every run's files under this folder (linked or copied).
   * @default {undefined} (the rows point at the files where they are)
   */
  outDir?: string;
  /**
   * The spec the shards ran: rows it does not plan are refused, planned runs without a row listed.
   * @default {undefined}
   */
  spec?: AgentSpec;
  /** The spec's path, for messages. @default {"the spec"} */
  specName?: string;
}

/** What {@linkcode mergeRuns} did. */
export interface MergeResult {
  /** Rows written. */
  rows: number;
  /** Exact duplicates left out. */
  duplicatesDropped: number;
  /** Planned run ids with no row (matrix order); empty without a spec. */
  missing: string[];
  /** The spec's matrix: runs and cells; `null` without a spec. */
  plan: { runs: number; cells: number } | null;
  /** Files placed under the out-dir (linked or copied). */
  files: number;
  /** Lines of the merged spend ledger, `null` when no input has one. */
  ledgerLines: number | null;
  /** Notes to print (duplicates, inputs without a ledger). */
  notes: string[];
}

interface ReadRow {
  row: Record<string, unknown>;
  file: string;
  where: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function readRows(file: string): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for await (const block of fileLineBlocks(file)) {
    for (const { text: line, line: number, unterminated } of block) {
      if (line.trim() === "") continue;
      const where = `${file}:${number}`;
      if (unterminated === true && !isJson(line)) {
        throw new InputError(
          "the last line is cut short (the shard was stopped while writing it): run the shard " +
            "again with the same command to finish it, then merge",
          where,
        );
      }
      const row = parseJsonLine(line, where);
      if (!isJsonObject(row)) {
        throw new InputError("expected a JSON object (a row of agent run)", where);
      }
      rows.push({ row, file, where });
    }
  }
  return rows;
}

function plannedIds(spec: AgentSpec, digests: Awaited<ReturnType<typeof runInputDigests>>) {
  const runs = planRuns(spec, undefined, digests);
  return {
    runs,
    byKey: new Map(runs.map((run) => [runKey(run.arm.id, run.task.id, run.repeat), run])),
  };
}

// The file a row names, resolved against its rows file's folder.
function source(file: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(file), path);
}

function forOutput(outputDir: string, path: string): string {
  return relative(resolve(outputDir), path).replaceAll("\\", "/");
}

async function sameFile(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = await Promise.all([Deno.stat(a), Deno.stat(b)]);
    return x.ino !== null && x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

// Place one file: a hard link when possible (not of a symlink), else a byte copy; atomically.
async function place(from: string, to: string): Promise<void> {
  if (await sameFile(from, to)) return;
  await Deno.mkdir(dirname(to), { recursive: true });
  const temp = join(dirname(to), `.${basename(to)}.${crypto.randomUUID()}.tmp`);
  const info = await Deno.lstat(from);
  try {
    if (info.isSymlink) throw new Error("a symlink is copied");
    await Deno.link(from, temp);
  } catch {
    await Deno.copyFile(from, temp);
  }
  try {
    await Deno.rename(temp, to);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new InputError(`cannot write (${(error as Error).message})`, to);
  }
}

/** Where each file goes under the out-dir, checked for two different files at one place. */
class Placement {
  #to = new Map<string, { from: string; where: string }>();

  async add(from: string, to: string, where: string): Promise<void> {
    const seen = this.#to.get(to);
    if (seen === undefined) {
      this.#to.set(to, { from, where });
      return;
    }
    if (await sameFile(seen.from, from)) return;
    const [a, b] = await Promise.all([fileDigest(seen.from), fileDigest(from)]);
    if (a.sha256 !== b.sha256) {
      throw new InputError(
        `two different files would be placed at ${to} (${seen.from}, from ${seen.where}, and ` +
          `${from}); merge shards of one matrix, or leave out --out-dir`,
        where,
      );
    }
  }

  get size(): number {
    return this.#to.size;
  }

  async write(): Promise<void> {
    for (const [to, { from }] of this.#to) await place(from, to);
  }
}

// The inputs a receipt names inside its own folder (inputs/…, the trace beside it).
async function receiptInputs(path: string, where: string): Promise<string[]> {
  let value: unknown;
  try {
    value = parseJsonLossless(new TextDecoder().decode(await readFileCapped(path)));
  } catch (error) {
    throw new InputError(
      `cannot read the row's receipt ${path} (${(error as Error).message})`,
      where,
    );
  }
  const inputs = isJsonObject(value) && isJsonObject(value.inputs) ? value.inputs : {};
  const out: string[] = [];
  for (const entry of Object.values(inputs)) {
    const stored = isJsonObject(entry) ? entry.path : undefined;
    if (typeof stored !== "string" || isAbsolute(stored)) continue;
    const normal = stored.replaceAll("\\", "/");
    if (normal === ".." || normal.startsWith("../")) continue;
    out.push(normal);
  }
  return out;
}

async function checkTrace(row: Record<string, unknown>, file: string, where: string) {
  const trace = row.trace;
  const expected = row.trace_sha256;
  if (typeof trace !== "string" || typeof expected !== "string") return;
  const path = source(file, trace);
  let actual: string;
  try {
    actual = (await fileDigest(path)).sha256;
  } catch {
    throw new InputError(
      `the row's trace ${path} cannot be read; merge the shard's folder with its rows`,
      where,
    );
  }
  if (actual !== expected) {
    throw new InputError(
      `the row's trace ${path} has SHA-256 ${actual.slice(0, 12)}…, the row says ${
        expected.slice(0, 12)
      }…: the trace changed after the run; rerun that run or restore the file`,
      where,
    );
  }
}

async function mergeLedgers(inputs: string[], output: string, notes: string[]) {
  const seen = new Set<string>();
  const lines: string[] = [];
  const lacking: string[] = [];
  let any = false;
  for (const input of new Set(inputs.map((path) => resolve(path)))) {
    const ledger = spendLedgerPath(input);
    try {
      await Deno.stat(ledger);
    } catch {
      lacking.push(input);
      continue;
    }
    any = true;
    for await (const block of fileLineBlocks(ledger)) {
      for (const { text: line, line: number } of block) {
        if (line.trim() === "") continue;
        const key = canonicalJson(parseJsonLine(line, `${ledger}:${number}`));
        if (seen.has(key)) continue;
        seen.add(key);
        lines.push(line);
      }
    }
  }
  if (!any) return null;
  if (lacking.length > 0) {
    notes.push(
      `${lacking.length} input(s) have no spend ledger (${
        basename(lacking[0]!)
      }…): the merged ledger lacks their model calls`,
    );
  }
  return { path: spendLedgerPath(output), text: lines.map((line) => `${line}\n`).join("") };
}

/**
 * Merge shard outputs into one rows file (see the module doc for what is checked).
 *
 * @param options The inputs, the output, the out-dir and the spec.
 * @returns What was merged and which planned runs are missing.
 * @throws {InputError} On a bad row, a row the spec does not plan, a trace that does not
 *   match its hash, or two files for one place — before anything is written.
 * @throws {DuplicateRunError} On two different rows of one run (nothing is written).
 *
 * @example Usage
 * ```ts ignore
 * import { mergeRuns } from "./merge_runs.ts";
 *
 * const result = await mergeRuns({ inputs: ["shard-1.jsonl", "shard-2.jsonl"], output: "runs.jsonl" });
 * ```
 */
export async function mergeRuns(options: MergeRunsOptions): Promise<MergeResult> {
  const { spec, output, outDir } = options;
  const outputDir = dirname(output);
  const plan = spec === undefined ? undefined : plannedIds(spec, await runInputDigests(spec));
  const index = new RunRowIndex();
  const kept: ReadRow[] = [];
  for (const file of options.inputs) {
    for (const read of await readRows(file)) {
      const { row, where } = read;
      const repeat = typeof row.repeat === "number" ? row.repeat : null;
      const run = {
        variant: text(row.arm_id),
        task: text(row.task_id),
        repeat,
        runId: text(row.run_id),
      };
      const colon = where.lastIndexOf(":");
      if (!index.add(run, row, { file, line: Number(where.slice(colon + 1)) })) continue;
      if (plan !== undefined) {
        const planned = repeat === null
          ? undefined
          : plan.byKey.get(runKey(run.variant, run.task, repeat));
        const cell = `arm ${JSON.stringify(run.variant)}, task ${
          JSON.stringify(run.task)
        }, repeat ${repeat}`;
        if (planned === undefined) {
          throw new InputError(
            `${cell} is not in the matrix of ${options.specName ?? "the spec"}: ` +
              "merge shards of the spec they ran",
            where,
          );
        }
        if (planned.runId !== run.runId) {
          throw new InputError(
            `run ${JSON.stringify(run.runId)} is not the run ${
              options.specName ?? "the spec"
            } plans for ${cell} (${planned.runId}): this shard ran under a changed spec or ` +
              "contract; rerun it, or leave it out",
            where,
          );
        }
      }
      await checkTrace(row, file, where);
      kept.push(read);
    }
  }

  // The files, placed (checked now, written after every check).
  const placement = new Placement();
  const rows: { row: Record<string, unknown>; order: number }[] = [];
  for (const [position, { row, file, where }] of kept.entries()) {
    const out: Record<string, unknown> = { ...row };
    for (const field of PATH_FIELDS) {
      const path = row[field];
      if (typeof path !== "string") continue;
      const from = source(file, path);
      if (outDir === undefined) {
        out[field] = isAbsolute(path) ? path : forOutput(outputDir, from);
        continue;
      }
      const folder = join(outDir, basename(dirname(from)));
      const to = resolve(folder, basename(from));
      await placement.add(from, to, where);
      if (field === "receipt") {
        for (const input of await receiptInputs(from, where)) {
          await placement.add(resolve(dirname(from), input), resolve(folder, input), where);
        }
      }
      out[field] = forOutput(outputDir, to);
    }
    const planned = plan?.byKey.get(
      runKey(text(row.arm_id), text(row.task_id), row.repeat as number),
    );
    rows.push({ row: out, order: planned?.index ?? position });
  }
  rows.sort((a, b) => a.order - b.order);

  const notes = index.notes();
  const ledger = await mergeLedgers(options.inputs, output, notes);
  await placement.write();
  if (ledger !== null) await writeTextFileAtomic(ledger.path, ledger.text);
  await writeTextFileAtomic(output, rows.map(({ row }) => `${JSON.stringify(row)}\n`).join(""));

  const present = new Set(kept.map(({ row }) => text(row.run_id)));
  return {
    rows: rows.length,
    duplicatesDropped: index.duplicates,
    missing: plan === undefined
      ? []
      : plan.runs.filter((run) => !present.has(run.runId)).map((run) => run.runId),
    plan: plan === undefined
      ? null
      : { runs: plan.runs.length, cells: new Set(plan.runs.map((run) => run.cell)).size },
    files: placement.size,
    ledgerLines: ledger === null ? null : ledger.text.split("\n").length - 1,
    notes,
  };
}
