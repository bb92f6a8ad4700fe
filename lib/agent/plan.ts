/**
 * The run matrix: every (arm, task, repeat) of a spec, cell by cell — for
 * each repeat, for each task (by id, by code point), every arm of that
 * (task, repeat) cell — each with a run id derived from the spec's hash, the
 * arm, the task and the repeat — the same on every rerun and every shard.
 * Inside a cell the arms (sorted by id) are rotated: cell `c` starts with
 * arm `(s + c) mod A`, where `s` comes from the SHA-256 of the spec's
 * `order_seed` (default 0), so that every arm goes first equally often and
 * no arm always runs before the others (issue 28). `--shard k/n` takes whole
 * cells: those whose index is ≡ k−1 (mod n). The shards' outputs
 * concatenate into the full run.
 *
 * @module
 */

import { sha256Hex } from "../base/canonical.ts";
import { UsageError } from "../base/errors.ts";
import type { AgentArm, AgentSpec, AgentTask } from "../spec/agent_spec.ts";

/** One run of the matrix. */
export interface PlannedRun {
  /** The run id (stable across reruns and shards). */
  runId: string;
  /** The arm. */
  arm: AgentArm;
  /** The task. */
  task: AgentTask;
  /** The repeat, from 0. */
  repeat: number;
  /** Its index in the matrix order, from 0. */
  index: number;
  /** Its cell's index (one cell = one task and repeat, every arm), from 0. */
  cell: number;
}

/** A shard: the `k`-th of `n` (1-based). */
export interface Shard {
  /** Which shard, 1 ≤ k ≤ n. */
  k: number;
  /** How many shards. */
  n: number;
}

/**
 * Read `--shard k/n`.
 *
 * @param text The flag's value.
 * @returns The shard.
 * @throws {UsageError} When it is not `k/n` with 1 ≤ k ≤ n.
 *
 * @example Usage
 * ```ts
 * import { parseShard } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseShard("2/3"), { k: 2, n: 3 });
 * assert.throws(() => parseShard("0/3"), /--shard 0\/3/);
 * ```
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  const k = Number(match?.[1]);
  const n = Number(match?.[2]);
  if (!match || !(n >= 1) || !(k >= 1 && k <= n)) {
    throw new UsageError(
      `--shard ${text}: expected k/n with 1 ≤ k ≤ n, e.g. --shard 1/4 (the first of four)`,
    );
  }
  return { k, n };
}

/**
 * The key rows are matched by on resume.
 *
 * @param arm The arm id.
 * @param task The task id.
 * @param repeat The repeat.
 * @returns One string.
 *
 * @example Usage
 * ```ts
 * import { runKey } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(runKey("mini", "refund", 2), JSON.stringify(["mini", "refund", 2]));
 * ```
 */
export function runKey(arm: string, task: string, repeat: number): string {
  return JSON.stringify([arm, task, repeat]);
}

/**
 * A run id: readable ids and a hash of the spec, arm, task and repeat.
 *
 * @param specSha256 The spec's hash.
 * @param arm The arm id.
 * @param task The task id.
 * @param repeat The repeat.
 * @returns `arm.task.repeat.HASH12`.
 *
 * @example Usage
 * ```ts
 * import { runId } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(runId("0".repeat(64), "mini", "book", 0), /^mini\.book\.0\.[0-9a-f]{12}$/);
 * ```
 */
export function runId(specSha256: string, arm: string, task: string, repeat: number): string {
  const hash = sha256Hex(`${specSha256}\n${arm}\n${task}\n${repeat}`).slice(0, 12);
  return `${arm}.${task}.${repeat}.${hash}`;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Where the rotation of the arms starts, from the spec's order seed.
function rotationStart(seed: number | string, arms: number): number {
  return Number.parseInt(sha256Hex(`toolscore.order\n${seed}`).slice(0, 8), 16) % arms;
}

/**
 * Every run of a spec, in matrix order (cell by cell), optionally one shard
 * of them (whole cells).
 *
 * @param spec The spec.
 * @param shard The shard to take, if any.
 * @returns The runs.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { planRuns } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "b", provider: "openai", model: "m" }, { id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   repeats: 2,
 * });
 * const order = planRuns(spec).map((r) => `${r.arm.id}${r.repeat}`);
 * assert.ok(order.join() === "a0,b0,b1,a1" || order.join() === "b0,a0,a1,b1");
 * assert.deepEqual(planRuns(spec, { k: 2, n: 2 }).map((r) => r.cell), [1, 1]);
 * ```
 */
export function planRuns(spec: AgentSpec, shard?: Shard): PlannedRun[] {
  const arms = [...spec.arms].sort((a, b) => byCodePoint(a.id, b.id));
  const tasks = [...spec.tasks].sort((a, b) => byCodePoint(a.id, b.id));
  const start = arms.length === 0 ? 0 : rotationStart(spec.orderSeed, arms.length);
  const runs: PlannedRun[] = [];
  let cell = 0;
  for (let repeat = 0; repeat < spec.repeats; repeat++) {
    for (const task of tasks) {
      for (let i = 0; i < arms.length; i++) {
        const arm = arms[(start + cell + i) % arms.length]!;
        runs.push({
          runId: runId(spec.sha256, arm.id, task.id, repeat),
          arm,
          task,
          repeat,
          index: runs.length,
          cell,
        });
      }
      cell++;
    }
  }
  return shard === undefined ? runs : runs.filter((run) => run.cell % shard.n === shard.k - 1);
}
