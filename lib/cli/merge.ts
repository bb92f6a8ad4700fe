/**
 * `toolscore merge RUNS.jsonl… -o OUT.jsonl [--out-dir DIR] [--spec SPEC]
 * [--json]`: shard outputs of `agent run` into one checked rows file (issue
 * 40; the checks are `lib/agent/merge_runs.ts`). Exit 0 merged; 4 with
 * `--spec`, planned runs are missing (the output is written, the missing
 * runs listed); 2 usage or input error — a conflicting row, a row of
 * another spec, a trace that does not match its hash — with nothing written.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { resolve } from "node:path";
import { spendLedgerPath } from "../agent/ledger.ts";
import { mergeRuns } from "../agent/merge_runs.ts";
import { loadAgentSpec } from "../spec/agent_spec.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { readyOutputFile, readyOutputFolder } from "./output_ready.ts";

/** `merge`'s exit code when planned runs are missing. */
export const EXIT_MISSING = 4;

/** `merge`'s flags. */
export const MERGE_FLAGS: FlagSpec = {
  output: { type: "string", short: "o" },
  "out-dir": { type: "string" },
  spec: { type: "string" },
  force: { type: "boolean" },
  json: { type: "boolean" },
};

const HELP = `toolscore merge RUNS.jsonl… -o OUT.jsonl — merge shard outputs of agent run

Merges the rows of shards (agent run --shard, --shard-index, --runs) into one file,
checked: a row given twice (a shard given twice, a retried job) counts once, with a
note; two different rows of one run, or one (arm, task, repeat) under two run ids,
stop the merge. Each row's trace_sha256 is checked against its trace. Row paths
(trace, receipt, injected) are rewritten relative to OUT's folder. The spend
ledgers beside the inputs (RUNS.spend.jsonl) merge into OUT.spend.jsonl, so the
budget ledger of the merged run is complete.

Usage:
  toolscore merge RUNS.jsonl… -o OUT.jsonl [--out-dir DIR] [--spec SPEC] [--force] [--json]

Options:
  -o, --output FILE   the merged rows (required; written atomically, with FILE.spend.jsonl);
                      never one of the inputs, and an existing FILE only with --force
  --out-dir DIR       place every run's files under DIR/ARM/ (hard-linked on the
                      same file system, else copied; never symlinked)
  --spec SPEC         the spec the shards ran: a row whose run id it does not plan
                      for its (arm, task, repeat) stops the merge; planned runs with
                      no row are listed (exit ${EXIT_MISSING})
  --force             replace an existing FILE (and its spend ledger)
  --json              print {rows, duplicates_dropped, missing: [run_id…],
                      plan: {runs, cells}}

Exit codes: 0 merged; ${EXIT_MISSING} --spec: planned runs are missing (OUT is written; run the
missing ones, e.g. agent run SPEC --runs with their plan lines, and merge again);
2 usage or input error (a conflicting row, a row of another spec, a trace that
changed): nothing is written.

Examples:
  toolscore merge shard-*.jsonl -o runs.jsonl --spec agent.yaml
  toolscore merge a/runs.jsonl b/runs.jsonl -o merged/runs.jsonl --out-dir merged/runs
`;

// The output is never an input, and an existing file is replaced only when --force asks.
async function checkTarget(inputs: string[], output: string, force: boolean): Promise<void> {
  const target = resolve(output);
  const ledger = resolve(spendLedgerPath(output));
  for (const input of inputs) {
    if (resolve(input) === target || resolve(spendLedgerPath(input)) === ledger) {
      throw new UsageError(
        `-o ${output} is the input ${input} (or shares its spend ledger): merge into a new file`,
      );
    }
  }
  if (force) return;
  const exists = await Deno.stat(output).then(() => true, () => false);
  if (exists) {
    throw new UsageError(
      `-o ${output} exists: pass --force to replace it, or merge into a new file`,
    );
  }
}

async function merge(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags("merge", args, MERGE_FLAGS);
  const inputs = flags.positionals;
  if (inputs.length === 0) {
    throw new UsageError("merge needs RUNS.jsonl files; see toolscore merge --help");
  }
  const output = stringFlag(flags, "output");
  if (output === undefined) throw new UsageError("merge needs -o OUT.jsonl (where the rows go)");
  await checkTarget(inputs, output, flags.values.force === true);
  const outDir = stringFlag(flags, "out-dir");
  const specPath = stringFlag(flags, "spec");
  const spec = specPath === undefined ? undefined : await loadAgentSpec(specPath);
  await readyOutputFile(output, "-o");
  if (outDir !== undefined) await readyOutputFolder(outDir, "--out-dir");
  const result = await mergeRuns({ inputs, output, outDir, spec, specName: specPath });
  for (const note of result.notes) io.stderr(`note: ${note}\n`);
  if (flags.values.json === true) {
    io.stdout(`${
      JSON.stringify({
        rows: result.rows,
        duplicates_dropped: result.duplicatesDropped,
        missing: result.missing,
        plan: result.plan,
      })
    }\n`);
  } else {
    io.stdout(
      `${result.rows} row(s) from ${inputs.length} file(s) written to ${output}` +
        `${
          result.duplicatesDropped > 0 ? ` (${result.duplicatesDropped} duplicate(s) dropped)` : ""
        }` +
        `${result.plan !== null ? `; ${result.plan.runs} run(s) planned` : ""}\n`,
    );
  }
  if (result.missing.length === 0) return EXIT.ok;
  const shown = result.missing.slice(0, 20);
  io.stderr(
    `${result.missing.length} planned run(s) missing: ${shown.join(", ")}${
      result.missing.length > shown.length ? ", …" : ""
    }\n`,
  );
  return EXIT_MISSING;
}

/** `toolscore merge`. */
export const mergeCommand: Command = {
  name: "merge",
  summary: "merge shard outputs of agent run: duplicates once, conflicts refused, missing runs",
  help: HELP,
  run: merge,
};
