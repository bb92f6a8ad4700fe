/**
 * Receipts: the proof of one evaluation (inputs by hash, settings, result),
 * checked by `verifyReceipt` and rescored by `regrade` without re-running
 * the agent. Canonical JSON and `jsonSha256` live in `canonical.ts`.
 *
 * @module
 */

export * from "./model.ts";
export * from "./errors.ts";
export * from "./digest.ts";
export * from "./build.ts";
export * from "./io.ts";
export * from "./verify.ts";
export * from "./regrade.ts";
