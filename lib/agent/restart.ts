/**
 * `agent run --restart` (issue 29): start a matrix over without losing the
 * old one. The output moves aside as `NAME.TIMESTAMP.jsonl`, its out-dir as
 * `DIR.TIMESTAMP/`, its budget ledger (`NAME.spend.jsonl`, issue 27) as
 * `NAME.TIMESTAMP.spend.jsonl`, and every sidecar `OUT.*` as the moved
 * output's, so the new run starts with no rows and a new ledger. The lock file `OUT.lock` stays: the restarting
 * process holds it.
 *
 * The moved rows' `trace`, `receipt` and `injected` paths are rewritten to
 * point into the moved folder, so the old file still reads as it did.
 * TIMESTAMP is UTC to the second (`20261201T204500Z`); a name already taken
 * gets `-2`, `-3`… appended.
 *
 * @module
 */

import { basename, dirname, extname, join, relative } from "node:path";
import { InputError } from "../base/errors.ts";
import { spendLedgerPath } from "./ledger.ts";
import { lockPathOf } from "./output_lock.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";
import { pathExists } from "../base/path_exists.ts";

/** What {@linkcode restartOutput} moved: `[from, to]` pairs. */
export type Moved = [string, string][];

/**
 * The timestamp of a restart.
 *
 * @param now The time.
 * @returns UTC to the second, e.g. `20261201T204500Z`.
 *
 * @example Usage
 * ```ts
 * import { restartStamp } from "./restart.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(restartStamp(new Date("2026-12-01T20:45:00.123Z")), "20261201T204500Z");
 * ```
 */
export function restartStamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(/[-:]/g, "");
}

function portable(path: string): string {
  return path.replaceAll("\\", "/");
}

// Point the moved rows' file paths at the moved folder (rows are relative to their file's folder).
async function rewritePaths(file: string, fromDir: string, toDir: string): Promise<void> {
  const base = dirname(file);
  const from = `${portable(relative(base, fromDir))}/`;
  const to = `${portable(relative(base, toDir))}/`;
  const text = await Deno.readTextFile(file);
  const lines = text.split("\n").map((line) => {
    if (line.trim() === "") return line;
    let row: Record<string, unknown>;
    try {
      row = parseJsonLossless(line) as Record<string, unknown>;
    } catch {
      return line; // kept as it was: the old file is evidence, not ours to fix
    }
    let changed = false;
    for (const key of ["trace", "receipt", "injected"]) {
      const value = row[key];
      if (typeof value === "string" && value.startsWith(from)) {
        row[key] = `${to}${value.slice(from.length)}`;
        changed = true;
      }
    }
    return changed ? JSON.stringify(row) : line;
  });
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, lines.join("\n"));
  await Deno.rename(temp, file);
}

/**
 * Move an output, its out-dir and its sidecars aside.
 *
 * @param output The JSONL file.
 * @param outDir Its traces and receipts folder.
 * @param now The time, for the names.
 * @returns What was moved (nothing when there was nothing).
 * @throws {InputError} When a file cannot be moved, naming it.
 *
 * @example Usage
 * ```ts ignore
 * import { restartOutput } from "./restart.ts";
 *
 * const moved = await restartOutput("runs.jsonl", "runs", new Date());
 * // [["runs.jsonl", "runs.20261201T204500Z.jsonl"], ["runs", "runs.20261201T204500Z"]]
 * ```
 */
export async function restartOutput(output: string, outDir: string, now: Date): Promise<Moved> {
  const folder = dirname(output);
  const name = basename(output);
  const ext = extname(name);
  const stem = ext === "" ? name : name.slice(0, -ext.length);
  const stamp = restartStamp(now);
  let suffix = "";
  for (let n = 2;; n++) {
    const candidate = join(folder, `${stem}.${stamp}${suffix}${ext}`);
    const taken = await pathExists(candidate) || await pathExists(spendLedgerPath(candidate)) ||
      await pathExists(`${outDir}.${stamp}${suffix}`);
    if (!taken) break;
    if (n > 1000) throw new InputError("too many restarts in one second; wait and retry", output);
    suffix = `-${n}`;
  }
  const movedOutput = join(folder, `${stem}.${stamp}${suffix}${ext}`);
  const movedDir = `${outDir}.${stamp}${suffix}`;
  const lock = basename(lockPathOf(output));
  const moves: Moved = [];
  if (await pathExists(output)) moves.push([output, movedOutput]);
  if (await pathExists(outDir)) moves.push([outDir, movedDir]);
  // The budget ledger: moved with its rows, so the restarted matrix starts a new budget.
  const ledger = spendLedgerPath(output);
  if (await pathExists(ledger)) moves.push([ledger, spendLedgerPath(movedOutput)]);
  for await (const entry of Deno.readDir(folder === "" ? "." : folder)) {
    if (entry.name.startsWith(`${name}.`) && entry.name !== lock) {
      moves.push([join(folder, entry.name), `${movedOutput}${entry.name.slice(name.length)}`]);
    }
  }
  for (const [from, to] of moves) {
    try {
      await Deno.rename(from, to);
    } catch (error) {
      throw new InputError(`cannot move it aside to ${to} (${(error as Error).message})`, from);
    }
  }
  if (moves.some(([from]) => from === output) && moves.some(([from]) => from === outDir)) {
    await rewritePaths(movedOutput, outDir, movedDir);
  }
  return moves;
}
