/**
 * `toolscore export INPUT… -o OUT.jsonl`: run records from agent-run JSONL,
 * traces and receipts, written as JSONL with a manifest beside it.
 *
 * @module
 */

import { resolve } from "node:path";
import { UsageError } from "../base/errors.ts";
import { iterateRecords } from "../export/iterate.ts";
import type { RunRecord } from "../export/schema.ts";
import { tallyTasks, withTaskClass } from "../export/task_class.ts";
import { writeExport } from "../export/write.ts";
import { checkOutput } from "./overwrite.ts";
import { readyOutputFile } from "./output_ready.ts";
import { strayNote } from "./inputs.ts";
import { skippedEntriesNote, walkTracePaths } from "../formats/trace_folder.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  numberFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

const FLAGS: FlagSpec = {
  output: { type: "string", short: "o" },
  gold: { type: "string" },
  variant: { type: "string" },
  "min-score": { type: "string" },
  "task-pattern": { type: "string" },
  json: { type: "boolean" },
  force: { type: "boolean" },
};

/** `toolscore export`. */
export const exportCommand: Command = {
  name: "export",
  summary: "run records (JSONL + manifest) from runs, traces and receipts, for warehouses",
  help: `toolscore export INPUT… -o OUT.jsonl [OPTIONS]

Turn agent-run JSONL, trace files and receipts (mixed) into one flat,
versioned, hash-checked run record per run: OUT.jsonl, one record per line
(schema: schemas/run-record.schema.json), and OUT.manifest.json with the
schema, the sources and their SHA-256, the record count and the JSONL's
SHA-256. Both files are written atomically: a failing export leaves no file
behind and never replaces an existing OUT. An existing OUT is replaced only when
it is an earlier export (its toolscore manifest beside it) or with --force;
never when it is one of the INPUTs. Unknown values are null;
credentials are never written in clear. Each record carries task_class: how
its task behaved under its variant over all the INPUTs (stable_pass,
stable_fail, flaky, or single under two runs; errors count as not passing),
so the inputs are read twice. Check an export with
toolscore validate-export OUT.jsonl.

Inputs:
  *.jsonl                  toolscore agent run rows (or exported records), streamed;
                           a .jsonl file of traces is one run per line
  trace files              any supported format; run id = file name, task and
                           repeat from the task pattern (refund-3 → refund, 3)
  receipts                 from toolscore eval --receipt (they carry their own verdict)
  folders                  their trace files, as eval reads a folder (receipts and the
                           --gold file left out; files that are not traces skipped)

Options:
  -o, --output OUT.jsonl   the file to write (required)
  --gold G                 gold file or contract to score traces (without it they are "unknown")
  --variant V              the variant of traces and receipts (default: null)
  --min-score S            the passing score of traces and receipts (default: the
                           contract's, else 0.9; receipts keep their own verdict)
  --task-pattern RE        regex with a (?<task>…) group over file stems
                           (default ^(?<task>.+?)(?:[-_.]r?\\d+)?$)
  --json                   print {records, jsonl, manifest} as JSON
  --force                  replace an existing OUT that is not an earlier export

Exit codes: 0 written, 2 usage or input error (nothing written).

Examples:
  toolscore export runs.jsonl -o export.jsonl
  toolscore export traces/*.json --gold contract.yaml --variant mini -o mini.jsonl
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("export", args, FLAGS);
    const inputs = flags.positionals;
    const output = stringFlag(flags, "output");
    if (inputs.length === 0) {
      throw new UsageError("give the INPUT files to export; see toolscore export --help");
    }
    if (output === undefined || output === "") {
      throw new UsageError("give the output file with -o OUT.jsonl; see toolscore export --help");
    }
    if (inputs.some((input) => resolve(input) === resolve(output))) {
      throw new UsageError(`-o ${output} is also an input; write the export to another file`);
    }
    const repeated = inputs.length - new Set(inputs.map((input) => resolve(input))).size;
    if (repeated > 0) {
      io.stderr(
        `toolscore: note: ${plural(repeated, "input")} given more than once; ` +
          "each file is exported once\n",
      );
    }
    const minScore = numberFlag(flags, "min-score", [0, 1]);
    const variant = stringFlag(flags, "variant");
    let count = 0;
    let withoutVariant = 0;
    let unscored = 0;
    const counted = async function* (records: AsyncIterable<RunRecord>) {
      for await (const record of records) {
        count++;
        if (record.source.kind !== "agent_run") {
          if (record.variant === null) withoutVariant++;
          if (record.source.kind === "trace" && record.score === null) unscored++;
        }
        yield record;
      }
    };
    const strays: string[] = [];
    const recordOptions = {
      gold: stringFlag(flags, "gold"),
      variant,
      minScore,
      taskPattern: stringFlag(flags, "task-pattern"),
    };
    // The output's folder and write access, before any input is read (issue 32).
    await readyOutputFile(output, "-o");
    await checkOutput(output, "export", { inputs, force: flags.values.force === true });
    // task_class is over the export's inputs: a first pass counts (variant, task), the second streams
    // (and names the stray files it skipped, once).
    const tally = await tallyTasks(iterateRecords(inputs, recordOptions));
    const records = withTaskClass(
      iterateRecords(inputs, {
        ...recordOptions,
        onStray: (path) => strays.push(path),
        onNote: (text) => io.stderr(`toolscore: note: ${text}\n`),
      }),
      tally,
    );
    // The manifest hashes the files read: a folder is its walked files (a stray one among them).
    const walk = walkTracePaths(inputs, { exclude: [recordOptions.gold] });
    const sources = walk.files;
    // FIFOs, devices and dangling links in a folder are named, never dropped silently (issue 42).
    const skippedLine = skippedEntriesNote(walk.skipped);
    if (skippedLine !== undefined) io.stderr(skippedLine);
    const [jsonl, manifest] = await writeExport(output, counted(records), sources);
    const strayLine = strayNote(strays);
    if (strayLine !== undefined) io.stderr(strayLine);
    if (withoutVariant > 0) {
      io.stderr(
        `toolscore: note: ${plural(withoutVariant, "record")} from traces or receipts ` +
          `${withoutVariant === 1 ? "has" : "have"} variant null; ` +
          "pass --variant V to name it\n",
      );
    }
    if (unscored > 0) {
      io.stderr(
        `toolscore: note: ${plural(unscored, "trace record")} ${unscored === 1 ? "is" : "are"} ` +
          "unscored (outcome unknown); " +
          "pass --gold G to score them\n",
      );
    }
    if (flags.values.json === true) {
      io.stdout(`${JSON.stringify({ records: count, jsonl, manifest }, null, 2)}\n`);
    } else {
      io.stdout(`exported ${plural(count, "record")} to ${jsonl}\n`);
      io.stdout(`manifest: ${manifest}\n`);
    }
    return EXIT.ok;
  },
};
