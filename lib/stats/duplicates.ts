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
 * Memory: one entry per distinct run (two strings and two numbers), so an
 * export of a million rows keeps a million entries.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { isJsonObject } from "../scoring/calls.ts";

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

/** Two rows that cannot both be counted. The CLI exits 2. */
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

// A 53-bit hash (cyrb53) of a row's canonical text: compared only between rows with one key,
// so a collision needs two different rows of one run to hash alike.
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

// Keys sorted at every level: for values parsed from JSON this is their RFC 8785 text (same
// number and string forms as JSON.stringify, keys by UTF-16 code units), at a fraction of the
// cost, which matters for an export of a million rows.
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

/**
 * The fingerprint exact duplicates are found by: equal for rows equal as
 * canonical JSON (key order and spacing do not matter).
 *
 * @param row A parsed row.
 * @returns A number below 2^53.
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
  return hash53(JSON.stringify(row, sortedKeys) ?? "undefined");
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
  // (variant, run id) → entry; (variant, task, repeat) → the run id's key.
  #byRun = new Map<string, number>();
  #byCell = new Map<string, string>();
  #fingerprints: number[] = [];
  #places: number[] = [];
  #duplicates = 0;
  #firstDuplicate: string | null = null;

  #place(place: RowPlace): number {
    let file = this.#fileIndex.get(place.file);
    if (file === undefined) {
      file = this.#files.push(place.file) - 1;
      this.#fileIndex.set(place.file, file);
    }
    return file * 2 ** 32 + place.line;
  }

  #where(packed: number): string {
    return `${this.#files[Math.floor(packed / 2 ** 32)]}:${packed % 2 ** 32}`;
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
    const key = JSON.stringify([run.variant, run.runId]);
    const fingerprint = rowFingerprint(row);
    const here = `${place.file}:${place.line}`;
    const seen = this.#byRun.get(key);
    if (seen !== undefined) {
      if (this.#fingerprints[seen] === fingerprint) {
        this.#duplicates++;
        this.#firstDuplicate ??= `${here} repeats ${this.#where(this.#places[seen]!)}`;
        return false;
      }
      if (options.stemNamed === true) return true;
      throw new DuplicateRunError(
        `a second, different row of run ${JSON.stringify(run.runId)} (variant ${
          JSON.stringify(run.variant)
        }); the first is ${
          this.#where(this.#places[seen]!)
        }. One run cannot have two results: keep one of the rows`,
        here,
      );
    }
    const entry = this.#fingerprints.push(fingerprint) - 1;
    this.#places.push(this.#place(place));
    this.#byRun.set(key, entry);
    if (options.stemNamed !== true && run.repeat !== null) {
      const cell = JSON.stringify([run.variant, run.task, run.repeat]);
      const other = this.#byCell.get(cell);
      if (other !== undefined) {
        const first = this.#byRun.get(other)!;
        const otherId = (JSON.parse(other) as string[])[1];
        throw new DuplicateRunError(
          `variant ${JSON.stringify(run.variant)}, task ${
            JSON.stringify(run.task)
          }, repeat ${run.repeat} ` +
            `is run ${JSON.stringify(run.runId)} here but ${JSON.stringify(otherId)} at ${
              this.#where(this.#places[first]!)
            }: one run under two specs (the spec changed between them). ` +
            "Compare rows of one spec: leave one file out, or rerun with agent run --restart",
          here,
        );
      }
      this.#byCell.set(cell, key);
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
