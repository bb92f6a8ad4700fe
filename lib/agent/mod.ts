/**
 * `agent run`: real models against real MCP tools — providers over `fetch`,
 * the run loop, rows, resume and shards, budget and injected faults.
 * Process and network code: the core folders never import it.
 *
 * @module
 */

export * from "./http.ts";
export * from "./keys.ts";
export * from "./provider.ts";
export * from "./openai.ts";
export * from "./anthropic.ts";
export * from "./gemini.ts";
export * from "./providers.ts";
export * from "./run_loop.ts";
export * from "./turns.ts";
export * from "./plan.ts";
export * from "./output.ts";
export * from "./estimate.ts";
export * from "./budget.ts";
export * from "./ledger.ts";
export * from "./faults.ts";
export * from "./finish_run.ts";
export * from "./run_matrix.ts";
export * from "./run_identity.ts";
export * from "./resume_guard.ts";
export * from "./output_lock.ts";
export * from "./restart.ts";
export * from "./run_part.ts";
export * from "./merge_runs.ts";
export * from "./breaker.ts";
export * from "./secret_forms.ts";
export * from "./scrub_work.ts";
