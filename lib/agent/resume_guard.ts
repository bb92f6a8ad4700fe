/**
 * The resume guard (issue 29): before a rerun makes any model call, every
 * row already in the output is checked against the matrix as planned now.
 *
 * - A row whose (arm, task, repeat) is planned but whose run id differs was
 *   made under another spec: the command stops (exit 2), naming the arms and
 *   tasks that changed and the fields (from the row's `identity` digests),
 *   and the rows stay as they are. Mixing them with new rows would put two
 *   specs in one comparison.
 * - A row of an arm or task no longer in the spec (or a repeat beyond
 *   `repeats`) stays in the file and is not run; one note says how many.
 *
 * The guard checks against the whole matrix, not only the shard: a shard's
 * file holds only its own rows, and a row of another shard is still a row of
 * this spec.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import type { PlannedRun } from "./plan.ts";
import { runKey } from "./plan.ts";
import { changedFields } from "./run_identity.ts";

/**
 * Rows made under another spec. The CLI exits 2.
 *
 * @example Usage
 * ```ts
 * import { SpecChangedError } from "./resume_guard.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new SpecChangedError("2 rows…", "runs.jsonl").name, "SpecChangedError");
 * ```
 */
export class SpecChangedError extends InputError {
  /**
   * Create the error.
   *
   * @param message Which arms, tasks and fields changed, and what to do.
   * @param where The output file.
   */
  constructor(message: string, where: string) {
    super(message, where);
    this.name = "SpecChangedError";
  }
}

function isDigests(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listed(names: Iterable<string>, cap = 6): string {
  const all = [...names];
  return all.length > cap ? `${all.slice(0, cap).join(", ")}, … (${all.length})` : all.join(", ");
}

/**
 * Check the rows of an output against the planned matrix.
 *
 * @param rows The output's rows by run key.
 * @param planned Every run of the spec (the whole matrix).
 * @param output The output file, for messages.
 * @returns The notes to print (rows of arms or tasks no longer planned).
 * @throws {SpecChangedError} When a planned run's row has another run id.
 *
 * @example Usage
 * ```ts
 * import { checkResume } from "./resume_guard.ts";
 * import { runKey } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * const run = {
 *   runId: "a.t.0.new", identity: { "arm.model": "222" }, arm: { id: "a" }, task: { id: "t" },
 *   repeat: 0, index: 0,
 * };
 * const row = { run_id: "a.t.0.old", arm_id: "a", task_id: "t", repeat: 0, identity: { "arm.model": "111" } };
 * const rows = new Map([[runKey("a", "t", 0), row]]);
 * assert.throws(() => checkResume(rows, [run as never], "runs.jsonl"), /arm a: model/);
 * const gone = new Map([[runKey("b", "t", 0), { ...row, arm_id: "b" }]]);
 * assert.match(checkResume(gone, [run as never], "runs.jsonl")[0]!, /^1 row no longer in the spec \(arm b\)/);
 * ```
 */
export function checkResume(
  rows: ReadonlyMap<string, Record<string, unknown>>,
  planned: readonly PlannedRun[],
  output: string,
): string[] {
  const byKey = new Map(planned.map((run) => [runKey(run.arm.id, run.task.id, run.repeat), run]));
  const changes = new Map<string, Set<string>>();
  const note = (scope: string, field: string) => {
    const fields = changes.get(scope) ?? new Set<string>();
    fields.add(field);
    changes.set(scope, fields);
  };
  let changed = 0;
  let legacy = 0;
  const gone = { rows: 0, arms: new Set<string>(), tasks: new Set<string>(), repeats: 0 };
  const armIds = new Set(planned.map((run) => run.arm.id));
  const taskIds = new Set(planned.map((run) => run.task.id));
  for (const [key, row] of rows) {
    const run = byKey.get(key);
    if (run === undefined) {
      gone.rows++;
      const [arm, task] = JSON.parse(key) as [string, string, number];
      if (!armIds.has(arm)) gone.arms.add(arm);
      else if (!taskIds.has(task)) gone.tasks.add(task);
      else gone.repeats++;
      continue;
    }
    if (row.run_id === run.runId) continue;
    changed++;
    if (!isDigests(row.identity)) {
      legacy++;
      continue;
    }
    for (const field of changedFields(row.identity, run.identity)) {
      const [scope, name] = field.startsWith("arm.")
        ? [`arm ${run.arm.id}`, field.slice(4)]
        : field.startsWith("task.")
        ? [`task ${run.task.id}`, field.slice(5)]
        : ["the spec", field];
      note(scope, name);
    }
  }
  if (changed > 0) {
    const scopes = [...changes].map(([scope, fields]) => `${scope}: ${listed(fields)}`);
    const parts = scopes.length > 6
      ? [...scopes.slice(0, 6), `… (${scopes.length - 6} more arms and tasks)`]
      : scopes;
    if (parts.length === 0 && legacy < changed) parts.push("the run ids differ");
    if (legacy > 0) {
      parts.push(
        `${legacy} row${
          legacy === 1 ? "" : "s"
        } from an older toolscore (run ids of the whole spec)`,
      );
    }
    throw new SpecChangedError(
      `${changed} row${changed === 1 ? " was" : "s were"} written under another spec (${
        parts.join("; ")
      }); nothing was run and the rows are unchanged. Restore the spec, or start over with ` +
        "--restart (the old rows move aside), or write to a new -o",
      output,
    );
  }
  if (gone.rows === 0) return [];
  const what = [
    gone.arms.size > 0 ? `arm ${listed(gone.arms)}` : "",
    gone.tasks.size > 0 ? `task ${listed(gone.tasks)}` : "",
    gone.repeats > 0 ? "repeats beyond the spec's" : "",
  ].filter((part) => part !== "").join("; ");
  const many = gone.rows !== 1;
  return [
    `${gone.rows} row${many ? "s" : ""} no longer in the spec (${what}) ${
      many ? "stay" : "stays"
    } in ${output} and ${many ? "are" : "is"} not run`,
  ];
}
