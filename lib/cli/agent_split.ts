/**
 * `agent run`'s ways to split a matrix (issue 40): `--plan-out PLAN.jsonl`
 * (the plan, from the spec and its contracts only: no server, no model, no
 * doctor), `--runs PART.jsonl` (exactly the runs of a part), and the shard
 * forms (`--shard k/n`, `--shard-index I --shard-count N`,
 * `TOOLSCORE_SHARD=k/n`). The logic is `lib/agent/run_part.ts`.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { readEnv } from "../mcp/server_env.ts";
import { planRuns, type Shard } from "../agent/plan.ts";
import { runInputDigests } from "../agent/run_identity.ts";
import { planLines, readRunPart, resolveShard, selectPart, SHARD_ENV } from "../agent/run_part.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";
import { type CliIO, EXIT, type ParsedFlags, stringFlag } from "./command.ts";
import { readyOutputFile } from "./output_ready.ts";

/** The flags this file reads, for `agent run`'s flag table. */
export const SPLIT_FLAGS = {
  "plan-out": { type: "string" },
  runs: { type: "string" },
  "shard-index": { type: "string" },
  "shard-count": { type: "string" },
} as const;

/**
 * The shard `agent run` is asked for: a flag, else `TOOLSCORE_SHARD`.
 *
 * @param flags The parsed flags.
 * @returns The shard, `undefined` for the whole matrix.
 * @throws {UsageError} On a bad or conflicting value.
 *
 * @example Usage
 * ```ts
 * import { parseFlags } from "./command.ts";
 * import { shardOf, SPLIT_FLAGS } from "./agent_split.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("agent run", ["--shard-index", "1", "--shard-count", "3"], {
 *   ...SPLIT_FLAGS,
 *   shard: { type: "string" },
 * });
 * assert.deepEqual(shardOf(flags), { k: 2, n: 3 });
 * ```
 */
export function shardOf(flags: ParsedFlags): Shard | undefined {
  const shard = stringFlag(flags, "shard");
  const shardIndex = stringFlag(flags, "shard-index");
  const shardCount = stringFlag(flags, "shard-count");
  const given = shard !== undefined || shardIndex !== undefined || shardCount !== undefined;
  return resolveShard({
    shard,
    shardIndex,
    shardCount,
    env: given ? undefined : readEnv(SHARD_ENV),
  });
}

/**
 * Where `--plan-out` writes the plan, refusing the flags that only a run reads.
 *
 * @param flags The parsed flags.
 * @returns The path, `undefined` without `--plan-out`.
 * @throws {UsageError} When `--runs`, `-o` or `--dry-run` is given too.
 *
 * @example Usage
 * ```ts
 * import { parseFlags } from "./command.ts";
 * import { planOutOf, SPLIT_FLAGS } from "./agent_split.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("agent run", ["--plan-out", "plan.jsonl", "--runs", "p.jsonl"], SPLIT_FLAGS);
 * assert.throws(() => planOutOf(flags), /--plan-out writes the plan and runs nothing/);
 * ```
 */
export function planOutOf(flags: ParsedFlags): string | undefined {
  const path = stringFlag(flags, "plan-out");
  if (path === undefined) return undefined;
  for (const flag of ["runs", "output", "dry-run"]) {
    if (flags.values[flag] !== undefined && flags.values[flag] !== false) {
      throw new UsageError(
        `--plan-out writes the plan and runs nothing: leave out --${
          flag === "output" ? "output (-o)" : flag
        }`,
      );
    }
  }
  return path;
}

/**
 * The part `--runs` names, checked before any output is touched: not
 * combined with a shard, and every run id one the spec plans.
 *
 * @param flags The parsed flags.
 * @param shard The shard asked for.
 * @param spec The spec.
 * @returns The part's run ids (→ `file:line`), `undefined` without `--runs`.
 * @throws {UsageError} When a shard or `--dry-run` is given too.
 * @throws {InputError} When the part cannot be read or names a run the spec does not plan.
 *
 * @example Usage
 * ```ts ignore
 * const part = await partOf(flags, shardOf(flags), spec);
 * ```
 */
export async function partOf(
  flags: ParsedFlags,
  shard: Shard | undefined,
  spec: AgentSpec,
): Promise<Map<string, string> | undefined> {
  const path = stringFlag(flags, "runs");
  if (path === undefined) return undefined;
  if (shard !== undefined) {
    throw new UsageError("--runs PART.jsonl names the runs itself: leave out the shard");
  }
  if (flags.values["dry-run"] === true) {
    throw new UsageError("--dry-run plans the matrix or a shard, not a part: leave out --runs");
  }
  const part = await readRunPart(path);
  selectPart(planRuns(spec, undefined, await runInputDigests(spec)), part);
  return part;
}

/**
 * `agent run SPEC --plan-out PLAN.jsonl`: write the plan and stop.
 *
 * @param spec The spec.
 * @param path Where the plan goes.
 * @param shard Only this shard's lines, when given.
 * @param json Print `{runs, cells, plan}` instead of a line.
 * @param io Where to print.
 * @returns Exit code 0.
 * @throws {InputError} When a contract cannot be read or the plan cannot be written.
 *
 * @example Usage
 * ```ts ignore
 * await writePlan(await loadAgentSpec("agent.yaml"), "plan.jsonl", undefined, false, io);
 * ```
 */
export async function writePlan(
  spec: AgentSpec,
  path: string,
  shard: Shard | undefined,
  json: boolean,
  io: CliIO,
): Promise<number> {
  await readyOutputFile(path, "--plan-out");
  const runs = planRuns(spec, shard, await runInputDigests(spec));
  await writeTextFileAtomic(path, planLines(runs));
  const cells = new Set(runs.map((run) => run.cell)).size;
  if (json) io.stdout(`${JSON.stringify({ runs: runs.length, cells, plan: path })}\n`);
  else io.stdout(`plan: ${runs.length} run(s) in ${cells} cell(s) written to ${path}\n`);
  return EXIT.ok;
}
