/**
 * The run matrix: every (arm, task, repeat) of a spec in one sorted order
 * (arm id, then task id, by code point; then repeat), each with a run id
 * derived from what makes that run what it is (`run_identity.ts`, issue 29:
 * no longer the whole spec's hash, so a raised budget or an added arm keeps
 * the ids) — the same on every rerun and every shard — and the slice
 * `--shard k/n` takes: the runs whose index is ≡ k−1 (mod n). The shards'
 * outputs concatenate into the full run.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { runIdentifier, type RunInputDigests } from "./run_identity.ts";
import type { AgentArm, AgentSpec, AgentTask } from "../spec/agent_spec.ts";

/** One run of the matrix. */
export interface PlannedRun {
  /** The run id (stable across reruns and shards). */
  runId: string;
  /** Each field of the run's identity as a digest, written into its row (`identity`). */
  identity: Record<string, string>;
  /** The arm. */
  arm: AgentArm;
  /** The task. */
  task: AgentTask;
  /** The repeat, from 0. */
  repeat: number;
  /** Its index in the sorted matrix, from 0. */
  index: number;
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

// The digests of a plan made without reading the files (a --dry-run display): unknown.
const UNREAD: RunInputDigests = { contracts: new Map(), faults: null, honesty: null };

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every run of a spec, in matrix order, optionally one shard of them.
 *
 * @param spec The spec.
 * @param shard The shard to take, if any.
 * @param digests The hashes of the files run ids depend on (`runInputDigests`); without them
 *   the files count as unknown and the ids are not those a run writes (enough for a plan's counts).
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
 * assert.deepEqual(planRuns(spec).map((r) => `${r.arm.id}${r.repeat}`), ["a0", "a1", "b0", "b1"]);
 * assert.deepEqual(planRuns(spec, { k: 2, n: 2 }).map((r) => r.index), [1, 3]);
 * ```
 */
export function planRuns(
  spec: AgentSpec,
  shard?: Shard,
  digests: RunInputDigests = UNREAD,
): PlannedRun[] {
  const arms = [...spec.arms].sort((a, b) => byCodePoint(a.id, b.id));
  const tasks = [...spec.tasks].sort((a, b) => byCodePoint(a.id, b.id));
  const runs: PlannedRun[] = [];
  const identify = runIdentifier(spec, digests);
  for (const arm of arms) {
    for (const task of tasks) {
      for (let repeat = 0; repeat < spec.repeats; repeat++) {
        runs.push({
          ...identify(arm, task, repeat),
          arm,
          task,
          repeat,
          index: runs.length,
        });
      }
    }
  }
  return shard === undefined ? runs : runs.filter((run) => run.index % shard.n === shard.k - 1);
}
