/**
 * The checks beside the score: forbidden calls, credentials, honesty, side
 * effects and the tri-state evidence that sums them up.
 *
 * @module
 */

export * from "./forbidden.ts";
export * from "./security.ts";
export * from "./side_effects.ts";
export * from "./honesty.ts";
export * from "./honesty_config.ts";
export * from "./error_text.ts";
export * from "./injected_faults.ts";
export * from "./recovery.ts";
export * from "./honesty_context.ts";
export * from "./honesty_text.ts";
export * from "./claimed_success.ts";
export * from "./disclosure.ts";
export * from "./escape_hatch.ts";
export * from "./evidence.ts";
export * from "./evidence_state.ts";
export * from "./evidence_format.ts";
