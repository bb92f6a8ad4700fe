/**
 * The summary of an `eval` run against a gold folder (issues 43 and 44),
 * kept as the traces' rows come in (from this thread or a worker's):
 *
 * - per benchmark and category (a contract's `source.benchmark` and
 *   `source.category`; a contract with a category and no benchmark is grouped
 *   under `"unnamed"`), BFCL's score-file figures
 *   `{accuracy, correct_count, total_count}` — `--json`'s
 *   `summary.categories.<benchmark>.<category>` and one console line each.
 *   They count the traces scored, so a category whose results are partial
 *   says so only through `total_count` and the contracts listed as having no
 *   trace;
 * - the contracts with no trace (`summary.contracts_without_trace`, and a
 *   console line with the first ten);
 * - the waived traces (`--waivers`): scored and shown, counted in the
 *   summary's `count`, `passed` and `failed` (every trace scored), but left
 *   out of the category figures and of the gate, and listed apart
 *   (`summary.waived`, console lines).
 *
 * The same entry scored twice (the same BFCL id, the same run `task#trial`,
 * the same trace name) under a category would count twice: that stops the run
 * (exit 2).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import type { GoldFolderRun, GoldRow, Waiver } from "./eval_gold_types.ts";

/** BFCL's score-file figures of one category. */
export interface CategoryScore {
  /** `correct_count / total_count`. */
  accuracy: number;
  /** Traces that passed. */
  correct_count: number;
  /** Traces scored (waived ones left out). */
  total_count: number;
}

/** One waived trace, as the summary lists it. */
export interface WaivedTrace extends Waiver {
  /** The trace. */
  trace: string;
  /** Whether it passed (it counts for nothing either way). */
  passed: boolean;
}

const SHOWN = 10;

/** At most this many category lines on the console; `--json` has them all. */
const MAX_CATEGORY_LINES = 100;

function listed(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN).join(", ");
  return items.length > SHOWN ? `${shown} and ${items.length - SHOWN} more` : shown;
}

/**
 * The gold folder's summary, kept as rows come in.
 *
 * @example Usage
 * ```ts
 * import { GoldTally } from "./eval_gold_summary.ts";
 * import assert from "node:assert/strict";
 *
 * const tally = new GoldTally(undefined); // GOLD a file: nothing to add
 * tally.add(undefined);
 * assert.deepEqual(tally.summary(), {});
 * assert.deepEqual(tally.consoleLines(), []);
 * ```
 */
export class GoldTally {
  readonly #run: GoldFolderRun | undefined;
  readonly #seen = new Set<string>();
  readonly #counts = new Map<string, Map<string, { correct: number; total: number }>>();
  readonly #scoredContracts = new Set<string>();
  /** The waived traces, in run order. */
  readonly waived: WaivedTrace[] = [];
  /** Waived traces that failed: left out of the gate. */
  waivedFailed = 0;
  /** The rows of BFCL traces, kept for `--bfcl-score` (failures with their detail). */
  readonly bfclRows: GoldRow[] = [];

  /**
   * A tally for a run.
   *
   * @param run The gold folder run, or `undefined` (a gold file: the tally stays empty).
   */
  constructor(run: GoldFolderRun | undefined) {
    this.#run = run;
  }

  /** Whether the run has a gold folder. */
  get active(): boolean {
    return this.#run !== undefined;
  }

  /**
   * Count a slice's rows.
   *
   * @param rows The rows, in order.
   * @throws {InputError} When an entry of a category is scored twice.
   */
  add(rows: readonly GoldRow[] | undefined): void {
    for (const row of rows ?? []) {
      this.#scoredContracts.add(row.contract);
      if (row.waived !== undefined) {
        this.waived.push({ ...row.waived, trace: row.trace, passed: row.passed });
        if (!row.passed) this.waivedFailed++;
      }
      if (row.category === undefined) continue;
      const benchmark = row.benchmark ?? "unnamed";
      const key = JSON.stringify([benchmark, row.category, row.entry]);
      if (this.#seen.has(key)) {
        throw new InputError(
          `${row.entry} is scored twice (category ${row.category}); it would count twice in ` +
            `the accuracy: give each result once`,
          row.trace,
        );
      }
      this.#seen.add(key);
      if (benchmark === "bfcl" && this.#run?.bfclScore !== undefined) this.bfclRows.push(row);
      if (row.waived !== undefined) continue;
      let categories = this.#counts.get(benchmark);
      if (categories === undefined) this.#counts.set(benchmark, categories = new Map());
      const count = categories.get(row.category) ?? { correct: 0, total: 0 };
      count.total++;
      if (row.passed) count.correct++;
      categories.set(row.category, count);
    }
  }

  /**
   * Per benchmark and category, BFCL's score figures (sorted by name).
   *
   * @returns `{benchmark: {category: {accuracy, correct_count, total_count}}}`.
   */
  categories(): Record<string, Record<string, CategoryScore>> {
    const out: Record<string, Record<string, CategoryScore>> = {};
    for (const benchmark of [...this.#counts.keys()].sort()) {
      const categories = this.#counts.get(benchmark)!;
      const group: Record<string, CategoryScore> = {};
      for (const category of [...categories.keys()].sort()) {
        const { correct, total } = categories.get(category)!;
        group[category] = { accuracy: correct / total, correct_count: correct, total_count: total };
      }
      out[benchmark] = group;
    }
    return out;
  }

  /**
   * The folder's contracts no trace was scored against, in folder order.
   *
   * @returns Their ids.
   */
  withoutTrace(): string[] {
    if (this.#run === undefined) return [];
    return this.#run.folder.entries.map((entry) => entry.id)
      .filter((id) => !this.#scoredContracts.has(id));
  }

  /**
   * What `--json`'s summary gains: the gold folder, the categories, the
   * contracts without a trace and the waived traces.
   *
   * @returns The keys to add (none without a gold folder).
   */
  summary(): Record<string, unknown> {
    if (this.#run === undefined) return {};
    const categories = this.categories();
    return {
      gold_folder: { path: this.#run.folder.dir, contracts: this.#run.folder.entries.length },
      ...(Object.keys(categories).length > 0 ? { categories } : {}),
      contracts_without_trace: this.withoutTrace(),
      ...(this.#run.waivers.size > 0 ? { waived: this.waived } : {}),
    };
  }

  /**
   * The console lines: the folder, each category, the waived traces.
   *
   * @returns The lines (none without a gold folder).
   */
  consoleLines(): string[] {
    if (this.#run === undefined) return [];
    const { folder } = this.#run;
    const missing = this.withoutTrace();
    const lines = [
      `gold folder ${folder.dir}: ${folder.entries.length} contracts, ` +
      `${folder.entries.length - missing.length} scored` +
      (missing.length > 0 ? `, ${missing.length} without a trace: ${listed(missing)}` : ""),
    ];
    const categories = this.categories();
    let shown = 0;
    let more = 0;
    for (const [benchmark, group] of Object.entries(categories)) {
      for (const [category, score] of Object.entries(group)) {
        if (++shown > MAX_CATEGORY_LINES) {
          more++;
          continue;
        }
        lines.push(
          `  ${benchmark} ${category}: accuracy ${score.accuracy.toFixed(4)} ` +
            `(${score.correct_count} of ${score.total_count})`,
        );
      }
    }
    if (more > 0) lines.push(`  and ${more} more categories (--json lists them all)`);
    if (this.waived.length > 0) {
      lines.push(
        `waived: ${this.waived.length} ${this.waived.length === 1 ? "trace" : "traces"} ` +
          `left out of the category figures and the gate:`,
      );
      for (const one of this.waived.slice(0, SHOWN)) {
        lines.push(
          `  ${one.trace} (${one.id}, ${one.passed ? "passed" : "failed"}): ${one.reason}` +
            (one.link !== null ? ` ${one.link}` : ""),
        );
      }
      if (this.waived.length > SHOWN) lines.push(`  and ${this.waived.length - SHOWN} more`);
    }
    return lines;
  }
}
