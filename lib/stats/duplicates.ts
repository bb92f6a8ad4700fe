/**
 * No run counted twice: the one duplicate-row check that `compare`,
 * `select`, `decide`, `plan` and `export` share (issue 29). Rows are keyed
 * by (variant, run id) when the run id is non-empty:
 *
 * - an exact duplicate (the same row again, equal as canonical JSON: a file
 *   given twice, a shard concatenated twice) counts once, with one note;
 * - two different rows with one key stop the command (exit 2), naming both
 *   files and lines: one run with two results cannot be scored;
 * - two rows of one (variant, task, repeat) with different run ids stop it
 *   too: one cell under two specs, which would otherwise silently pair the
 *   wrong runs (or turn the paired test off).
 *
 * Rows without a run id are exempt (nothing identifies them), and so are
 * runs named by a file stem (`compare --traces`, and exported records of
 * traces and receipts): their exact duplicates still count once, but a stem
 * says nothing about which spec made the run, so they never conflict.
 *
 * Memory: two entries per distinct run in typed arrays (`_row_hash.ts`: a
 * 64-bit key, a 32-bit fingerprint, a place), about 55 bytes a row, so an
 * export of a million rows stays bounded. Keys and fingerprints are hashes:
 * two of n different runs taken for one has a chance of about n² / 2^65,
 * and two different rows of one run taken for one row 2^-32.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { fingerprint, key64, KeyTable } from "./_row_hash.ts";

/** Where a row is: its file and 1-based line. */
export interface RowPlace {
  /** The file, as given. */
  file: string;
  /** The 1-based line. */
  line: number;
}

/** What identifies a row's run. */
export interface RowRun {
  /** The variant. */
  variant: string;
  /** The task (`""` when the row names none). */
  task: string;
  /** The repeat, `null` when unknown. */
  repeat: number | null;
  /** The run id, `""` when the row has none. */
  runId: string;
}

/**
 * Two rows that cannot both be counted. The CLI exits 2.
 *
 * @example Usage
 * ```ts
 * import { DuplicateRunError, InputError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const error = new DuplicateRunError("a second, different row of run \"r1\"", "b.jsonl:3");
 * assert.ok(error instanceof InputError);
 * assert.equal(error.message, 'b.jsonl:3: a second, different row of run "r1"');
 * ```
 */
export class DuplicateRunError extends InputError {
  /**
   * Create the error.
   *
   * @param message What the two rows are and what to do.
   * @param where The second row's `file:line`.
   */
  constructor(message: string, where: string) {
    super(message, where);
    this.name = "DuplicateRunError";
  }
}

/**
 * The fingerprint exact duplicates are found by: equal for rows equal as
 * canonical JSON (key order and spacing do not matter).
 *
 * @param row A parsed row.
 * @returns An unsigned 32-bit number.
 *
 * @example Usage
 * ```ts
 * import { rowFingerprint } from "./duplicates.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(rowFingerprint({ a: 1, b: [2, { c: 3, d: 4 }] }), rowFingerprint({ b: [2, { d: 4, c: 3 }], a: 1 }));
 * assert.notEqual(rowFingerprint({ a: 1 }), rowFingerprint({ a: 2 }));
 * ```
 */
export function rowFingerprint(row: unknown): number {
  return fingerprint(row);
}

/**
 * Whether a row is an exported record of a trace or a receipt, whose run id
 * is a file stem (exempt from conflicts, see the module doc).
 *
 * @param row A parsed row.
 * @returns `true` for a record whose `source.kind` is `trace` or `receipt`.
 *
 * @example Usage
 * ```ts
 * import { isStemNamedRecord } from "./duplicates.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isStemNamedRecord({ record_type: "run", source: { kind: "trace" } }), true);
 * assert.equal(isStemNamedRecord({ arm_id: "mini", run_id: "r" }), false);
 * ```
 */
export function isStemNamedRecord(row: unknown): boolean {
  if (!isJsonObject(row) || row.record_type !== "run" || !isJsonObject(row.source)) return false;
  return row.source.kind === "trace" || row.source.kind === "receipt";
}

/** Options for {@linkcode RunRowIndex.add}. */
export interface AddRowOptions {
  /**
   * The run is named by a file stem (a trace or receipt): its exact
   * duplicates count once, but it never conflicts.
   * @default {false}
   */
  stemNamed?: boolean;
}

/**
 * The rows seen so far, by run: add each row before counting it.
 *
 * @example Usage
 * ```ts
 * import { RunRowIndex } from "./duplicates.ts";
 * import assert from "node:assert/strict";
 *
 * const index = new RunRowIndex();
 * const run = { variant: "mini", task: "refund", repeat: 0, runId: "mini.refund.0.abc" };
 * const row = { arm_id: "mini", run_id: "mini.refund.0.abc", passed: true };
 * assert.equal(index.add(run, row, { file: "a.jsonl", line: 1 }), true);
 * assert.equal(index.add(run, { ...row }, { file: "b.jsonl", line: 1 }), false);
 * assert.throws(
 *   () => index.add(run, { ...row, passed: false }, { file: "b.jsonl", line: 2 }),
 *   /^DuplicateRunError: b\.jsonl:2: .*a\.jsonl:1/,
 * );
 * assert.deepEqual(index.notes(), ["1 row given twice counted once (b.jsonl:1 repeats a.jsonl:1)"]);
 * ```
 */
export class RunRowIndex {
  #files: string[] = [];
  #fileIndex = new Map<string, number>();
  // (variant, run id) → fingerprint and place; (variant, task, repeat) → run id hash and place.
  // Keys are 64-bit hashes: two of n different keys alike has a chance of about n² / 2^65.
  #byRun = new KeyTable();
  #byCell = new KeyTable();
  #duplicates = 0;
  #firstDuplicate: string | null = null;

  #file(file: string): number {
    let index = this.#fileIndex.get(file);
    if (index === undefined) {
      index = this.#files.push(file) - 1;
      this.#fileIndex.set(file, index);
    }
    return index;
  }

  #where(file: number, line: number): string {
    return `${this.#files[file]}:${line}`;
  }

  /**
   * Add a row.
   *
   * @param run The row's run.
   * @param row The parsed row, for its fingerprint.
   * @param place Its file and line.
   * @param options Whether the run is named by a file stem.
   * @returns `true` when the row counts, `false` when it is an exact duplicate of an earlier one.
   * @throws {DuplicateRunError} When a different row has the same key, or the same
   *   (variant, task, repeat) has another run id.
   */
  add(run: RowRun, row: unknown, place: RowPlace, options: AddRowOptions = {}): boolean {
    if (run.runId === "") return true;
    const key = key64("run", run.variant, run.runId);
    const print = fingerprint(row);
    const here = `${place.file}:${place.line}`;
    const seen = this.#byRun.get(key);
    if (seen !== undefined) {
      if (seen[0] === print) {
        this.#duplicates++;
        this.#firstDuplicate ??= `${here} repeats ${this.#where(seen[1], seen[2])}`;
        return false;
      }
      if (options.stemNamed === true) return true;
      throw new DuplicateRunError(
        `a second, different row of run ${JSON.stringify(run.runId)} (variant ${
          JSON.stringify(run.variant)
        }); the first is ${
          this.#where(seen[1], seen[2])
        }. One run cannot have two results: keep one of the rows`,
        here,
      );
    }
    const file = this.#file(place.file);
    this.#byRun.set(key, print, file, place.line);
    if (options.stemNamed !== true && run.repeat !== null) {
      const cell = key64("cell", run.variant, run.task, String(run.repeat));
      const id = fingerprint(run.runId);
      const other = this.#byCell.get(cell);
      if (other !== undefined && other[0] !== id) {
        throw new DuplicateRunError(
          `variant ${JSON.stringify(run.variant)}, task ${
            JSON.stringify(run.task)
          }, repeat ${run.repeat} ` +
            `is run ${JSON.stringify(run.runId)} here but another run id at ${
              this.#where(other[1], other[2])
            }: one run under two specs (the spec changed between them). ` +
            "Compare rows of one spec: leave one file out, or rerun with agent run --restart",
          here,
        );
      }
      if (other === undefined) this.#byCell.set(cell, id, file, place.line);
    }
    return true;
  }

  /** How many exact duplicates were left out. */
  get duplicates(): number {
    return this.#duplicates;
  }

  /**
   * The note to print: how many rows were given twice and counted once.
   *
   * @returns One line, or none when there was no duplicate.
   */
  notes(): string[] {
    if (this.#duplicates === 0) return [];
    return [
      `${this.#duplicates} row${
        this.#duplicates === 1 ? "" : "s"
      } given twice counted once (${this.#firstDuplicate}${this.#duplicates > 1 ? ", …" : ""})`,
    ];
  }
}
