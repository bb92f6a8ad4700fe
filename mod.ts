/**
 * toolscore scores what LLM agents do with tools — which tools they call,
 * with which arguments, in what order, whether the calls succeeded, and
 * whether the agent told the truth about it — deterministically, offline, and
 * with proof.
 *
 * This module is the library's whole public surface: the names of the API
 * reference in their TypeScript form, and the types their signatures name.
 * Everything else in `lib/` is internal and may change without notice
 * (`CHANGELOG.md` records every change to this list).
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

// The shared base: version, errors, canonical JSON.
export { VERSION } from "./lib/base/mod.ts";
export { InputError, ToolscoreError, UsageError } from "./lib/base/mod.ts";
export { canonicalJson, jsonSha256 } from "./lib/base/mod.ts";
export type { TextPattern } from "./lib/base/mod.ts";

// Scoring: the call model and matchers.
export {
  ANY,
  Approx,
  Contains,
  DEFAULT_WEIGHTS,
  Eq,
  GRADE_BARS,
  isMatcher,
  IsType,
  matcherFromJson,
  OneOf,
  Regex,
} from "./lib/scoring/mod.ts";
export type {
  ApproxOptions,
  CoreMetrics,
  FigureBlock,
  FormatName,
  Grade,
  JsonObject,
  JsonTypeName,
  MalformedKind,
  Matcher,
  RegexOptions,
  SkippedItems,
  ToolCall,
  Trace,
  TraceRun,
  Usage,
} from "./lib/scoring/mod.ts";

// Evaluation: one trace against a gold file or a contract; assertTools for tests.
export {
  assertTools,
  evaluate,
  evaluateContract,
  evaluateTrace,
  EvaluationResult,
  goldFromJson,
  loadGold,
} from "./lib/evaluate/mod.ts";
export type {
  AssertToolsOptions,
  CombinationScore,
  ContractMetrics,
  EvaluateContractOptions,
  EvaluateOptions,
  EvaluateTraceOptions,
  EvaluationMetrics,
  Expected,
} from "./lib/evaluate/mod.ts";

// Reading traces: the one detector and every format it knows.
export { detectFormat, FORMATS, readTrace, tracesFromValue } from "./lib/formats/mod.ts";
export type { ReadTraceOptions } from "./lib/formats/mod.ts";

// Contracts.
export {
  AlternativeGroup,
  Contract,
  CONTRACT_SCHEMA,
  CONTRACT_VERSION,
  contractFromMapping,
  isContract,
  loadContract,
  MAX_COMBINATIONS,
  splitOptional,
} from "./lib/contract/mod.ts";
export type { ContractOptions, Expansion, RequiredEntry } from "./lib/contract/mod.ts";
export { DEFAULT_PASS_CHECKS, DEFAULT_PASS_RULE } from "./lib/contract/mod.ts";
export type { MatchingMode, PassRule } from "./lib/contract/mod.ts";
export type { PassVerdict } from "./lib/evaluate/mod.ts";

// Public benchmarks imported as contracts.
export { contractsFromTau2, tau2Index } from "./lib/benchmarks/mod.ts";
export type { Tau2Contract, Tau2ImportOptions } from "./lib/benchmarks/mod.ts";
export { contractsFromBfcl } from "./lib/benchmarks/mod.ts";
export type { BfclContract, ContractsFromBfclOptions } from "./lib/benchmarks/mod.ts";

// Checks: forbidden rules, credentials, honesty, side effects, evidence.
export {
  Check,
  DEFAULT_HONESTY,
  evaluationEvidence,
  EvidenceCheck,
  honestyConfigFromJson,
  loadForbidden,
  loadHonestyConfig,
  loadInjectedFaults,
  STATES,
  summaryLine,
  tally,
  triState,
} from "./lib/checks/mod.ts";
export type {
  CheckJson,
  Evidence,
  EvidenceCounts,
  EvidenceCoverage,
  EvidenceSource,
  EvidenceState,
  ForbiddenRule,
  HonestyCheckName,
  HonestyConfig,
  HonestyFinding,
  HonestyMetrics,
  InjectedFault,
  InjectedFaultKind,
  InjectedFaultMatch,
  PolicyMetrics,
  PolicyViolation,
  SecretFinding,
  SecurityMetrics,
  SideEffectCheck,
  SideEffectPair,
  SideEffectsMetrics,
} from "./lib/checks/mod.ts";

// Receipts and regrade.
export {
  buildReceipt,
  fileDigest,
  loadReceipt,
  RECEIPT_SCHEMA,
  RECEIPT_VERSION,
  ReceiptMismatchError,
  Regrade,
  regrade,
  verifyReceipt,
  writeReceipt,
} from "./lib/receipts/mod.ts";
export type {
  BuildReceiptOptions,
  FileDigest,
  Receipt,
  ReceiptInput,
  ReceiptInputSpec,
  ReceiptProducer,
  ReceiptResult,
  ReceiptSettings,
  RegradeDetails,
  RegradedFrom,
  RegradeOptions,
  VerifyReceiptOptions,
} from "./lib/receipts/mod.ts";

// Statistics and selection.
export {
  ADJUST_METHODS,
  adjustPValues,
  clusteredInterval,
  COMPARE_TESTS,
  compareRuns,
  Comparison,
  differenceInterval,
  DuplicateRunError,
  ERRORS_MODES,
  evaluateProtocol,
  fisherExact,
  GENERALIZE_TO,
  loadProtocol,
  loadRuns,
  mcnemarExact,
  Objective,
  OBJECTIVE_METRICS,
  PairComparison,
  pairedDifferenceInterval,
  paretoFront,
  passHatK,
  ProtocolResult,
  RuleOutcome,
  Run,
  RUN_OUTCOMES,
  runFromRow,
  runsFromTraces,
  runsNeeded,
  Selection,
  SELECTION_POLICIES,
  selectVariant,
  signFlipTest,
  taskClassOf,
  taskDifferenceInterval,
  VariantStats,
  wilsonInterval,
} from "./lib/stats/mod.ts";
export type {
  AdjustMethod,
  AdjustPValuesOptions,
  Cluster,
  ClusteredIntervalOptions,
  ClusteredIntervalResult,
  CompareRunsOptions,
  CompareTest,
  DifferenceIntervalOptions,
  DifferenceMethod,
  ErrorsMode,
  Generalize,
  LoadRunsOptions,
  ObjectiveGoal,
  ObjectiveSpec,
  PairComparisonFields,
  PairTest,
  Protocol,
  ProtocolDecision,
  ProtocolResultFields,
  ProtocolRule,
  RuleExpectation,
  RuleOutcomeFields,
  RuleStatus,
  RunFromRowOptions,
  RunOptions,
  RunOutcome,
  RunsFromTracesOptions,
  RunsNeededOptions,
  SelectionFields,
  SelectionPolicy,
  SelectVariantOptions,
  SignFlipTestOptions,
  SignFlipTestResult,
  TaskClass,
  TaskClassName,
  TaskDifferenceIntervalOptions,
  TaskRuns,
  VariantStatsFields,
  WilsonIntervalOptions,
  WilsonOptions,
} from "./lib/stats/mod.ts";

// Export: run records for warehouses.
export {
  exportRecords,
  iterateRecords,
  recordFromRun,
  RUN_RECORD_SCHEMA,
  SCHEMA_VERSION,
  validateRecord,
  writeExport,
} from "./lib/export/mod.ts";
export type {
  ExportManifest,
  ExportOptions,
  ExportRecordsOptions,
  IterateRecordsOptions,
  RecordSource,
  RunRecord,
} from "./lib/export/mod.ts";

// Doctor: MCP server specs and the preflight checks.
export { McpServerError, providerToolNames, toolNameProblems } from "./lib/mcp/mod.ts";
export type {
  ConfigNote,
  HttpServerSpec,
  LeftBehind,
  MarkedProcess,
  McpClient,
  McpServerErrorKind,
  MCPServerSpec,
  McpServerSpec,
  ServerVerify,
  StdioServerSpec,
  ToolNameProvider,
} from "./lib/mcp/mod.ts";
export {
  catalogDrift,
  catalogOf,
  checkServer,
  DoctorCheck,
  doctorReport,
  probesFromJson,
  readBaseline,
  readProbeFile,
  runDoctor,
  writeBaseline,
} from "./lib/doctor/mod.ts";
export type {
  BaselineChoice,
  Catalog,
  CheckServerOptions,
  DoctorCheckJson,
  DoctorFinding,
  DoctorReport,
  DoctorStatus,
  DoctorTerms,
  DriftChange,
  DriftClass,
  EnvReader,
  FindingSeverity,
  IgnoreRule,
  Probe,
  ProbeKind,
  RunDoctorOptions,
  ServerProbeOptions,
  StartCause,
} from "./lib/doctor/mod.ts";
export type { ClientCapabilityName } from "./lib/mcp/mod.ts";

// `deno run jsr:@toolscore/cli eval …`: run as the main module, the package's default export is
// the CLI. Imported dynamically, so `import { evaluate } from "@toolscore/cli"` neither starts
// the CLI nor loads its command table.
if (import.meta.main) {
  const { main } = await import("./cli.ts");
  await main(Deno.args);
}
