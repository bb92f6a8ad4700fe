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

// The library loads its parsers and validators up front (the CLI loads them on demand).
import "./lib/base/_heavy.ts";

export * from "./lib/base/errors.ts";
export * from "./lib/scoring/calls.ts";
export * from "./lib/base/load.ts";
export * from "./lib/base/canonical.ts";
export * from "./lib/base/atomic_write.ts";
export type { TextPattern } from "./lib/base/user_regex.ts";
export * from "./lib/formats/mod.ts";
export * from "./lib/scoring/matchers.ts";
export * from "./lib/scoring/hungarian.ts";
export * from "./lib/scoring/pairing.ts";
export * from "./lib/scoring/metrics.ts";
export * from "./lib/scoring/schema_check.ts";
export * from "./lib/scoring/score.ts";
export * from "./lib/scoring/gold.ts";
export * from "./lib/scoring/evaluate.ts";
export * from "./lib/contract/expected.ts";
export * from "./lib/scoring/assert_tools.ts";
export * from "./lib/contract/mod.ts";
export * from "./lib/scoring/call_match.ts";
export * from "./lib/checks/forbidden.ts";
export * from "./lib/checks/security.ts";
export * from "./lib/checks/honesty.ts";
export * from "./lib/checks/side_effects.ts";
export * from "./lib/checks/evidence.ts";
export * from "./lib/receipts/mod.ts";
export * from "./lib/stats/mod.ts";
export * from "./lib/export/mod.ts";
export * from "./lib/mcp/server_spec.ts";
export * from "./lib/mcp/server_error.ts";
export * from "./lib/agent/prices.ts";
export * from "./lib/agent/spec.ts";
export * from "./lib/doctor/mod.ts";
export * from "./lib/report/color.ts";
export * from "./lib/report/issues.ts";
export * from "./lib/report/console.ts";
export * from "./lib/cli/command.ts";
export * from "./lib/cli/run.ts";
export * from "./lib/cli/gate_flags.ts";
export * from "./lib/cli/inputs.ts";
export * from "./lib/cli/progress.ts";
