/**
 * The spend ledger of an `agent run` output: `OUT.spend.jsonl` beside
 * `OUT.jsonl` (`runs.jsonl` → `runs.spend.jsonl`), one line per model call
 * of every invocation — `{schema: "toolscore.agent_spend/1", arm_id,
 * task_id, repeat, run_id, turn, cost_usd, estimated, input_tokens,
 * output_tokens, at}` — appended as soon as the
 * reply is read, so that runs stopped by the budget, by Ctrl-C or by an
 * error, and error rows that `--retry-errors` replaced, still count. The
 * budget of a rerun, a resume or `--retry-errors` is the cap minus the
 * ledger's spend for the runs of this matrix (of this shard under
 * `--shard`). Moving the file aside starts a new ledger (what `--restart`
 * does).
 *
 * An output written before the ledger existed has rows but no ledger: the
 * ledger then starts with one line per row, `source: "rows"`, holding the
 * row's `cost_usd` plus its `prior_cost_usd` (an unknown cost counts 0
 * there: there is nothing better to count).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { runKey } from "./plan.ts";
import { SPEND_SCHEMA } from "../stats/runs.ts";

/** One line of the ledger. */
export interface SpendEntry {
  /** The run key (arm, task, repeat). */
  key: string;
  /** USD counted. */
  costUsd: number;
}

/**
 * The ledger beside an output.
 *
 * @param output The JSONL file of rows.
 * @returns `runs.jsonl` → `runs.spend.jsonl`.
 *
 * @example Usage
 * ```ts
 * import { spendLedgerPath } from "./ledger.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(spendLedgerPath("out/runs.jsonl"), "out/runs.spend.jsonl");
 * assert.equal(spendLedgerPath("out/runs"), "out/runs.spend.jsonl");
 * ```
 */
export function spendLedgerPath(output: string): string {
  return `${output.replace(/\.jsonl$/, "")}.spend.jsonl`;
}

function entryOf(value: unknown, where: string): SpendEntry {
  if (
    !isJsonObject(value) || typeof value.arm_id !== "string" ||
    typeof value.task_id !== "string" || typeof value.repeat !== "number" ||
    typeof value.cost_usd !== "number" || !Number.isFinite(value.cost_usd) ||
    value.cost_usd < 0
  ) {
    throw new InputError(
      "is not a spend line (it needs arm_id, task_id, repeat and cost_usd ≥ 0); " +
        "fix or remove the line, or move the file aside to start a new budget",
      where,
    );
  }
  return { key: runKey(value.arm_id, value.task_id, value.repeat), costUsd: value.cost_usd };
}

function amount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * The lines that start a ledger for an output that has rows but no ledger.
 *
 * @param rows The output's rows.
 * @returns One `source: "rows"` line per row.
 *
 * @example Usage
 * ```ts
 * import { seedLines } from "./ledger.ts";
 * import assert from "node:assert/strict";
 *
 * const rows = [{ arm_id: "a", task_id: "t", repeat: 0, cost_usd: 0.5, prior_cost_usd: 0.25 }];
 * assert.equal(seedLines(rows)[0]!.cost_usd, 0.75);
 * ```
 */
export function seedLines(rows: Iterable<Record<string, unknown>>): Record<string, unknown>[] {
  return [...rows].map((row) => ({
    schema: SPEND_SCHEMA,
    arm_id: row.arm_id,
    task_id: row.task_id,
    repeat: row.repeat,
    run_id: row.run_id ?? null,
    cost_usd: amount(row.cost_usd) + amount(row.prior_cost_usd),
    source: "rows",
  }));
}

/**
 * Read a ledger. A missing file holds nothing; a last line without a
 * newline (a write cut by a kill) is counted and ended when it parses, else
 * removed.
 *
 * @param path The ledger file.
 * @returns Its entries, or `null` when the file does not exist.
 * @throws {InputError} On a line that is not a spend line (`file:line`).
 *
 * @example Usage
 * ```ts ignore
 * import { readSpendLedger, spendLedgerPath } from "./ledger.ts";
 *
 * const entries = await readSpendLedger(spendLedgerPath("runs.jsonl"));
 * ```
 */
export async function readSpendLedger(path: string): Promise<SpendEntry[] | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new InputError(`cannot read (${(error as Error).message})`, path);
  }
  const entries: SpendEntry[] = [];
  const lines = text.split("\n");
  let cutParsed = true;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${path}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (i === lines.length - 1) {
        cutParsed = false; // a cut last line, removed below
        return;
      }
      throw new InputError(
        `not JSON (${(error as Error).message}); fix or remove the line, then run again`,
        where,
      );
    }
    entries.push(entryOf(value, where));
  });
  const tail = lines.at(-1) ?? "";
  if (tail !== "") {
    // A last line without a newline (a write cut by a kill): ended when it is whole, else
    // removed (the call it recorded is lost), so that the next line starts on a line of its own.
    if (cutParsed) await Deno.writeTextFile(path, "\n", { append: true });
    else {
      const bytes = new TextEncoder();
      await Deno.truncate(path, bytes.encode(text).length - bytes.encode(tail).length);
    }
  }
  return entries;
}

/**
 * The spend of some runs in a ledger.
 *
 * @param entries The ledger's entries.
 * @param keys The run keys counted; all when absent.
 * @returns USD.
 *
 * @example Usage
 * ```ts
 * import { ledgerSpend } from "./ledger.ts";
 * import assert from "node:assert/strict";
 *
 * const entries = [{ key: "a", costUsd: 0.25 }, { key: "b", costUsd: 0.5 }];
 * assert.equal(ledgerSpend(entries), 0.75);
 * assert.equal(ledgerSpend(entries, new Set(["b"])), 0.5);
 * ```
 */
export function ledgerSpend(entries: readonly SpendEntry[], keys?: ReadonlySet<string>): number {
  let sum = 0;
  for (const entry of entries) if (keys === undefined || keys.has(entry.key)) sum += entry.costUsd;
  return sum;
}

/** A ledger opened for a matrix. */
export interface OpenedLedger {
  /** The file. */
  path: string;
  /** What it holds (the seed from the rows included). */
  entries: SpendEntry[];
}

/**
 * Open the ledger of an output: read it, or, when it is missing and the
 * output has rows, start it with one line per row ({@linkcode seedLines}).
 *
 * @param output The JSONL file of rows.
 * @param rows The rows it holds.
 * @returns The ledger's path and entries.
 * @throws {InputError} On a bad ledger line, or when it cannot be written.
 *
 * @example Usage
 * ```ts ignore
 * import { openSpendLedger } from "./ledger.ts";
 *
 * const { entries } = await openSpendLedger("runs.jsonl", []);
 * ```
 */
export async function openSpendLedger(
  output: string,
  rows: Iterable<Record<string, unknown>>,
): Promise<OpenedLedger> {
  const path = spendLedgerPath(output);
  const read = await readSpendLedger(path);
  if (read !== null) return { path, entries: read };
  const lines = seedLines(rows);
  if (lines.length > 0) {
    try {
      await Deno.writeTextFile(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    } catch (error) {
      throw new InputError(`cannot write (${(error as Error).message})`, path);
    }
  }
  return { path, entries: lines.map((line, i) => entryOf(line, `${path}:${i + 1}`)) };
}
