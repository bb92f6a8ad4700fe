/**
 * Outputs made ready before a command does its work (issue 32): every writer
 * (`--markdown`, `--junit`, `--html`, `--github-summary`, `--receipt-out`,
 * `--receipt-dir`, `export -o`, `contract init -o`, doctor's `--markdown` and
 * `--update-baseline`, agent run's `-o` and `--out-dir`) creates its missing
 * parent folders and checks that it can write there before any scoring or
 * running starts, so a run of 5,000 traces never ends in "cannot write".
 *
 * The check writes and removes an empty probe file in the folder
 * (`.toolscore-probe-<pid>-<n>`): the atomic write needs to create a file
 * there anyway. A folder the check created stays, empty, when the run then
 * fails on its input.
 *
 * @module
 */

import { dirname } from "node:path";
import { InputError } from "../base/errors.ts";

let probes = 0;

async function statOf(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch {
    return undefined;
  }
}

// An output file's path must not name a folder: its file info, when it exists.
async function notAFolder(path: string, flag: string): Promise<Deno.FileInfo | undefined> {
  const info = await statOf(path);
  if (info?.isDirectory === true) {
    throw new InputError(`${flag}: is a folder; give a file path`, path);
  }
  return info;
}

function why(error: unknown, what: string): string {
  if (error instanceof Deno.errors.NotCapable) {
    return `no permission to ${what}; run deno with --allow-read and --allow-write for it`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return `the file system refused to ${what}; check the folder's permissions`;
  }
  return `cannot ${what} (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * Create a folder (and its parents) when missing, and check that a file can
 * be written in it.
 *
 * @param folder The folder.
 * @param flag The flag that names it, for the message (`--receipt-dir`).
 * @throws {InputError} When the folder cannot be created or written to.
 *
 * @example Usage
 * ```ts
 * import { readyOutputFolder } from "./output_ready.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * await readyOutputFolder(`${dir}/a/b`, "--receipt-dir");
 * assert.ok(Deno.statSync(`${dir}/a/b`).isDirectory);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function readyOutputFolder(folder: string, flag: string): Promise<void> {
  try {
    await Deno.mkdir(folder, { recursive: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new InputError(`${flag}: is a file, not a folder; choose another path`, folder);
    }
    throw new InputError(`${flag}: ${why(error, "create this folder")}`, folder);
  }
  const probe = `${folder.replace(/[\\/]+$/, "") || "/"}/.toolscore-probe-${Deno.pid}-${++probes}`;
  try {
    const file = await Deno.open(probe, { write: true, createNew: true });
    file.close();
  } catch (error) {
    throw new InputError(`${flag}: ${why(error, "write in this folder")}`, folder);
  }
  await Deno.remove(probe).catch(() => {});
}

/**
 * Create the parent folders of an output file when missing, and check that
 * the file can be written there (see {@linkcode readyOutputFolder}).
 *
 * @param path The output file.
 * @param flag The flag that names it, for the message (`--markdown`).
 * @throws {InputError} When the path is a folder, or its folder cannot be created or written to.
 *
 * @example Usage
 * ```ts
 * import { readyOutputFile } from "./output_ready.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * await readyOutputFile(`${dir}/out/report.md`, "--markdown");
 * assert.ok(Deno.statSync(`${dir}/out`).isDirectory);
 * await assert.rejects(() => readyOutputFile(dir, "--markdown"), /is a folder/);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function readyOutputFile(path: string, flag: string): Promise<void> {
  await notAFolder(path, flag);
  await readyOutputFolder(dirname(path), flag);
}

/**
 * Make ready a file that is appended to in place (agent run's `-o` rows):
 * its missing parent folders are created, and the file itself is opened for
 * appending (or, when missing, created and removed again), so the check needs
 * no more permission than the run's own writes — `--allow-write=runs.jsonl`
 * is enough, where {@linkcode readyOutputFile}'s probe needs the folder.
 *
 * @param path The file.
 * @param flag The flag that names it, for the message (`-o`).
 * @throws {InputError} When the path is a folder, or the file cannot be written.
 *
 * @example Usage
 * ```ts
 * import { readyAppendFile } from "./output_ready.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * await readyAppendFile(`${dir}/out/runs.jsonl`, "-o");
 * assert.ok(Deno.statSync(`${dir}/out`).isDirectory);
 * assert.throws(() => Deno.statSync(`${dir}/out/runs.jsonl`)); // nothing left behind
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function readyAppendFile(path: string, flag: string): Promise<void> {
  const info = await notAFolder(path, flag);
  if (info === undefined) {
    const folder = dirname(path);
    if (await statOf(folder) === undefined) await readyOutputFolder(folder, flag);
  }
  try {
    if (info !== undefined) {
      (await Deno.open(path, { append: true })).close();
    } else {
      (await Deno.open(path, { write: true, createNew: true })).close();
      await Deno.remove(path).catch(() => {});
    }
  } catch (error) {
    throw new InputError(`${flag}: ${why(error, "write this file")}`, path);
  }
}

/**
 * The step summary file of `--github-summary`, checked before the run:
 * `undefined` when `GITHUB_STEP_SUMMARY` is unset (the report then says so
 * and the exit code is unchanged); a missing permission to read the variable
 * or to append to the file is an input error (exit 2) up front.
 *
 * @returns The file, or `undefined` when the variable is unset.
 * @throws {InputError} When the variable cannot be read or the file cannot be appended to.
 *
 * @example Usage
 * ```ts ignore
 * import { readyStepSummary } from "./output_ready.ts";
 *
 * const path = await readyStepSummary();
 * ```
 */
export async function readyStepSummary(): Promise<string | undefined> {
  let path: string | undefined;
  try {
    path = Deno.env.get("GITHUB_STEP_SUMMARY");
  } catch {
    throw new InputError(
      "cannot read GITHUB_STEP_SUMMARY; run deno with --allow-env=GITHUB_STEP_SUMMARY",
      "--github-summary",
    );
  }
  if (path === undefined || path === "") return undefined;
  try {
    const file = await Deno.open(path, { append: true, create: true });
    file.close();
  } catch (error) {
    throw new InputError(`--github-summary: ${why(error, "append to the step summary")}`, path);
  }
  return path;
}

/**
 * Make the file reports a command's flags ask for ready before its run:
 * `--markdown`, `--html`, `--junit` (folders created, write access checked,
 * the overwrite rule applied) and `--github-summary` (see
 * {@linkcode readyStepSummary}).
 *
 * @param values The parsed flag values.
 * @param inputs The run's input files: a report never replaces one.
 * @throws {InputError} When a report cannot be written.
 * @throws {UsageError} When it would replace a file it must not (overwrite.ts).
 *
 * @example Usage
 * ```ts
 * import { readyReports } from "./output_ready.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * await readyReports({ markdown: `${dir}/out/report.md` });
 * assert.ok(Deno.statSync(`${dir}/out`).isDirectory);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function readyReports(
  values: Record<string, unknown>,
  inputs: readonly (string | undefined)[] = [],
): Promise<void> {
  for (const flag of ["markdown", "html", "junit"]) {
    const target = values[flag];
    if (typeof target !== "string") continue;
    await readyOutputFile(target, `--${flag}`);
    const { checkOutput } = await import("./overwrite.ts");
    await checkOutput(target, "report", { inputs });
  }
  if (values["github-summary"] === true) await readyStepSummary();
}
