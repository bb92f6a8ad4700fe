/**
 * Reading contracts: recognize one ({@linkcode isContract}), validate and
 * build it from parsed JSON ({@linkcode contractFromMapping}), or read a
 * JSON, JSONC or YAML file ({@linkcode loadContract}). Every error names the
 * JSON path of the problem: `required[1].alternatives[0][0].tool: missing`.
 *
 * Besides the design's keys, a contract may carry `$schema` (for editors)
 * and `description` (for people); both are ignored.
 *
 * @module
 */

import {
  callFromJson,
  describeJson,
  isJsonObject,
  joinPath,
  type ToolCall,
} from "../scoring/calls.ts";
import { inFile, InputError } from "../base/errors.ts";
import { forbiddenRulesFromJson } from "../checks/forbidden.ts";
import { readDocument } from "../base/load.ts";
import { expectedArgsFromJson } from "../scoring/matchers.ts";
import { normalizeWeights } from "../scoring/score.ts";
import { passRuleFromJson } from "./pass_rule.ts";
import { matchingFromJson, sourceFromJson } from "./matching.ts";
import {
  AlternativeGroup,
  Contract,
  CONTRACT_VERSION,
  MAX_COMBINATIONS,
  type RequiredEntry,
} from "./model.ts";

const CONTRACT_KEYS = [
  "contract_version",
  "required",
  "optional",
  "forbidden",
  "weights",
  "min_score",
  "pass",
  "matching",
  "source",
  "description",
  "$schema",
];
const CALL_KEYS = ["tool", "args", "side_effects", "description", "metadata", "actor"];
// A call already in the TypeScript shape (a ToolCall) passes through: its one camelCase key.
const CALL_KEY_ALIASES = ["sideEffects"];
// Keys only a recorded call has: seeing one in expected calls usually means a trace was given as GOLD.
const TRACE_CALL_KEYS = ["result", "error", "is_error", "duration_s", "cost_usd", "raw_args"];
const GROUP_KEYS = ["id", "alternatives", "description"];

/**
 * Whether parsed JSON is a contract: an object with `contract_version`,
 * `required` or `optional`. A bare array is a legacy gold file.
 *
 * @param data Parsed JSON.
 * @returns `true` for a contract.
 *
 * @example Usage
 * ```ts
 * import { isContract } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isContract({ required: [] }), true);
 * assert.equal(isContract([{ tool: "a" }]), false);
 * assert.equal(isContract({ calls: [] }), false);
 * ```
 */
export function isContract(data: unknown): data is Record<string, unknown> {
  return isJsonObject(data) &&
    (Object.hasOwn(data, "contract_version") || Object.hasOwn(data, "required") ||
      Object.hasOwn(data, "optional"));
}

function checkKeys(
  value: Record<string, unknown>,
  allowed: string[],
  what: string,
  path: string,
  aliases: string[] = [],
) {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key) && !aliases.includes(key)) {
      const hint = what === "a call" && TRACE_CALL_KEYS.includes(key)
        ? "; expected calls carry no outcomes: is this a trace? (eval takes GOLD first, then TRACE)"
        : "";
      throw new InputError(
        `unknown key ${JSON.stringify(key)} (${what} has ${allowed.join(", ")})${hint}`,
        joinPath(path, key),
      );
    }
  }
}

/**
 * Read one expected call of a contract: `{tool, args?, side_effects?,
 * description?, metadata?}`, with `$` operators in `args` turned into matchers.
 *
 * @param value Parsed JSON.
 * @param path The call's JSON path, for errors.
 * @returns The call.
 * @throws {InputError} On a missing or bad `tool`, an unknown key or a bad operator.
 *
 * @example Usage
 * ```ts
 * import { expectedCallFromJson } from "./parse.ts";
 * import assert from "node:assert/strict";
 *
 * const call = expectedCallFromJson({ tool: "a", args: { n: { $type: "integer" } } }, "required[0]");
 * assert.equal(String(call.args?.n), '{"$type":"integer"}');
 * assert.throws(() => expectedCallFromJson({ args: {} }, "required[0]"), /required\[0\]\.tool: missing/);
 * ```
 */
export function expectedCallFromJson(value: unknown, path: string): ToolCall {
  if (!isJsonObject(value)) {
    throw new InputError(`expected a call object {tool, args?}, got ${describeJson(value)}`, path);
  }
  if (value.tool === undefined) throw new InputError("missing", joinPath(path, "tool"));
  checkKeys(value, CALL_KEYS, "a call", path, CALL_KEY_ALIASES);
  const call = callFromJson(value, { path, strictKeys: true });
  if (call.args !== undefined && call.args !== null) {
    call.args = expectedArgsFromJson(call.args, joinPath(path, "args"));
  }
  return call;
}

function listAt(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InputError(`must be a list, got ${describeJson(value)}`, path);
  }
  return value;
}

function groupFromJson(value: Record<string, unknown>, path: string): AlternativeGroup {
  checkKeys(value, GROUP_KEYS, "an alternative group", path);
  const id = value.id;
  if (id === undefined) {
    throw new InputError("missing (every alternative group needs an id)", joinPath(path, "id"));
  }
  if (typeof id !== "string" || id === "") {
    throw new InputError(
      `must be a non-empty string, got ${describeJson(id)}`,
      joinPath(path, "id"),
    );
  }
  const at = joinPath(path, "alternatives");
  if (value.alternatives === undefined) throw new InputError("missing", at);
  const options = listAt(value.alternatives, at);
  if (options.length === 0) {
    throw new InputError("needs at least one option (a list of calls; [] means skip)", at);
  }
  return new AlternativeGroup(
    id,
    options.map((option, i) => {
      const optionPath = joinPath(at, i);
      if (!Array.isArray(option)) {
        throw new InputError(
          `an option is a list of calls ([] to allow skipping), got ${describeJson(option)}`,
          optionPath,
        );
      }
      return option.map((call, j) => expectedCallFromJson(call, joinPath(optionPath, j)));
    }),
  );
}

function requiredEntryFromJson(value: unknown, path: string): RequiredEntry {
  if (isJsonObject(value) && (Object.hasOwn(value, "alternatives") || Object.hasOwn(value, "id"))) {
    if (Object.hasOwn(value, "tool")) {
      throw new InputError(
        "has both tool and id/alternatives; an entry is either a call or a group",
        path,
      );
    }
    return groupFromJson(value, path);
  }
  return expectedCallFromJson(value, path);
}

function minScoreFromJson(value: unknown): number {
  if (value === undefined) return 0.9;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InputError(
      `must be a number in [0, 1], got ${describeJson(value)}`,
      "min_score",
    );
  }
  return value;
}

function weightsFromJson(value: unknown): Record<string, number> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) {
    throw new InputError(`must be an object of weights, got ${describeJson(value)}`, "weights");
  }
  normalizeWeights(value as Record<string, number>, "weights");
  return { ...value } as Record<string, number>;
}

/**
 * Validate and build a contract from parsed JSON. A {@linkcode Contract}
 * passes through unchanged.
 *
 * @param data The parsed contract.
 * @returns The contract.
 * @throws {InputError} On a missing or unknown key, a malformed call or group,
 * a duplicate group id, a bad matcher, bad weights, `min_score` outside
 * [0, 1], a bad `pass` rule, another `contract_version` than 2, or alternative groups that
 * expand to more than `MAX_COMBINATIONS` combinations — naming the JSON path.
 *
 * @example Usage
 * ```ts
 * import { contractFromMapping } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const contract = contractFromMapping({
 *   contract_version: 2,
 *   required: [{ id: "notify", alternatives: [[{ tool: "send_email" }], []] }],
 *   min_score: 0.8,
 * });
 * assert.equal(contract.groups[0]?.id, "notify");
 * assert.throws(
 *   () => contractFromMapping({ required: [{ id: "n", alternatives: [[{ args: {} }]] }] }),
 *   { message: "required[0].alternatives[0][0].tool: missing" },
 * );
 * ```
 */
export function contractFromMapping(data: unknown): Contract {
  if (data instanceof Contract) return data;
  if (!isJsonObject(data)) {
    throw new InputError(
      `a contract is an object {contract_version, required, optional?, forbidden?, …}, got ${
        describeJson(data)
      }`,
    );
  }
  checkKeys(data, CONTRACT_KEYS, "a contract", "");
  const version = data.contract_version;
  if (version !== undefined && version !== CONTRACT_VERSION) {
    throw new InputError(
      `unsupported version ${
        JSON.stringify(version)
      }; this toolscore reads contract_version ${CONTRACT_VERSION}`,
      "contract_version",
    );
  }
  const required = listAt(data.required, "required").map((entry, i) =>
    requiredEntryFromJson(entry, joinPath("required", i))
  );
  const optional = listAt(data.optional, "optional").map((entry, i) =>
    expectedCallFromJson(entry, joinPath("optional", i))
  );
  const forbidden = data.forbidden === undefined
    ? []
    : forbiddenRulesFromJson(listAt(data.forbidden, "forbidden"), "forbidden");
  const contract = new Contract({
    required,
    optional,
    forbidden,
    weights: weightsFromJson(data.weights),
    minScore: minScoreFromJson(data.min_score),
    pass: passRuleFromJson(data.pass),
    matching: matchingFromJson(data.matching),
    source: sourceFromJson(data.source),
  });
  if (contract.pass.kind === "tau2-actions" && contract.matching !== "non-consuming") {
    throw new InputError('"tau2-actions" needs matching: "non-consuming" (add it)', "pass");
  }
  // Too many combinations fails here, where loadContract() can name the file, not when scoring.
  if (contract.combinationCount > MAX_COMBINATIONS) contract.expansions();
  return contract;
}

/**
 * Read a contract file: JSON, JSONC (comments, trailing commas) or YAML,
 * chosen by extension and sniffed otherwise.
 *
 * @param path The file.
 * @returns The contract.
 * @throws {InputError} Naming the file and, for a syntax error, the line and
 * column; for a bad contract, the JSON path.
 *
 * @example Usage
 * ```ts ignore
 * import { loadContract } from "@toolscore/cli";
 *
 * const contract = await loadContract("contract.yaml");
 * console.log(contract.expansions().length);
 * ```
 */
export async function loadContract(path: string): Promise<Contract> {
  const data = await readDocument(path);
  try {
    return contractFromMapping(data);
  } catch (error) {
    throw error instanceof InputError ? inFile(error, path) : error;
  }
}
