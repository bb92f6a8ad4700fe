/**
 * `toolscore import BENCHMARK …`: public benchmarks' task files as contracts.
 * This module is the dispatcher; each benchmark's subcommand is its own
 * module (`import_bfcl.ts`, `import_tau2.ts`), registered in
 * {@linkcode IMPORTERS}.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { CliIO, Command } from "./command.ts";
import { IMPORT_TAU2_HELP, importTau2 } from "./import_tau2.ts";

/** One benchmark importer: its one-line summary and its command. */
export interface ImporterEntry {
  /** One line for `toolscore import --help`. */
  summary: string;
  /** The subcommand's usage and options, a section of `toolscore import --help`. */
  help: string;
  /** Load and run the subcommand. */
  run(args: string[], io: CliIO): Promise<number>;
}

/** The importers, by benchmark name. */
export const IMPORTERS: Record<string, ImporterEntry> = {
  bfcl: {
    summary:
      "BFCL question + possible_answer files → one contract per entry (BFCL's checker rules)",
    help: `toolscore import bfcl QUESTIONS.json [ANSWERS.json] -o DIR [--underscore-to-dot]
                        [--gorilla-commit SHA] [--force]

  QUESTIONS.json is a BFCL v3/v4 question file and ANSWERS.json its possible_answer file
  (JSON Lines despite the name; ShishirPatil/gorilla berkeley-function-call-leaderboard/
  bfcl_eval/data/). The relevance categories (irrelevance, live_irrelevance, live_relevance)
  have no answers file. Writes DIR/<id>.json per entry and DIR/index.json. Each contract has
  BFCL's checker rules: matching bfcl-greedy, pass exact (any-call for live_relevance), each
  parameter a $one_of with $normalize "bfcl", and source {benchmark, id, category,
  gorilla_commit}. multi_turn_*, the executable categories and the v4 agentic ones
  (web_search, memory, format_sensitivity) are out of scope and refused.

  -o, --output DIR      the folder to write (created when missing)
  --underscore-to-dot   compare "." in function names as "_" (BFCL's underscore_to_dot model
                        setting, for models whose API forbids "." in names); recorded in source
  --gorilla-commit SHA  the gorilla commit the files come from, recorded in source (default:
                        null, unknown)
  --force               replace contracts already in DIR (an existing DIR/index.json is
                        otherwise refused)`,
    run: async (args, io) => (await import("./import_bfcl.ts")).importBfcl(args, io),
  },
  tau2: {
    summary: "τ²-bench tasks → one contract per task (τ²'s action check)",
    help: IMPORT_TAU2_HELP.trimEnd(),
    run: (args, io) => importTau2(args, io),
  },
};

function help(): string {
  const lines = Object.entries(IMPORTERS).map(([name, entry]) =>
    `  ${name.padEnd(8)}${entry.summary}`
  );
  const sections = Object.values(IMPORTERS).map((entry) => entry.help);
  return `toolscore import BENCHMARK … — a public benchmark's task files as contracts

Benchmarks:
${lines.join("\n")}

${sections.join("\n\n")}

Exit codes: 0 written, 2 usage or input error (nothing written),
70 internal error — a bug, please report it with TOOLSCORE_DEBUG=1.

Examples:
  toolscore import bfcl BFCL_v4_simple_python.json possible_answer/BFCL_v4_simple_python.json -o contracts/
  toolscore import tau2 data/tau2/domains/airline/tasks.json -o contracts/airline --domain airline
`;
}

/** `toolscore import`. */
export const importCommand: Command = {
  name: "import",
  summary: "import a public benchmark's tasks as contracts (bfcl, tau2)",
  help: help(),
  run(args: string[], io: CliIO): Promise<number> {
    const [sub, ...rest] = args;
    const entry = sub !== undefined && Object.hasOwn(IMPORTERS, sub) ? IMPORTERS[sub] : undefined;
    if (entry === undefined) {
      throw new UsageError(
        `import needs a benchmark (${Object.keys(IMPORTERS).join(", ")}), got ${
          sub === undefined ? "nothing" : JSON.stringify(sub)
        }; see toolscore import --help`,
      );
    }
    return entry.run(rest, io);
  },
};
