/**
 * `matching: "bfcl-greedy"`: BFCL's way of pairing a model's calls with the
 * possible answers, and its verdict, ported from ShishirPatil/gorilla
 * `bfcl_eval/eval_checker/ast_eval/ast_checker.py` (`ast_checker`,
 * `simple_function_checker`, `multiple_function_checker`,
 * `parallel_function_checker_no_order`) and `eval_runner.py`
 * (`_evaluate_single_relevance_entry`), Apache-2.0.
 *
 * - The count comes first: as many calls as required calls (a simple
 *   category: exactly 1; `multiple`: as many as answers, then only the first
 *   call is checked; parallel: exactly as many).
 * - Parallel pairing is greedy: the required calls in file order, each taking
 *   the first call not yet taken that passes it, with no backtracking — so a
 *   correct set of calls can fail in some orders (BFCL's `parallel_178`).
 *   {@linkcode bfclVerdict} also says whether a one-to-one pairing exists
 *   that passes (`optimal_valid`), which is where toolscore's optimal pairing
 *   would judge otherwise (`eval --explain-divergence`).
 * - A call passes when the tool name is the same (case-sensitive), every
 *   parameter the doc requires is sent, every parameter sent is known to the
 *   doc and the possible answer and passes its `$normalize: "bfcl"` matcher
 *   (a plain expected value must match as toolscore compares it), and every
 *   parameter not sent may be omitted.
 * - With no required call (irrelevance) any call fails; under `pass:
 *   "any-call"` (live relevance) at least one call passes.
 * - An output that did not decode (the `bfcl` reader's 0 calls with
 *   `metadata.decode_error`) fails an AST category as
 *   `ast_decoder:decoder_failed` (BFCL also says
 *   `decoder_wrong_output_format` for decoded text that is not call
 *   format; the reader does not tell the two apart), and is no call for the
 *   relevance categories.
 *
 * Two error types are toolscore's own: `toolscore:bfcl_checker_raises`
 * where BFCL's checker raises instead of judging (its run would stop there;
 * see `BfclCrashError`), and `toolscore:unreadable_arguments` for a call
 * whose arguments the reader could not hold as JSON. Both fail.
 *
 * Which of BFCL's checkers names the `error_type` (simple, multiple or
 * parallel) is read from the contract's `source.category` when it has one
 * (a label only: the rules above do not depend on it), else from the number
 * of required calls.
 *
 * @module
 */

import type { ToolCall } from "../scoring/calls.ts";
import { BfclParam } from "../scoring/bfcl_param.ts";
import { BfclCrashError } from "../scoring/bfcl_values.ts";
import { valuesMatch } from "../scoring/matchers.ts";

/** BFCL's verdict on a trace, as `metrics.bfcl` holds it. */
export interface BfclVerdict {
  /** Whether BFCL's checker accepts the output. */
  valid: boolean;
  /** BFCL's `error_type` when not valid. */
  error_type?: string;
  /** What went wrong, in words. */
  error?: string;
  /** The greedy pairs, `[required index, call index]`. */
  pairs: [number, number][];
  /** Whether some one-to-one pairing of the calls passes (parallel only). */
  optimal_valid?: boolean;
}

/** The checker that names the error, BFCL's category family. */
export type BfclFamily = "simple" | "multiple" | "parallel" | "irrelevance" | "relevance";

/**
 * The checker family of a BFCL category name (`ast_checker`'s dispatch:
 * `parallel` before `multiple`).
 *
 * @param category The category, e.g. `"live_parallel_multiple"`.
 * @returns The family.
 *
 * @example Usage
 * ```ts
 * import { bfclFamily } from "./bfcl_greedy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bfclFamily("parallel_multiple"), "parallel");
 * assert.equal(bfclFamily("live_irrelevance"), "irrelevance");
 * assert.equal(bfclFamily("simple_java"), "simple");
 * ```
 */
export function bfclFamily(category: string): BfclFamily {
  if (category.includes("irrelevance")) return "irrelevance";
  if (category.includes("relevance")) return "relevance";
  if (category.includes("parallel")) return "parallel";
  if (category.includes("multiple")) return "multiple";
  return "simple";
}

interface CallCheck {
  valid: boolean;
  error_type?: string;
  error?: string;
}

const PASS: CallCheck = Object.freeze({ valid: true });

/**
 * BFCL's `simple_function_checker` on one call against one required call.
 *
 * @param expected The required call (its args usually `$normalize: "bfcl"` matchers).
 * @param actual The call made.
 * @returns The verdict and BFCL's `error_type`.
 *
 * @example Usage
 * ```ts
 * import { bfclCallCheck } from "./bfcl_greedy.ts";
 * import { BfclParam } from "../scoring/bfcl_param.ts";
 * import assert from "node:assert/strict";
 *
 * const expected = { tool: "area", args: { base: new BfclParam([10], { doc: { type: "integer", required: true } }) } };
 * assert.equal(bfclCallCheck(expected, { tool: "area", args: { base: 10 } }).valid, true);
 * assert.equal(bfclCallCheck(expected, { tool: "area", args: {} }).error_type, "simple_function_checker:missing_required");
 * assert.equal(bfclCallCheck(expected, { tool: "Area", args: { base: 10 } }).error_type, "simple_function_checker:wrong_func_name");
 * ```
 */
export function bfclCallCheck(expected: ToolCall, actual: ToolCall): CallCheck {
  if (actual.tool !== expected.tool) {
    return {
      valid: false,
      error_type: "simple_function_checker:wrong_func_name",
      error: `function ${JSON.stringify(expected.tool)} not called (got ${
        JSON.stringify(actual.tool)
      })`,
    };
  }
  if (actual.argsError !== undefined) {
    // Values JSON cannot hold (bytes, complex numbers): BFCL's type checks fail them; toolscore
    // cannot run those checks, so it says so under its own name.
    return {
      valid: false,
      error_type: "toolscore:unreadable_arguments",
      error: `the arguments could not be read: ${actual.argsError}`,
    };
  }
  const want = expected.args;
  if (want === undefined || want === null) return PASS;
  const got = actual.args ?? {};
  for (const key of Object.keys(want)) {
    const param = want[key];
    if (param instanceof BfclParam && param.doc?.required === true && !Object.hasOwn(got, key)) {
      return {
        valid: false,
        error_type: "simple_function_checker:missing_required",
        error: `missing required parameter ${JSON.stringify(key)}`,
      };
    }
  }
  for (const key of Object.keys(got)) {
    if (!Object.hasOwn(want, key)) {
      return {
        valid: false,
        error_type: "simple_function_checker:unexpected_param",
        error: `unexpected parameter ${JSON.stringify(key)}`,
      };
    }
    const param = want[key];
    if (param instanceof BfclParam) {
      const check = param.check(key, got[key]);
      if (!check.valid) return { valid: false, error_type: check.errorType, error: check.error };
    } else if (!valuesMatch(param, got[key])) {
      return {
        valid: false,
        error_type: "value_error:others",
        error: `invalid value for parameter ${JSON.stringify(key)}`,
      };
    }
  }
  for (const key of Object.keys(want)) {
    const param = want[key];
    const omittable = param instanceof BfclParam ? param.omittable : false;
    if (!Object.hasOwn(got, key) && !omittable) {
      return {
        valid: false,
        error_type: "simple_function_checker:missing_optional",
        error: `parameter ${JSON.stringify(key)} not provided and not marked as optional`,
      };
    }
  }
  return PASS;
}

// A check that turns BFCL's crashes into a verdict of their own.
function safeCheck(expected: ToolCall, actual: ToolCall): CallCheck {
  try {
    return bfclCallCheck(expected, actual);
  } catch (error) {
    if (!(error instanceof BfclCrashError)) throw error;
    return { valid: false, error_type: "toolscore:bfcl_checker_raises", error: error.message };
  }
}

/** Options for {@linkcode bfclVerdict}. */
export interface BfclVerdictOptions {
  /**
   * The BFCL category, for the checker that names the error (`source.category`).
   * @default {undefined} (from the number of required calls)
   */
  category?: string;
  /**
   * Pass on at least one call (`pass: "any-call"`, live relevance).
   * @default {false}
   */
  anyCall?: boolean;
  /**
   * Why the output did not decode into calls (the `bfcl` reader's
   * `metadata.decode_error`): with no call, an AST category's error is then
   * BFCL's `ast_decoder:decoder_failed`.
   * @default {undefined}
   */
  decodeError?: string;
}

// The most calls × required calls the one-to-one search looks at.
const MAX_CELLS = 10_000;

// Whether a perfect matching of valid pairs exists (Kuhn's augmenting paths).
function perfectMatching(valid: boolean[][], n: number): boolean {
  const owner: number[] = new Array(n).fill(-1);
  const tryRow = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < n; j++) {
      if (!valid[i]![j] || seen[j]) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryRow(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < n; i++) if (!tryRow(i, new Array(n).fill(false))) return false;
  return true;
}

/**
 * BFCL's verdict on the calls of a trace against a contract's required calls.
 *
 * @param required The required calls, in file order.
 * @param calls The calls made (the agent's, in order).
 * @param options The category, and whether one call is enough.
 * @returns The verdict with BFCL's `error_type`.
 *
 * @example Usage
 * ```ts
 * import { bfclVerdict } from "./bfcl_greedy.ts";
 * import assert from "node:assert/strict";
 *
 * const required = [{ tool: "f", args: { x: 1 } }, { tool: "f", args: {} }];
 * // Greedy: the first required call takes call 0 only if it fits; here it does not, so it takes call 1.
 * assert.equal(bfclVerdict(required, [{ tool: "f", args: {} }, { tool: "f", args: { x: 1 } }]).valid, true);
 * assert.equal(bfclVerdict(required, [{ tool: "f", args: {} }]).error_type, "parallel_function_checker_no_order:wrong_count");
 * assert.equal(bfclVerdict([], [{ tool: "f" }]).error_type, "irrelevance_error:decoder_success");
 * ```
 */
export function bfclVerdict(
  required: readonly ToolCall[],
  calls: readonly ToolCall[],
  options: BfclVerdictOptions = {},
): BfclVerdict {
  const family: BfclFamily = options.anyCall
    ? "relevance"
    : options.category !== undefined
    ? bfclFamily(options.category)
    : required.length === 0
    ? "irrelevance"
    : required.length === 1
    ? "simple"
    : "parallel";
  if (family === "relevance") {
    if (calls.length > 0) return { valid: true, pairs: [] };
    return {
      valid: false,
      error_type: "relevance_error:decoder_failed",
      error: "no function call where one was expected",
      pairs: [],
    };
  }
  if (family === "irrelevance" || required.length === 0) {
    if (calls.length === 0) return { valid: true, pairs: [] };
    return {
      valid: false,
      error_type: "irrelevance_error:decoder_success",
      error: `${calls.length} function call(s) where none was expected`,
      pairs: [],
    };
  }
  const checker = family === "parallel"
    ? "parallel_function_checker_no_order"
    : family === "multiple"
    ? "multiple_function_checker"
    : "simple_function_checker";
  if (calls.length === 0 && options.decodeError !== undefined) {
    return {
      valid: false,
      error_type: "ast_decoder:decoder_failed",
      error: `the output did not decode: ${options.decodeError}`,
      pairs: [],
    };
  }
  if (calls.length !== required.length) {
    return {
      valid: false,
      error_type: `${checker}:wrong_count`,
      error: `${calls.length} call(s), ${required.length} expected`,
      pairs: [],
    };
  }
  if (family !== "parallel") {
    const check = safeCheck(required[0]!, calls[0]!);
    return check.valid
      ? { valid: true, pairs: [[0, 0]] }
      : { valid: false, error_type: check.error_type, error: check.error, pairs: [] };
  }
  const n = required.length;
  const cells = n * n <= MAX_CELLS;
  const valid: boolean[][] = [];
  const cache = (i: number, j: number): CallCheck => {
    const check = safeCheck(required[i]!, calls[j]!);
    if (cells) (valid[i] ??= [])[j] = check.valid;
    return check;
  };
  const taken = new Set<number>();
  const pairs: [number, number][] = [];
  let failure: BfclVerdict | undefined;
  for (let i = 0; i < n && failure === undefined; i++) {
    let found = -1;
    let last: CallCheck | undefined;
    for (let j = 0; j < n; j++) {
      if (taken.has(j)) continue;
      last = cache(i, j);
      if (last.valid) {
        found = j;
        break;
      }
    }
    if (found < 0) {
      failure = {
        valid: false,
        error_type: `${checker}:cannot_find_match`,
        error: `no call matches required call ${i} (${required[i]!.tool}): ${last?.error ?? ""}`,
        pairs,
      };
    } else {
      taken.add(found);
      pairs.push([i, found]);
    }
  }
  if (failure === undefined) return { valid: true, pairs, optimal_valid: true };
  if (!cells) return failure;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (valid[i]?.[j] === undefined) cache(i, j);
  }
  return { ...failure, optimal_valid: perfectMatching(valid, n) };
}
