/**
 * The `checks` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./claimed_success.ts";
export * from "./disclosure.ts";
export * from "./error_text.ts";
export * from "./escape_hatch.ts";
export * from "./evidence.ts";
export * from "./evidence_format.ts";
export * from "./evidence_state.ts";
export * from "./forbidden.ts";
export * from "./honesty.ts";
export * from "./honesty_config.ts";
export * from "./honesty_context.ts";
export * from "./honesty_text.ts";
export * from "./injected_faults.ts";
export * from "./recovery.ts";
export * from "./security.ts";
export * from "./side_effects.ts";
