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
import "./lib/_heavy.ts";

export * from "./lib/errors.ts";
export * from "./lib/calls.ts";
export * from "./lib/load.ts";
export * from "./lib/canonical.ts";
export * from "./lib/atomic_write.ts";
export * from "./lib/formats/mod.ts";
export * from "./lib/matchers.ts";
export * from "./lib/hungarian.ts";
export * from "./lib/pairing.ts";
export * from "./lib/metrics.ts";
export * from "./lib/schema_check.ts";
export * from "./lib/score.ts";
export * from "./lib/gold.ts";
export * from "./lib/evaluate.ts";
export * from "./lib/expected.ts";
export * from "./lib/assert_tools.ts";
export * from "./lib/contract/mod.ts";
export * from "./lib/call_match.ts";
export * from "./lib/forbidden.ts";
export * from "./lib/security.ts";
export * from "./lib/honesty.ts";
export * from "./lib/side_effects.ts";
export * from "./lib/evidence.ts";
export * from "./lib/receipts/mod.ts";
export * from "./lib/stats/mod.ts";
export * from "./lib/export/mod.ts";
export * from "./lib/mcp/server_spec.ts";
export * from "./lib/mcp/server_error.ts";
export * from "./lib/prices.ts";
export * from "./lib/agent_spec.ts";
export * from "./lib/doctor/mod.ts";
export * from "./lib/report/color.ts";
export * from "./lib/report/issues.ts";
export * from "./lib/report/console.ts";
export * from "./lib/cli/command.ts";
export * from "./lib/cli/run.ts";
export * from "./lib/cli/gate_flags.ts";
export * from "./lib/cli/inputs.ts";
export * from "./lib/cli/progress.ts";
