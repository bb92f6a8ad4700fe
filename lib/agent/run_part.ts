/**
 * A plan engines can split (issue 40): `agent run SPEC --plan-out PLAN.jsonl`
 * writes one line per planned run — `{schema: "toolscore.agent_plan/1",
 * run_id, arm_id, task_id, repeat, cell, index}`, in matrix order, the ids
 * those a run writes — and `agent run SPEC --runs PART.jsonl` runs exactly
 * the runs a part of those lines names (any split: by line, by cell, by arm).
 * A part may hold only run ids this spec plans: a line of another spec's
 * plan stops the command (exit 2) before any server or model starts.
 *
 * Shards: `--shard k/n` (1-based), `--shard-index I --shard-count N`
 * (0-based, as a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` gives it),
 * or the environment variable `TOOLSCORE_SHARD=k/n` (read only with
 * `--allow-env=TOOLSCORE_SHARD`); a flag wins over the variable. Every
 * form takes whole cells.
 *
 * A part's budget cap is `budget.per_shard_usd` when the spec sets it, else
 * `max_usd × runs in the part / runs planned` (a shard's is `max_usd / n`).
 *
 * @module
 */

import { InputError, UsageError } from "../base/errors.ts";
import { fileLineBlocks, parseJsonLine } from "../base/jsonl_lines.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { parseShard, type PlannedRun, type Shard } from "./plan.ts";

/** The schema name of a plan line. */
export const PLAN_SCHEMA = "toolscore.agent_plan/1";

/** The environment variable a shard may be given by. */
export const SHARD_ENV = "TOOLSCORE_SHARD";

/** The most lines a part file may hold (a plan of this many runs is far past any matrix). */
const MAX_PART_LINES = 1_000_000;

/**
 * The lines of a plan file, one per planned run.
 *
 * @param runs The planned runs (`planRuns` with the real digests, so the ids are those a run writes).
 * @returns The JSONL text, one line per run, in matrix order.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { planRuns } from "./plan.ts";
 * import { planLines } from "./run_part.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   repeats: 2,
 * });
 * const lines = planLines(planRuns(spec)).trim().split("\n").map((line) => JSON.parse(line));
 * assert.deepEqual(lines.map((line) => [line.task_id, line.repeat, line.cell]), [["t", 0, 0], ["t", 1, 1]]);
 * ```
 */
export function planLines(runs: readonly PlannedRun[]): string {
  return runs.map((run) =>
    `${
      JSON.stringify({
        schema: PLAN_SCHEMA,
        run_id: run.runId,
        arm_id: run.arm.id,
        task_id: run.task.id,
        repeat: run.repeat,
        cell: run.cell,
        index: run.index,
      })
    }\n`
  ).join("");
}

/**
 * Read a part of a plan: the run ids its lines name, in file order. Blank
 * lines are skipped; a line naming a run id twice counts once.
 *
 * @param path The part file (lines of `--plan-out`).
 * @returns The run ids, with the `file:line` of each.
 * @throws {InputError} When the file cannot be read, or a line is not a plan line.
 *
 * @example Usage
 * ```ts ignore
 * import { readRunPart } from "./run_part.ts";
 *
 * const part = await readRunPart("part-1.jsonl"); // Map { "a.t.0.0123456789ab" => "part-1.jsonl:1", … }
 * ```
 */
export async function readRunPart(path: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let lines = 0;
  for await (const block of fileLineBlocks(path)) {
    for (const { text, line } of block) {
      if (++lines > MAX_PART_LINES) {
        throw new InputError(`more than ${MAX_PART_LINES} lines; split the plan further`, path);
      }
      if (text.trim() === "") continue;
      const where = `${path}:${line}`;
      const value = parseJsonLine(text, where);
      if (!isJsonObject(value) || typeof value.run_id !== "string" || value.run_id === "") {
        throw new InputError(
          "expected a plan line {run_id, arm_id, task_id, repeat, cell} (written by agent run --plan-out)",
          where,
        );
      }
      if (!ids.has(value.run_id)) ids.set(value.run_id, where);
    }
  }
  return ids;
}

/**
 * The planned runs a part names, in matrix order.
 *
 * @param planned Every run the spec plans (`planRuns` with the real digests).
 * @param part The part's run ids ({@linkcode readRunPart}).
 * @returns The runs of the part.
 * @throws {InputError} When the part names a run id the spec does not plan, at its `file:line`.
 *
 * @example Usage
 * ```ts
 * import { selectPart } from "./run_part.ts";
 * import assert from "node:assert/strict";
 *
 * const planned = [{ runId: "a.t.0.x", index: 0 }, { runId: "a.t.1.y", index: 1 }] as never[];
 * assert.deepEqual(selectPart(planned, new Map([["a.t.1.y", "p.jsonl:1"]])).map((r: { index: number }) => r.index), [1]);
 * assert.throws(() => selectPart(planned, new Map([["a.t.2.z", "p.jsonl:1"]])), /p\.jsonl:1: run "a\.t\.2\.z" is not planned/);
 * ```
 */
export function selectPart(
  planned: readonly PlannedRun[],
  part: ReadonlyMap<string, string>,
): PlannedRun[] {
  const ids = new Set(planned.map((run) => run.runId));
  for (const [id, where] of part) {
    if (!ids.has(id)) {
      throw new InputError(
        `run ${JSON.stringify(id)} is not planned by this spec (the spec or a contract changed ` +
          "since the plan was written?); write the plan again with agent run SPEC --plan-out",
        where,
      );
    }
  }
  return planned.filter((run) => part.has(run.runId));
}

/**
 * The budget cap of a part: `budget.per_shard_usd`, else the part's share of `max_usd`.
 *
 * @param maxUsd The spec's `budget.max_usd` (`null`: no budget).
 * @param perShardUsd The spec's `budget.per_shard_usd` (`null` when unset).
 * @param partRuns Runs in the part.
 * @param plannedRuns Runs the spec plans.
 * @returns The cap in USD, `null` without a budget.
 *
 * @example Usage
 * ```ts
 * import { partCapUsd } from "./run_part.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(partCapUsd(12, null, 4, 12), 4);
 * assert.equal(partCapUsd(12, 5, 4, 12), 5);
 * assert.equal(partCapUsd(null, null, 4, 12), null);
 * ```
 */
export function partCapUsd(
  maxUsd: number | null,
  perShardUsd: number | null,
  partRuns: number,
  plannedRuns: number,
): number | null {
  if (perShardUsd !== null) return perShardUsd;
  if (maxUsd === null) return null;
  return plannedRuns === 0 ? 0 : (maxUsd * partRuns) / plannedRuns;
}

/** The shard flags and variable, as given. */
export interface ShardInputs {
  /** `--shard k/n`. */
  shard?: string;
  /** `--shard-index I` (0-based). */
  shardIndex?: string;
  /** `--shard-count N`. */
  shardCount?: string;
  /** `TOOLSCORE_SHARD` (`undefined` when unset or not permitted). */
  env?: string;
}

function wholeNumber(text: string, flag: string): number {
  if (!/^\s*\d{1,6}\s*$/.test(text)) {
    throw new UsageError(`${flag} ${text}: expected a whole number`);
  }
  return Number(text);
}

/**
 * The shard to run, from `--shard k/n`, `--shard-index I --shard-count N`
 * or `TOOLSCORE_SHARD=k/n` (a flag wins over the variable).
 *
 * @param inputs The flags' and the variable's values.
 * @returns The shard (1-based `k`), `undefined` for the whole matrix.
 * @throws {UsageError} When both flag forms are given, one of index and count lacks the
 *   other, or a value is out of range.
 *
 * @example Usage
 * ```ts
 * import { resolveShard } from "./run_part.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(resolveShard({ shardIndex: "0", shardCount: "3" }), { k: 1, n: 3 });
 * assert.deepEqual(resolveShard({ shard: "2/3", env: "1/3" }), { k: 2, n: 3 });
 * assert.deepEqual(resolveShard({ env: "3/3" }), { k: 3, n: 3 });
 * assert.equal(resolveShard({}), undefined);
 * assert.throws(() => resolveShard({ shardIndex: "3", shardCount: "3" }), /--shard-index 3/);
 * ```
 */
export function resolveShard(inputs: ShardInputs): Shard | undefined {
  const { shard, shardIndex, shardCount, env } = inputs;
  const indexed = shardIndex !== undefined || shardCount !== undefined;
  if (shard !== undefined && indexed) {
    throw new UsageError(
      "give either --shard k/n or --shard-index I --shard-count N, not both",
    );
  }
  if (shard !== undefined) return parseShard(shard);
  if (indexed) {
    if (shardIndex === undefined || shardCount === undefined) {
      throw new UsageError("--shard-index and --shard-count go together (0 ≤ I < N)");
    }
    const n = wholeNumber(shardCount, "--shard-count");
    const i = wholeNumber(shardIndex, "--shard-index");
    if (n < 1) throw new UsageError(`--shard-count ${shardCount}: expected at least 1`);
    if (i >= n) {
      throw new UsageError(
        `--shard-index ${shardIndex}: expected 0 ≤ I < ${n} (0-based, as JOB_COMPLETION_INDEX)`,
      );
    }
    return { k: i + 1, n };
  }
  if (env !== undefined && env.trim() !== "") {
    try {
      return parseShard(env);
    } catch {
      throw new UsageError(
        `${SHARD_ENV}=${env}: expected k/n with 1 ≤ k ≤ n, e.g. ${SHARD_ENV}=1/4`,
      );
    }
  }
  return undefined;
}
