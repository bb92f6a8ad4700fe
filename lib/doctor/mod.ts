/**
 * The doctor: preflight checks that catch a broken agent setup (spec,
 * contracts, keys, packages, prices, budget, the MCP server and its tools)
 * before a run spends money.
 *
 * @module
 */

export * from "./check.ts";
export * from "./report.ts";
export * from "./closest_name.ts";
export * from "./tool_schemas.ts";
export * from "./checks.ts";
export * from "./contract_checks.ts";
export * from "./check_server.ts";
export * from "./run_doctor.ts";
export * from "./terms.ts";
export * from "./catalog.ts";
export * from "./drift.ts";
export * from "./tool_lint.ts";
export * from "./server_checks.ts";
export * from "./config_check.ts";
export * from "./linger_check.ts";
export * from "./server_fixes.ts";
export * from "./markdown.ts";
export * from "./run_placeholders.ts";
export * from "./lint_text.ts";
export * from "./lint_server.ts";
export * from "./schema_drift.ts";
export * from "./catalog_checks.ts";
export * from "./ignore.ts";
export * from "./start_cause.ts";
export * from "./probe_file.ts";
export * from "./probe_run.ts";
