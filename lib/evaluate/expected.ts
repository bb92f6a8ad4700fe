/**
 * "A gold file or a contract": what every command that takes GOLD reads. A
 * parsed document is a contract when {@linkcode isContract} says so (it has
 * `contract_version`, `required` or `optional`); a list or `{"calls": […]}`
 * is a legacy gold file.
 *
 * @module
 */

import type { ToolCall } from "../scoring/calls.ts";
import { AlternativeGroup, type Contract } from "../contract/model.ts";
import { contractFromMapping, isContract } from "../contract/parse.ts";
import { evaluateContract } from "./evaluate_contract.ts";
import { inFile, InputError } from "../base/errors.ts";
import { evaluate, type EvaluateOptions, type EvaluationResult } from "./evaluate.ts";
import { goldFromJson } from "./gold.ts";
import { readDocument } from "../base/load.ts";

/** A gold file's calls or a contract. */
export type Expected =
  | { kind: "gold"; calls: ToolCall[]; path?: string }
  | { kind: "contract"; contract: Contract; path?: string };

/**
 * Read parsed JSON as a gold file or a contract.
 *
 * @param value The parsed document.
 * @param source The file name, for errors.
 * @returns The expected calls or the contract.
 * @throws {InputError} When the document is neither, naming where.
 *
 * @example Usage
 * ```ts
 * import { expectedFromJson } from "./expected.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(expectedFromJson([{ tool: "a" }]).kind, "gold");
 * assert.equal(expectedFromJson({ required: [{ tool: "a" }] }).kind, "contract");
 * ```
 */
export function expectedFromJson(value: unknown, source?: string): Expected {
  if (isContract(value)) {
    try {
      return { kind: "contract", contract: contractFromMapping(value), path: source };
    } catch (error) {
      throw error instanceof InputError && source ? inFile(error, source) : error;
    }
  }
  return { kind: "gold", calls: goldFromJson(value, source), path: source };
}

/**
 * Read a gold file or a contract (JSON, JSONC or YAML).
 *
 * @param path The file.
 * @returns The expected calls or the contract.
 * @throws {InputError} When the file cannot be read, parsed or understood.
 *
 * @example Usage
 * ```ts ignore
 * import { loadExpected } from "./expected.ts";
 *
 * const expected = await loadExpected("contract.yaml");
 * ```
 */
export async function loadExpected(path: string): Promise<Expected> {
  return expectedFromJson(await readDocument(path), path);
}

function folderOf(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash) || "/";
}

/**
 * Evaluate actual calls against a gold file or a contract. Relative
 * `file_exists` side-effect paths resolve against the file's folder.
 *
 * @param expected The gold file or contract.
 * @param actual The actual calls or any trace format.
 * @param options As for `evaluate()`.
 * @returns The evaluation.
 *
 * @example Usage
 * ```ts
 * import { evaluateExpected, expectedFromJson } from "./expected.ts";
 * import assert from "node:assert/strict";
 *
 * const expected = expectedFromJson({ required: [{ tool: "a" }], optional: [{ tool: "b" }] });
 * assert.equal(evaluateExpected(expected, [{ tool: "b" }, { tool: "a" }]).score, 1);
 * ```
 */
export function evaluateExpected(
  expected: Expected,
  actual: unknown,
  options: EvaluateOptions = {},
): EvaluationResult {
  const withBase = { ...options, baseDir: options.baseDir ?? folderOf(expected.path) };
  return expected.kind === "contract"
    ? evaluateContract(expected.contract, actual, withBase)
    : evaluate(expected.calls, actual, withBase);
}

/**
 * The pass mark a gold file or contract sets: a contract's `min_score`, none for a gold file.
 *
 * @param expected The gold file or contract.
 * @returns The pass mark, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { expectedFromJson, expectedMinScore } from "./expected.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(expectedMinScore(expectedFromJson({ required: [], min_score: 0.8 })), 0.8);
 * assert.equal(expectedMinScore(expectedFromJson([])), undefined);
 * ```
 */
export function expectedMinScore(expected: Expected): number | undefined {
  return expected.kind === "contract" ? expected.contract.minScore : undefined;
}

/**
 * Every tool name a gold file or contract mentions: required calls, every
 * option of every alternative group, optional calls and forbidden rules.
 *
 * @param expected The gold file or contract.
 * @returns The names, each once, in first-mentioned order.
 *
 * @example Usage
 * ```ts
 * import { expectedFromJson, expectedTools } from "./expected.ts";
 * import assert from "node:assert/strict";
 *
 * const expected = expectedFromJson({
 *   required: [{ id: "n", alternatives: [[{ tool: "email" }], [{ tool: "sms" }]] }],
 *   forbidden: [{ tool: "cancel" }],
 * });
 * assert.deepEqual(expectedTools(expected), ["email", "sms", "cancel"]);
 * ```
 */
export function expectedTools(expected: Expected): string[] {
  const names = new Set<string>();
  if (expected.kind === "gold") {
    for (const call of expected.calls) names.add(call.tool);
    return [...names];
  }
  const { contract } = expected;
  for (const entry of contract.required) {
    if (entry instanceof AlternativeGroup) {
      for (const option of entry.options) for (const call of option) names.add(call.tool);
    } else names.add(entry.tool);
  }
  for (const call of contract.optional) names.add(call.tool);
  for (const rule of contract.forbidden) names.add(rule.tool);
  return [...names];
}
