/**
 * toolscore scores what LLM agents do with tools — which tools they call,
 * with which arguments, in what order, whether the calls succeeded, and
 * whether the agent told the truth about it — deterministically, offline, and
 * with proof.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate(
 *   [{ tool: "search", args: { q: "deno" } }],
 *   [{ tool: "search", args: { q: "deno" } }],
 * );
 * assert.equal(result.score, 1);
 * assert.equal(result.grade, "A");
 * ```
 *
 * @module
 */

export * from "./lib/errors.ts";
export * from "./lib/calls.ts";
export * from "./lib/load.ts";
export * from "./lib/formats/mod.ts";
export * from "./lib/cli/command.ts";
export * from "./lib/cli/run.ts";
export * from "./lib/canonical.ts";
