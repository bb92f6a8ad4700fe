/**
 * The command table. Each command's module is imported only when that
 * command runs, so `toolscore --version` stays fast.
 *
 * @module
 */

import { loadHeavy } from "../base/_lazy.ts";
import type { Command } from "./command.ts";

// Every command but eval loads the parsers and validators with its module; eval loads them
// only when its inputs need them, which keeps a one-trace CI gate quick to start.
async function heavy<T>(module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, loadHeavy()]);
  return loaded;
}

/** One entry of the command table. */
export interface CommandEntry {
  /** One line for the command list. */
  summary: string;
  /** Load the command's module. */
  load(): Promise<Command>;
}

/** Every command, in the order `toolscore --help` lists them. */
export const COMMANDS: Record<string, CommandEntry> = {
  eval: {
    summary: "score traces against a gold file or contract",
    load: async () => (await import("./eval.ts")).evalCommand,
  },
  inspect: {
    summary: "show what was read from a trace: format, calls with outcomes, final answer",
    load: async () => (await heavy(import("./inspect.ts"))).inspectCommand,
  },
  demo: {
    summary: "a self-contained tour on bundled data (no setup, no keys)",
    load: async () => (await heavy(import("./demo.ts"))).demoCommand,
  },
  contract: {
    summary: "contract tools: init writes a starting contract from a known-good trace",
    load: async () => (await heavy(import("./contract.ts"))).contractCommand,
  },
  import: {
    summary: "import a public benchmark's tasks as contracts (bfcl, tau2)",
    load: async () => (await heavy(import("./import.ts"))).importCommand,
  },
  verify: {
    summary: "check receipts against their inputs (hashes, sizes, paths)",
    load: async () => (await heavy(import("./verify.ts"))).verifyCommand,
  },
  regrade: {
    summary: "rescore saved traces or receipts under new gold, weights or rules",
    load: async () => (await heavy(import("./regrade.ts"))).regradeCommand,
  },
  compare: {
    summary: "statistics over repeated runs: pass rates with intervals, pass^k, verdicts",
    load: async () => (await heavy(import("./compare.ts"))).compareCommand,
  },
  select: {
    summary: "pick a variant by policy (lexicographic, weighted, pareto) and objectives",
    load: async () => (await heavy(import("./select.ts"))).selectCommand,
  },
  decide: {
    summary: "evaluate a pre-declared protocol: adopt (0), reject (1), undecided (3)",
    load: async () => (await heavy(import("./decide.ts"))).decideCommand,
  },
  plan: {
    summary: "runs needed per variant to detect a pass-rate difference, and what they cost",
    load: async () => (await heavy(import("./plan.ts"))).planCommand,
  },
  export: {
    summary: "run records (JSONL + manifest) from runs, traces and receipts, for warehouses",
    load: async () => (await heavy(import("./export.ts"))).exportCommand,
  },
  "validate-export": {
    summary: "check an export: every record (schema, record hash) and its manifest",
    load: async () => (await heavy(import("./validate_export.ts"))).validateExportCommand,
  },
  doctor: {
    summary:
      "preflight checks: spec, contracts, keys, prices, budget, the MCP server and its tools",
    load: async () => (await heavy(import("./doctor.ts"))).doctorCommand,
  },
  agent: {
    summary: "agent run: run models against an MCP server, score every run, write JSONL rows",
    load: async () => (await heavy(import("./agent.ts"))).agentCommand,
  },
  merge: {
    summary: "merge shard outputs of agent run: duplicates once, conflicts refused, missing runs",
    load: async () => (await heavy(import("./merge.ts"))).mergeCommand,
  },
};
