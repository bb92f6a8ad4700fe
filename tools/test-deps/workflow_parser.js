// The entry that tests/report_action_test.ts bundles with `deno bundle` (the package imports
// its JSON schemas without import attributes, so neither Node nor Deno loads it directly).
export { NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
export { parseAction } from "@actions/workflow-parser/actions/action-parser";
