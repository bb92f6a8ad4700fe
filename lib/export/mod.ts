/**
 * Export of run records: one flat, versioned, hash-checked record per run
 * from agent-run JSONL, traces and receipts, written as JSONL with a manifest
 * that proves where each record came from, for warehouses and notebooks.
 *
 * @module
 */

export {
  RUN_RECORD_SCHEMA,
  RUN_RECORD_SCHEMA_PATH,
  RUN_RECORD_SCHEMA_SHA256,
  SCHEMA_VERSION,
} from "./schema.ts";
export type { RecordSource, RunRecord } from "./schema.ts";
export { recordFromRun } from "./record.ts";
export { recordSha256, validateRecord } from "./validate.ts";
export {
  type ExportOptions,
  exportRecords,
  type ExportRecordsOptions,
  iterateRecords,
  type IterateRecordsOptions,
} from "./iterate.ts";
export { type ExportManifest, manifestPathOf, writeExport } from "./write.ts";
export {
  type ExportCheck,
  type ExportProblem,
  validateExport,
  type ValidateExportOptions,
} from "./validate_export.ts";
