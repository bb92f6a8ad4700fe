/**
 * τ²-bench tasks imported as contracts (issue 44): `contractsFromTau2()`
 * turns each task's `evaluation_criteria.actions` into the required calls of
 * a contract that grades a simulation the way τ²'s `ActionEvaluator` does.
 *
 * The input is τ²'s `data/tau2/domains/<domain>/tasks.json` (a list of
 * tasks), or a τ² results file, whose `tasks` list holds the tasks it ran
 * (its `info.environment_info.domain_name` then names the domain). Each task
 * `{id, evaluation_criteria: {actions, reward_basis, …}}` becomes:
 *
 * ```json
 * {"contract_version": 2,
 *  "required": [{"tool": "get_user_details", "args": {"user_id": "sophia_silva_7557"},
 *                "metadata": {"action_id": "get_user_details_1", "compare_args": ["user_id"]}}],
 *  "matching": "non-consuming", "pass": "tau2-actions",
 *  "source": {"benchmark": "tau2", "id": "0", "domain": "airline", "reward_basis": ["DB", "COMMUNICATE"]}}
 * ```
 *
 * Decisions:
 *
 * - An action `{action_id, requestor, name, arguments, compare_args?}` is a
 *   required call: `tool` = `name`; `actor: "user"` when `requestor` is
 *   `"user"` (τ²'s default requestor is `"assistant"`); `metadata.action_id`
 *   keeps the id. `compare_args` (τ²: "the arguments to check; if None, all
 *   the arguments") goes to `metadata.compare_args` when it is a list, and
 *   `args` is then the action's arguments cut to those names (what τ²
 *   compares; `args: null`, unchecked, for `[]`). Without `compare_args`,
 *   `args` is every argument. The matching rules are
 *   `lib/scoring/non_consuming.ts`'s: τ² compares name and arguments, not
 *   the requestor.
 * - An argument value holding an object key that starts with `$` is written
 *   `{"$eq": value}`, so the contract reads it as data, not as an operator.
 * - A task without `evaluation_criteria` (τ²: reward 1, "No evaluation
 *   criteria") or without actions has no required calls: it passes, as τ²'s
 *   action reward does.
 * - `source.reward_basis` is the task's, or τ²'s default `["DB",
 *   "COMMUNICATE"]` when the task names none (`[]` without criteria);
 *   `tau2_commit` is given by the caller (`--tau2-commit`). Under `pass:
 *   "tau2-actions"` a basis other than `["ACTION"]` makes every result say
 *   that the verdict is the action agreement only.
 * - Task ids are strings (an integer id is written as its digits); a
 *   repeated id is an error. {@linkcode tau2Index} names each contract's file
 *   (`tau2_file_names.ts`).
 * - A simulation that ended early (`termination_reason` other than
 *   `agent_stop`/`user_stop`, which the τ² reader keeps in the trace's
 *   metadata) gets reward 0 from τ² before any check; under `tau2-actions`
 *   it fails too (`lib/evaluate/matching_metrics.ts`).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { describeJson, isJsonObject, joinPath, type JsonObject } from "../scoring/calls.ts";
import { contractFromMapping } from "../contract/parse.ts";
import { clipEcho } from "../base/clip_input.ts";
import { fileSafeNames } from "./tau2_file_names.ts";

/** τ²'s reward components (`RewardType`). */
export const TAU2_REWARD_TYPES: readonly string[] = Object.freeze([
  "DB",
  "ENV_ASSERTION",
  "NL_ASSERTION",
  "ACTION",
  "COMMUNICATE",
]);

const DEFAULT_BASIS = ["DB", "COMMUNICATE"];
// Nesting deeper than this is not searched for `$` keys (and is refused: no task is this deep).
const MAX_DEPTH = 200;

/** Options for {@linkcode contractsFromTau2}. */
export interface Tau2ImportOptions {
  /**
   * The domain, written to `source.domain`.
   * @default {undefined} (a results file's `info.environment_info.domain_name`, else none)
   */
  domain?: string;
  /**
   * The tau2-bench commit the tasks came from, written to `source.tau2_commit`.
   * @default {undefined}
   */
  tau2Commit?: string;
}

/** One imported task. */
export interface Tau2Contract {
  /** The task id. */
  id: string;
  /** Its file name in the output folder (`<safe id>.json`). */
  file: string;
  /** The contract, in the file shape. */
  contract: JsonObject;
}

function tasksOf(value: unknown): { tasks: unknown[]; path: string; domain?: string } {
  if (Array.isArray(value)) return { tasks: value, path: "" };
  if (isJsonObject(value) && Array.isArray(value.tasks)) {
    const info = isJsonObject(value.info) ? value.info : undefined;
    const env = info && isJsonObject(info.environment_info) ? info.environment_info : undefined;
    const domain = typeof env?.domain_name === "string" ? env.domain_name : undefined;
    return { tasks: value.tasks, path: "tasks", ...(domain ? { domain } : {}) };
  }
  throw new InputError(
    `not a τ² tasks file: expected a list of tasks {id, evaluation_criteria} or a results file {tasks: [...]}, got ${
      describeJson(value)
    }`,
  );
}

function taskId(value: unknown, path: string): string {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new InputError(`a task id must be a non-empty string, got ${describeJson(value)}`, path);
}

function hasDollarKey(value: unknown, depth: number, path: string): boolean {
  if (depth > MAX_DEPTH) throw new InputError(`nested more than ${MAX_DEPTH} levels deep`, path);
  if (Array.isArray(value)) return value.some((item) => hasDollarKey(item, depth + 1, path));
  if (!isJsonObject(value)) return false;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith("$") || hasDollarKey(child, depth + 1, path)) return true;
  }
  return false;
}

function literalArgs(args: JsonObject, path: string): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(args)) {
    out[key] = hasDollarKey(value, 0, joinPath(path, key)) ? { $eq: value } : value;
  }
  return out;
}

function compareArgsAt(value: unknown, path: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((name) => typeof name === "string")) {
    throw new InputError(
      `compare_args must be a list of argument names or null, got ${describeJson(value)}`,
      path,
    );
  }
  return value as string[];
}

function requiredCall(action: unknown, path: string): JsonObject {
  if (!isJsonObject(action)) {
    throw new InputError(`an action must be an object, got ${describeJson(action)}`, path);
  }
  if (typeof action.name !== "string" || action.name === "") {
    throw new InputError(
      `an action needs a name (the tool), got ${describeJson(action.name)}`,
      joinPath(path, "name"),
    );
  }
  const requestor = action.requestor ?? "assistant";
  if (requestor !== "assistant" && requestor !== "user") {
    throw new InputError(
      `requestor must be "assistant" or "user", got ${
        typeof requestor === "string"
          ? clipEcho(JSON.stringify(requestor))
          : describeJson(requestor)
      }`,
      joinPath(path, "requestor"),
    );
  }
  const argumentsPath = joinPath(path, "arguments");
  if (!isJsonObject(action.arguments)) {
    throw new InputError(
      `arguments must be an object, got ${describeJson(action.arguments)}`,
      argumentsPath,
    );
  }
  const compare = compareArgsAt(action.compare_args, joinPath(path, "compare_args"));
  const all = literalArgs(action.arguments, argumentsPath);
  let args: JsonObject | null = all;
  if (compare !== undefined) {
    args = compare.length === 0 ? null : {};
    for (const name of compare) if (Object.hasOwn(all, name)) args![name] = all[name];
  }
  const metadata: JsonObject = {};
  if (typeof action.action_id === "string") metadata.action_id = action.action_id;
  if (compare !== undefined) metadata.compare_args = [...compare];
  const call: JsonObject = { tool: action.name, args };
  if (requestor === "user") call.actor = "user";
  if (Object.keys(metadata).length > 0) call.metadata = metadata;
  return call;
}

function rewardBasis(value: unknown, path: string): string[] {
  if (value === undefined || value === null) return [...DEFAULT_BASIS];
  if (!Array.isArray(value)) {
    throw new InputError(`reward_basis must be a list, got ${describeJson(value)}`, path);
  }
  return value.map((name, i) => {
    if (typeof name !== "string" || !TAU2_REWARD_TYPES.includes(name)) {
      throw new InputError(
        `unknown reward type ${
          typeof name === "string" ? clipEcho(JSON.stringify(name)) : describeJson(name)
        }; τ²'s are ${TAU2_REWARD_TYPES.join(", ")}`,
        joinPath(path, i),
      );
    }
    return name;
  });
}

/**
 * Import τ²-bench tasks as contracts (see the module doc).
 *
 * @param tasks The parsed tasks file (a list of tasks), or a results file `{tasks: [...]}`.
 * @param options The domain and the tau2-bench commit, for `source`.
 * @returns One contract per task, in file order, each with its file name.
 * @throws {InputError} On a bad task, naming its JSON path.
 *
 * @example Usage
 * ```ts
 * import { contractsFromTau2 } from "./tau2_contracts.ts";
 * import assert from "node:assert/strict";
 *
 * const [imported] = contractsFromTau2([{
 *   id: "task/1",
 *   evaluation_criteria: {
 *     actions: [{ action_id: "a0", requestor: "user", name: "toggle_airplane_mode", arguments: {} }],
 *     reward_basis: ["ACTION"],
 *   },
 * }], { domain: "telecom" });
 * assert.equal(imported?.file, "task_1.json");
 * assert.deepEqual(imported?.contract.required, [
 *   { tool: "toggle_airplane_mode", args: {}, actor: "user", metadata: { action_id: "a0" } },
 * ]);
 * assert.equal(imported?.contract.pass, "tau2-actions");
 * ```
 */
export function contractsFromTau2(
  tasks: unknown,
  options: Tau2ImportOptions = {},
): Tau2Contract[] {
  const found = tasksOf(tasks);
  const domain = options.domain ?? found.domain;
  const seen = new Map<string, string>();
  const built = found.tasks.map((task, i) => {
    const at = found.path === "" ? `[${i}]` : joinPath(found.path, i);
    if (!isJsonObject(task)) {
      throw new InputError(`a task must be an object, got ${describeJson(task)}`, at);
    }
    const id = taskId(task.id, joinPath(at, "id"));
    const first = seen.get(id);
    if (first !== undefined) {
      throw new InputError(`task id ${JSON.stringify(id)} repeats ${first}`, joinPath(at, "id"));
    }
    seen.set(id, joinPath(at, "id"));
    const criteriaPath = joinPath(at, "evaluation_criteria");
    const criteria = task.evaluation_criteria;
    if (criteria !== undefined && criteria !== null && !isJsonObject(criteria)) {
      throw new InputError(
        `must be an object or null, got ${describeJson(criteria)}`,
        criteriaPath,
      );
    }
    const actionsPath = joinPath(criteriaPath, "actions");
    const actions = criteria?.actions ?? [];
    if (!Array.isArray(actions)) {
      throw new InputError(
        `must be a list of actions or null, got ${describeJson(actions)}`,
        actionsPath,
      );
    }
    const source: JsonObject = { benchmark: "tau2", id };
    if (domain !== undefined) source.domain = domain;
    source.reward_basis = criteria
      ? rewardBasis(criteria.reward_basis, joinPath(criteriaPath, "reward_basis"))
      : [];
    if (options.tau2Commit !== undefined) source.tau2_commit = options.tau2Commit;
    const contract: JsonObject = {
      contract_version: 2,
      required: actions.map((action, j) => requiredCall(action, joinPath(actionsPath, j))),
      matching: "non-consuming",
      pass: "tau2-actions",
      source,
    };
    try {
      contractFromMapping(contract);
    } catch (error) {
      throw error instanceof InputError
        ? new InputError(error.message, at, { cause: error })
        : error;
    }
    return { id, contract };
  });
  const files = fileSafeNames(built.map((entry) => entry.id));
  return built.map((entry, i) => ({ id: entry.id, file: files[i]!, contract: entry.contract }));
}

/**
 * The output folder's `index.json`: each task id and its contract's file.
 *
 * @param contracts The imported contracts.
 * @returns `{contracts: [{id, file}]}`.
 *
 * @example Usage
 * ```ts
 * import { contractsFromTau2, tau2Index } from "./tau2_contracts.ts";
 * import assert from "node:assert/strict";
 *
 * const index = tau2Index(contractsFromTau2([{ id: "7", evaluation_criteria: null }]));
 * assert.deepEqual(index, { contracts: [{ id: "7", file: "7.json" }] });
 * ```
 */
export function tau2Index(
  contracts: readonly Tau2Contract[],
): { contracts: { id: string; file: string }[] } {
  return { contracts: contracts.map(({ id, file }) => ({ id, file })) };
}
