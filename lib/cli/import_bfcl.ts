/**
 * `toolscore import bfcl QUESTIONS.json [ANSWERS.json] -o DIR`: BFCL entries
 * as contracts (`contractsFromBfcl`, `lib/benchmarks/bfcl_import.ts`).
 *
 * Everything is read and converted before anything is written, so a bad
 * line writes nothing. Each contract goes to `DIR/<id>.json` (atomically),
 * then `DIR/index.json`: `{benchmark: "bfcl", gorilla_commit,
 * underscore_to_dot, contracts: [{id, category, file}]}` in file order.
 *
 * One folder may hold several categories, so that one `eval DIR RESULTS…`
 * scores a whole BFCL run: importing into a folder whose `index.json` was
 * written by `import bfcl` with the same commit and `--underscore-to-dot`
 * setting adds the new entries to it (an id already listed, or a contract
 * file of the same name, is refused unless `--force`, which replaces it). An
 * index written otherwise is refused unless `--force`, which replaces it:
 * one folder never mixes model settings or gorilla commits.
 *
 * @module
 */

import { join } from "node:path";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { InputError, UsageError } from "../base/errors.ts";
import { readTextFile } from "../base/load.ts";
import { contractsFromBfcl } from "../benchmarks/bfcl_import.ts";
import { type CliIO, EXIT, parseFlags, stringFlag } from "./command.ts";
import { readyOutputFolder } from "./output_ready.ts";
import { pathExists } from "../base/path_exists.ts";

const FLAGS = {
  output: { type: "string", short: "o" },
  "underscore-to-dot": { type: "boolean" },
  "gorilla-commit": { type: "string" },
  force: { type: "boolean" },
} as const;

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;

interface IndexEntry {
  id: string;
  category?: unknown;
  file: string;
}

// The entries of an index this command wrote with the same settings, kept when adding to it; []
// for no index, or with --force for any other. Another index without --force is refused.
async function keptEntries(
  index: string,
  commit: string | null,
  underscoreToDot: boolean,
  force: boolean,
): Promise<IndexEntry[]> {
  if (!(await pathExists(index))) return [];
  let data: unknown;
  try {
    data = JSON.parse(await readTextFile(index));
  } catch (error) {
    if (force) return [];
    if (error instanceof InputError) throw error;
    throw new InputError("not an index this command wrote (not JSON); pass --force", index);
  }
  const listing = data as Record<string, unknown>;
  const ours = typeof data === "object" && data !== null && listing.benchmark === "bfcl" &&
    Array.isArray(listing.contracts) &&
    listing.contracts.every((e: unknown) =>
      typeof e === "object" && e !== null && typeof (e as IndexEntry).id === "string" &&
      typeof (e as IndexEntry).file === "string"
    );
  if (!ours) {
    if (force) return [];
    throw new InputError(
      "already exists and is not a BFCL index; choose another -o folder or pass --force",
      index,
    );
  }
  if (listing.gorilla_commit !== commit || listing.underscore_to_dot !== underscoreToDot) {
    if (force) return [];
    throw new InputError(
      `was written with gorilla_commit ${JSON.stringify(listing.gorilla_commit)} and ` +
        `underscore_to_dot ${listing.underscore_to_dot}; import with the same settings, into ` +
        "another -o folder, or pass --force to replace it",
      index,
    );
  }
  return listing.contracts as IndexEntry[];
}

/**
 * Run `toolscore import bfcl`.
 *
 * @param args The arguments after `import bfcl`.
 * @param io Where to write.
 * @returns The exit code.
 * @throws {UsageError} On bad arguments.
 * @throws {InputError} On a bad file (naming `file:line`), naming what to do.
 */
export async function importBfcl(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags("import bfcl", args, FLAGS);
  const [questions, answers, ...rest] = flags.positionals;
  if (questions === undefined) {
    throw new UsageError("import bfcl needs QUESTIONS.json; see toolscore import --help");
  }
  if (rest.length > 0) {
    throw new UsageError(
      `import bfcl takes QUESTIONS.json and at most one ANSWERS.json, got also ${rest.join(" ")}`,
    );
  }
  const output = stringFlag(flags, "output");
  if (output === undefined) {
    throw new UsageError("import bfcl needs -o DIR, the folder to write the contracts to");
  }
  const commit = stringFlag(flags, "gorilla-commit");
  if (commit !== undefined && !/^[0-9a-f]{7,40}$/.test(commit)) {
    throw new UsageError(
      `--gorilla-commit: expected a git commit (hex), got ${JSON.stringify(commit)}`,
    );
  }
  const underscoreToDot = flags.values["underscore-to-dot"] === true;
  const force = flags.values.force === true;
  const entries = contractsFromBfcl(
    await readTextFile(questions),
    answers === undefined ? undefined : await readTextFile(answers),
    { underscoreToDot, gorillaCommit: commit, questionsName: questions, answersName: answers },
  );
  for (const entry of entries) {
    if (!SAFE_NAME.test(entry.id) || entry.id === "index") {
      throw new InputError(
        `id ${
          JSON.stringify(entry.id.slice(0, 80))
        } cannot be a file name; BFCL ids are like simple_python_0`,
        questions,
      );
    }
  }
  await readyOutputFolder(output, "-o");
  const index = join(output, "index.json");
  const kept = await keptEntries(index, commit ?? null, underscoreToDot, force);
  const adding = new Set(entries.map((e) => e.id));
  if (!force) {
    for (const path of entries.map((e) => join(output, `${e.id}.json`))) {
      if (await pathExists(path)) {
        throw new InputError("already exists; choose another -o folder or pass --force", path);
      }
    }
  }
  for (const entry of entries) {
    await writeTextFileAtomic(
      join(output, `${entry.id}.json`),
      `${JSON.stringify(entry.contract, null, 2)}\n`,
      { overwrite: force },
    );
  }
  const listing = {
    benchmark: "bfcl",
    gorilla_commit: commit ?? null,
    underscore_to_dot: underscoreToDot,
    contracts: [
      ...kept.filter((entry) => !adding.has(entry.id)),
      ...entries.map((e) => ({ id: e.id, category: e.category, file: `${e.id}.json` })),
    ],
  };
  await writeTextFileAtomic(index, `${JSON.stringify(listing, null, 2)}\n`, {
    overwrite: true,
  });
  const categories = [...new Set(entries.map((e) => e.category))].join(", ");
  io.stderr(
    `toolscore: wrote ${entries.length} contract${entries.length === 1 ? "" : "s"} ` +
      `(${categories || "none"}) and index.json to ${output}\n`,
  );
  return EXIT.ok;
}
