/**
 * Each exported record's `task_class`: how its task behaved under its
 * variant over the export's inputs (issue 41). The classes are counted in a
 * first pass over the records, so the second pass can stream: memory grows
 * with the (variant, task) pairs, not with the records.
 *
 * @module
 */

import { type TaskClassName, taskClassOf } from "../stats/variant_stats.ts";
import type { RunRecord } from "./schema.ts";
import { recordSha256Async } from "./validate.ts";

/** Passes and runs per (variant, task), keyed by `JSON.stringify([variant, task])`. */
export type TaskTally = Map<string, { passes: number; n: number }>;

function keyOf(record: RunRecord): string {
  return JSON.stringify([record.variant, record.task]);
}

/**
 * Count passes and runs per (variant, task) over records; errors and
 * unknowns count as runs that did not pass (`errors: fail`).
 *
 * @param records The export's records.
 * @returns The tally.
 *
 * @example Usage
 * ```ts
 * import { tallyTasks } from "./task_class.ts";
 * import { recordFromRun } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * const record = recordFromRun({ arm_id: "a", task_id: "t", passed: true }, source);
 * const tally = await tallyTasks([record, record]);
 * assert.deepEqual(tally.get('["a","t"]'), { passes: 2, n: 2 });
 * ```
 */
export async function tallyTasks(
  records: Iterable<RunRecord> | AsyncIterable<RunRecord>,
): Promise<TaskTally> {
  const tally: TaskTally = new Map();
  for await (const record of records) {
    const key = keyOf(record);
    const entry = tally.get(key) ?? { passes: 0, n: 0 };
    entry.n++;
    if (record.outcome === "pass") entry.passes++;
    tally.set(key, entry);
  }
  return tally;
}

/**
 * The records with their `task_class` from a tally, each resealed
 * (`hashes.record_sha256` over the record with its class).
 *
 * @param records The records, as {@linkcode tallyTasks} counted them.
 * @param tally The tally.
 * @returns The records with `task_class`, in order.
 *
 * @example Usage
 * ```ts
 * import { tallyTasks, withTaskClass } from "./task_class.ts";
 * import { recordFromRun } from "./record.ts";
 * import { validateRecord } from "./validate.ts";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * const records = [
 *   recordFromRun({ arm_id: "a", task_id: "t", repeat: 0, passed: true }, source),
 *   recordFromRun({ arm_id: "a", task_id: "t", repeat: 1, passed: false }, source),
 * ];
 * const classed = [];
 * for await (const record of withTaskClass(records, await tallyTasks(records))) classed.push(record);
 * assert.equal(classed[0]!.task_class, "flaky");
 * assert.deepEqual(validateRecord(classed[0]), []);
 * ```
 */
export async function* withTaskClass(
  records: Iterable<RunRecord> | AsyncIterable<RunRecord>,
  tally: TaskTally,
): AsyncGenerator<RunRecord> {
  for await (const record of records) {
    const entry = tally.get(keyOf(record));
    const taskClass: TaskClassName = entry === undefined
      ? "single"
      : taskClassOf(entry.passes, entry.n);
    const { source, producer, hashes, ...rest } = record;
    const next: RunRecord = {
      ...rest,
      task_class: taskClass,
      source,
      producer,
      hashes: { ...hashes, record_sha256: "" },
    };
    next.hashes.record_sha256 = await recordSha256Async(next as unknown as Record<string, unknown>);
    yield next;
  }
}
