/**
 * Run identity (issue 29): what makes one run of the matrix what it is, and
 * the run id made from it. A run id is `arm.task.repeat.H12`, H the SHA-256
 * of the canonical JSON of the run's identity:
 *
 * - the arm, every key (file names: `model`, `base_url`, `system`, …);
 * - the task's id and prompt, and the SHA-256 of its contract file;
 * - the server (its `cwd` relative to the spec's folder, so the id does not
 *   depend on where the command runs from);
 * - `max_turns`, `timeout_s`, the SHA-256 of the faults and honesty files;
 * - the repeat.
 *
 * `budget`, `prices`, `keys`, `packages`, `repeats`, other arms and other
 * tasks are not in it: adding arms, tasks or repeats, or raising the budget,
 * resumes the matrix with the same ids. Rows also carry `identity`, the
 * SHA-256 (first 12 hex digits) of each field's canonical JSON, so that a
 * rerun under a changed spec can say which fields changed (the resume
 * guard) without writing prompts into every row.
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { jsonSha256 } from "../base/canonical.ts";
import { fileDigest } from "../receipts/digest.ts";
import type { AgentArm, AgentSpec, AgentTask } from "../spec/agent_spec.ts";

/** The SHA-256 of the files a run's identity names. */
export interface RunInputDigests {
  /** Each task's contract file, by task id. */
  contracts: Map<string, string>;
  /** The faults file, `null` when the spec names none. */
  faults: string | null;
  /** The honesty file, `null` when the spec names none. */
  honesty: string | null;
}

/**
 * Hash the files run ids depend on.
 *
 * @param spec The spec.
 * @returns The digests.
 * @throws {InputError} When a file cannot be read, naming it.
 *
 * @example Usage
 * ```ts ignore
 * import { loadAgentSpec } from "../spec/agent_spec.ts";
 * import { runInputDigests } from "./run_identity.ts";
 *
 * const digests = await runInputDigests(await loadAgentSpec("agent.yaml"));
 * ```
 */
export async function runInputDigests(spec: AgentSpec): Promise<RunInputDigests> {
  const contracts = new Map<string, string>();
  for (const task of spec.tasks) {
    contracts.set(task.id, (await fileDigest(task.contract)).sha256);
  }
  return {
    contracts,
    faults: spec.faults === undefined ? null : (await fileDigest(spec.faults)).sha256,
    honesty: spec.honesty === undefined ? null : (await fileDigest(spec.honesty)).sha256,
  };
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function armJson(arm: AgentArm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arm)) {
    if (value !== undefined) out[snakeCase(key)] = value;
  }
  return out;
}

function serverJson(spec: AgentSpec): Record<string, unknown> {
  const server: Record<string, unknown> = { ...spec.server };
  if (typeof server.cwd === "string") {
    const cwd = relative(resolve(spec.baseDir), resolve(server.cwd)).replaceAll("\\", "/");
    server.cwd = cwd === "" ? "." : cwd;
  }
  return server;
}

/**
 * The identity of one run, in file shape.
 *
 * @param spec The spec.
 * @param digests The files' hashes ({@linkcode runInputDigests}).
 * @param arm The arm.
 * @param task The task.
 * @param repeat The repeat.
 * @returns `{arm, task: {id, prompt, contract_sha256}, server, max_turns, timeout_s, faults_sha256, honesty_sha256, repeat}`.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { runIdentity } from "./run_identity.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m", base_url: "http://127.0.0.1:9" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * const digests = { contracts: new Map([["t", "0".repeat(64)]]), faults: null, honesty: null };
 * const identity = runIdentity(spec, digests, spec.arms[0]!, spec.tasks[0]!, 0);
 * assert.deepEqual(identity.arm, { id: "a", provider: "openai", model: "m", base_url: "http://127.0.0.1:9" });
 * assert.equal(identity.max_turns, 20);
 * ```
 */
export function runIdentity(
  spec: AgentSpec,
  digests: RunInputDigests,
  arm: AgentArm,
  task: AgentTask,
  repeat: number,
): Record<string, unknown> {
  return {
    arm: armJson(arm),
    task: {
      id: task.id,
      prompt: task.prompt,
      contract_sha256: digests.contracts.get(task.id) ?? null,
    },
    server: serverJson(spec),
    max_turns: spec.maxTurns,
    timeout_s: spec.timeoutS,
    faults_sha256: digests.faults,
    honesty_sha256: digests.honesty,
    repeat,
  };
}

/**
 * The run id of an identity: `arm.task.repeat.H12`.
 *
 * @param identity A run's identity ({@linkcode runIdentity}).
 * @returns The run id.
 *
 * @example Usage
 * ```ts
 * import { identityRunId } from "./run_identity.ts";
 * import assert from "node:assert/strict";
 *
 * const identity = { arm: { id: "mini" }, task: { id: "book" }, repeat: 2 };
 * assert.match(identityRunId(identity), /^mini\.book\.2\.[0-9a-f]{12}$/);
 * ```
 */
export function identityRunId(identity: Record<string, unknown>): string {
  const arm = (identity.arm as { id: string }).id;
  const task = (identity.task as { id: string }).id;
  return `${arm}.${task}.${identity.repeat}.${jsonSha256(identity).slice(0, 12)}`;
}

/**
 * Each field of an identity by its path (`arm.model`, `task.prompt`,
 * `server`, `max_turns`…), as the first 12 hex digits of the SHA-256 of its
 * canonical JSON: what rows carry as `identity`.
 *
 * @param identity A run's identity.
 * @returns The digests by field.
 *
 * @example Usage
 * ```ts
 * import { identityDigests } from "./run_identity.ts";
 * import assert from "node:assert/strict";
 *
 * const digests = identityDigests({ arm: { id: "a", model: "m" }, repeat: 0 });
 * assert.deepEqual(Object.keys(digests), ["arm.id", "arm.model", "repeat"]);
 * ```
 */
export function identityDigests(identity: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(identity)) {
    if ((key === "arm" || key === "task") && typeof value === "object" && value !== null) {
      for (const [field, item] of Object.entries(value)) {
        out[`${key}.${field}`] = jsonSha256(item).slice(0, 12);
      }
    } else {
      out[key] = jsonSha256(value).slice(0, 12);
    }
  }
  return out;
}

/**
 * The fields whose digests differ (a field only one side has counts).
 *
 * @param before The digests a row carries.
 * @param now The digests of the run as planned now.
 * @returns The changed fields' paths, in `now`'s order, then the removed ones.
 *
 * @example Usage
 * ```ts
 * import { changedFields } from "./run_identity.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(changedFields({ "arm.model": "1", seed: "2" }, { "arm.model": "3", repeat: "4" }), [
 *   "arm.model",
 *   "repeat",
 *   "seed",
 * ]);
 * ```
 */
export function changedFields(
  before: Readonly<Record<string, unknown>>,
  now: Readonly<Record<string, string>>,
): string[] {
  const changed = Object.keys(now).filter((key) => before[key] !== now[key]);
  for (const key of Object.keys(before)) if (!(key in now)) changed.push(key);
  return changed;
}

/** A run's id and the digests of its identity's fields. */
export interface IdentifiedRun {
  /** `arm.task.repeat.H12`. */
  runId: string;
  /** The digests by field ({@linkcode identityDigests}). */
  identity: Record<string, string>;
}

/**
 * Identify the runs of one spec: a function from (arm, task, repeat) to the
 * run id and field digests, hashing each arm's, task's and the spec's fields once.
 *
 * @param spec The spec.
 * @param digests The files' hashes.
 * @returns The function.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { identityRunId, runIdentifier, runIdentity } from "./run_identity.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * const digests = { contracts: new Map(), faults: null, honesty: null };
 * const identify = runIdentifier(spec, digests);
 * const [arm, task] = [spec.arms[0]!, spec.tasks[0]!];
 * assert.equal(identify(arm, task, 1).runId, identityRunId(runIdentity(spec, digests, arm, task, 1)));
 * assert.equal(identify(arm, task, 1).identity["arm.model"], identify(arm, task, 0).identity["arm.model"]);
 * ```
 */
export function runIdentifier(
  spec: AgentSpec,
  digests: RunInputDigests,
): (arm: AgentArm, task: AgentTask, repeat: number) => IdentifiedRun {
  const parts = new Map<object, Record<string, string>>();
  const once = (key: object, make: () => Record<string, string>) => {
    let found = parts.get(key);
    if (found === undefined) parts.set(key, found = make());
    return found;
  };
  return (arm, task, repeat) => {
    const identity = runIdentity(spec, digests, arm, task, repeat);
    const { arm: armPart, task: taskPart, repeat: _, ...rest } = identity;
    return {
      runId: identityRunId(identity),
      identity: {
        ...once(arm, () => identityDigests({ arm: armPart })),
        ...once(task, () => identityDigests({ task: taskPart })),
        ...once(spec, () => identityDigests(rest)),
        repeat: identityDigests({ repeat }).repeat!,
      },
    };
  };
}
