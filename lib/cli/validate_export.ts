/**
 * `toolscore validate-export OUT.jsonl`: check every record of an export and
 * the manifest beside it.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { validateExport } from "../export/validate_export.ts";
import { type CliIO, type Command, EXIT, type FlagSpec, parseFlags } from "./command.ts";

const FLAGS: FlagSpec = { json: { type: "boolean" } };

/** `toolscore validate-export`. */
export const validateExportCommand: Command = {
  name: "validate-export",
  summary: "check an export: every record (schema, record hash) and its manifest",
  help: `toolscore validate-export OUT.jsonl… [--json]

Check exports written by toolscore export: every line is a run record that
conforms to schemas/run-record.schema.json and whose hashes.record_sha256
matches it; the manifest beside it (OUT.manifest.json) matches the JSONL
file's SHA-256 and record count, names the shipped schema, and lists every
source a record names. Each problem is printed with its file and line.

Options:
  --json   print {exports: [{path, records, problems: [{file, line, message}], unlisted}]}
           as JSON (unlisted: record problems beyond the first 1000, not listed)

Exit codes: 0 all good, 1 problems found, 2 usage or input error (unreadable file).

Examples:
  toolscore validate-export export.jsonl
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("validate-export", args, FLAGS);
    if (flags.positionals.length === 0) {
      throw new UsageError("give the export's JSONL file; see toolscore validate-export --help");
    }
    const exports = [];
    for (const path of flags.positionals) {
      const { recordCount, problems, unlisted } = await validateExport(path);
      exports.push({ path, records: recordCount, problems, unlisted });
    }
    const failed = exports.some((found) => found.problems.length > 0);
    if (flags.values.json === true) {
      io.stdout(`${JSON.stringify({ exports }, null, 2)}\n`);
      return failed ? EXIT.gate : EXIT.ok;
    }
    for (const { path, records, problems, unlisted } of exports) {
      for (const problem of problems) {
        const at = problem.line === null ? problem.file : `${problem.file}:${problem.line}`;
        io.stdout(`${at}: ${problem.message}\n`);
      }
      const noun = `${records} record${records === 1 ? "" : "s"}`;
      const found = problems.length + unlisted;
      const more = unlisted > 0 ? ` (${unlisted} not listed)` : "";
      io.stdout(
        found === 0
          ? `${path}: ok (${noun}; hashes, count and manifest check out)\n`
          : `${path}: ${found} problem${found === 1 ? "" : "s"}${more} in ${noun}\n`,
      );
    }
    return failed ? EXIT.gate : EXIT.ok;
  },
};
