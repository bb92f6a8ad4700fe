/**
 * `toolscore import tau2 TASKS.json -o DIR [--domain NAME] [--tau2-commit
 * SHA] [--force]` (issue 44): τ²-bench tasks as contracts
 * (`lib/benchmarks/tau2_contracts.ts`), one `DIR/<id>.json` per task and
 * `DIR/index.json` `{"contracts": [{"id", "file"}]}`, which `eval DIR
 * RESULTS…` reads to pick each run's contract by its task.
 *
 * This module is the `tau2` subcommand; the `import` command dispatches to
 * {@linkcode importTau2} with the arguments after `import tau2`.
 *
 * The tasks file is read with the lossless JSON parse (an integer a double
 * cannot hold keeps its digits in the contracts). Every contract is built
 * and checked before the first file is written, and every target is checked
 * against the overwrite rule (`overwrite.ts`: an existing contract is
 * replaced only with `--force`, an input never), so a bad task or an
 * existing file leaves `DIR` as it was. Exit 0 written; 2 usage or input
 * error (`TASKS.json:LINE:COL` for bad JSON, `TASKS.json: [3].evaluation_criteria…`
 * for a bad task), nothing written.
 *
 * @module
 */

import { join } from "node:path";
import { InputError, UsageError } from "../base/errors.ts";
import { withHeavy } from "../base/_lazy.ts";
import { parseDocument, readTextFile } from "../base/load.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { contractsFromTau2, tau2Index } from "../benchmarks/tau2_contracts.ts";
import { type CliIO, EXIT, type FlagSpec, parseFlags, stringFlag } from "./command.ts";
import { checkOutput } from "./overwrite.ts";
import { readyOutputFolder } from "./output_ready.ts";

/** `import tau2`'s flags. */
export const IMPORT_TAU2_FLAGS: FlagSpec = {
  output: { type: "string", short: "o" },
  domain: { type: "string" },
  "tau2-commit": { type: "string" },
  force: { type: "boolean" },
};

/** `import tau2`'s help. */
export const IMPORT_TAU2_HELP =
  `toolscore import tau2 TASKS.json -o DIR — τ²-bench tasks as contracts

Each task's evaluation_criteria.actions become the required calls of a contract
graded as τ²'s action check grades a simulation: matching "non-consuming" (one
call may satisfy several actions; tool name and the action's compare_args
compared, the requestor not) and pass "tau2-actions" (passed = every action
matched). requestor "user" actions are expected calls with actor "user".
passed equals τ²'s reward only for tasks whose reward_basis is ["ACTION"]; for
the others each result notes that its verdict is the action agreement only.

TASKS.json is data/tau2/domains/<domain>/tasks.json, or a τ² results file (its
tasks list). Writes DIR/<id>.json per task (characters outside A-Z a-z 0-9 . _ -
become _, repeated names get -2, -3, …) and DIR/index.json
{"contracts": [{"id", "file"}]}; score results with toolscore eval DIR RESULTS.json.

Usage:
  toolscore import tau2 TASKS.json -o DIR [--domain NAME] [--tau2-commit SHA] [--force]

Options:
  -o, --output DIR     the folder to write (created when missing; required)
  --domain NAME        source.domain of every contract (default: a results
                       file's domain, else none)
  --tau2-commit SHA    source.tau2_commit: the tau2-bench commit of TASKS.json
  --force              replace existing contracts in DIR

Exit codes:
  0 written; 2 usage or input error (nothing written); 70 internal error — a bug.

Example:
  toolscore import tau2 data/tau2/domains/airline/tasks.json -o contracts/airline --domain airline
`;

async function readTasks(path: string): Promise<unknown> {
  const text = await readTextFile(path);
  try {
    return parseJsonLossless(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // The JSON parse says where: file:line:column.
    await withHeavy(() => parseDocument(text, path, { syntax: "json" }));
    throw new InputError("not JSON", path);
  }
}

/**
 * Run `toolscore import tau2` (the arguments after `import tau2`).
 *
 * @param args The arguments.
 * @param io Where to write.
 * @returns The exit code.
 * @throws {UsageError} On bad flags; {@linkcode InputError} on a bad tasks file.
 *
 * @example Usage
 * ```ts
 * import { importTau2 } from "./import_tau2.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/tasks.json`, JSON.stringify([{ id: "0", evaluation_criteria: null }]));
 * const out: string[] = [];
 * const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, color: false, progress: false, stdin: () => Promise.resolve("") };
 * assert.equal(await importTau2([`${dir}/tasks.json`, "-o", `${dir}/c`], io), 0);
 * assert.deepEqual(JSON.parse(Deno.readTextFileSync(`${dir}/c/index.json`)), { contracts: [{ id: "0", file: "0.json" }] });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function importTau2(args: string[], io: CliIO): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(IMPORT_TAU2_HELP);
    return EXIT.ok;
  }
  const flags = parseFlags("import tau2", args, IMPORT_TAU2_FLAGS);
  const [tasksPath, ...rest] = flags.positionals;
  if (tasksPath === undefined || rest.length > 0) {
    throw new UsageError("import tau2 takes one TASKS.json; see toolscore import tau2 --help");
  }
  const dir = stringFlag(flags, "output");
  if (dir === undefined) {
    throw new UsageError("import tau2 needs -o DIR, the folder to write the contracts to");
  }
  const domain = stringFlag(flags, "domain");
  const tau2Commit = stringFlag(flags, "tau2-commit");
  const force = flags.values.force === true;
  let contracts;
  try {
    contracts = contractsFromTau2(await readTasks(tasksPath), {
      ...(domain !== undefined ? { domain } : {}),
      ...(tau2Commit !== undefined ? { tau2Commit } : {}),
    });
  } catch (error) {
    throw error instanceof InputError && !error.message.startsWith(tasksPath)
      ? new InputError(error.message, tasksPath, { cause: error })
      : error;
  }
  await readyOutputFolder(dir, "-o");
  const files = [...contracts.map((c) => c.file), "index.json"];
  for (const file of files) {
    await checkOutput(join(dir, file), "contract", { inputs: [tasksPath], force });
  }
  for (const imported of contracts) {
    await writeTextFileAtomic(
      join(dir, imported.file),
      `${JSON.stringify(imported.contract, null, 2)}\n`,
    );
  }
  await writeTextFileAtomic(
    join(dir, "index.json"),
    `${JSON.stringify(tau2Index(contracts), null, 2)}\n`,
  );
  io.stdout(
    `wrote ${contracts.length} contract${
      contracts.length === 1 ? "" : "s"
    } and index.json to ${dir}\n`,
  );
  return EXIT.ok;
}
