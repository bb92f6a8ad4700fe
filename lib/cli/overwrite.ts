/**
 * The one overwrite rule of every command that writes a file (issue 20):
 *
 * 1. An input of the run is never replaced, `--force` or not.
 * 2. A missing file is written.
 * 3. An existing file is replaced when it is the command's own earlier
 *    output — a receipt toolscore wrote (`eval --receipt…`, `regrade`), an
 *    export with its toolscore manifest beside it (`export`), a Markdown,
 *    HTML or JUnit report toolscore wrote (`--markdown`, `--html`, `--junit`
 *    of `eval`, `compare`, `decide`; `doctor --markdown`) — or when `--force` asks for it, where the
 *    command has the flag (`contract init -o`, `export -o`). A contract is
 *    edited by hand after `contract init`, so it is replaced only with
 *    `--force`.
 *
 * Anything else is a usage error (exit 2) and nothing is written.
 *
 * @module
 */

import { resolve } from "node:path";
import { UsageError } from "../base/errors.ts";
import { manifestPathOf } from "../export/write.ts";

/** What a command writes. */
export type OutputKind = "receipt" | "contract" | "export" | "report";

/** Options for {@linkcode checkOutput}. */
export interface CheckOutputOptions {
  /**
   * The run's input files (`-` and `undefined` are skipped).
   * @default {[]}
   */
  inputs?: readonly (string | undefined)[];
  /**
   * The user asked to replace an existing file (`--force`).
   * @default {false}
   */
  force?: boolean;
}

async function realOrResolved(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return resolve(path);
  }
}

async function head(path: string, bytes: number): Promise<string | undefined> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const buffer = new Uint8Array(bytes);
    const n = await file.read(buffer);
    return new TextDecoder().decode(buffer.subarray(0, n ?? 0));
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}

async function producedByToolscore(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > 64 * 1024 * 1024) return false;
    const value = JSON.parse(await Deno.readTextFile(path));
    return typeof value === "object" && value !== null &&
      (value as { producer?: { name?: unknown } }).producer?.name === "toolscore";
  } catch {
    return false;
  }
}

/**
 * Whether an existing file is the command's own earlier output of this kind.
 *
 * @param path The existing file.
 * @param kind What the command writes.
 * @returns `true` when it may be replaced without `--force`.
 */
export async function isOwnOutput(path: string, kind: OutputKind): Promise<boolean> {
  switch (kind) {
    case "receipt":
      return await producedByToolscore(path);
    case "export":
      return await producedByToolscore(manifestPathOf(path));
    case "report": {
      // The reports' own first lines: a Markdown heading, an HTML title, a JUnit suite.
      const text = await head(path, 2048);
      return text !== undefined && (
        text.startsWith("### toolscore ") ||
        (text.startsWith("<!doctype html>") && text.includes("<title>toolscore ")) ||
        text.includes('<testsuites name="toolscore"')
      );
    }
    case "contract":
      return false;
  }
}

/**
 * Apply the overwrite rule (see the module doc) to one output file before
 * anything is written.
 *
 * @param target The file the command will write.
 * @param kind What it writes.
 * @param options The run's inputs; whether `--force` was given.
 * @throws {UsageError} When the target is an input, or an existing file that
 * is not the command's own earlier output and `--force` was not given.
 *
 * @example Usage
 * ```ts
 * import { checkOutput } from "./overwrite.ts";
 * import assert from "node:assert/strict";
 *
 * await checkOutput("no-such-file.receipt.json", "receipt");
 * await assert.rejects(
 *   () => checkOutput("deno.json", "contract", { inputs: ["deno.json"], force: true }),
 *   /is an input of this run/,
 * );
 * await assert.rejects(() => checkOutput("deno.json", "receipt"), /not a toolscore receipt/);
 * ```
 */
export async function checkOutput(
  target: string,
  kind: OutputKind,
  options: CheckOutputOptions = {},
): Promise<void> {
  const real = await realOrResolved(target);
  for (const input of options.inputs ?? []) {
    if (input === undefined || input === "-") continue;
    if (await realOrResolved(input) === real) {
      throw new UsageError(
        `${target} is an input of this run; toolscore never replaces an input, ` +
          "choose another output path",
      );
    }
  }
  let exists = false;
  try {
    exists = (await Deno.stat(target)).isFile;
  } catch {
    return; // missing (or unreadable: the write says why)
  }
  if (!exists || options.force === true || await isOwnOutput(target, kind)) return;
  const how = kind === "receipt" || kind === "report"
    ? "choose another path, or remove it first"
    : "choose another path, or pass --force to replace it";
  throw new UsageError(
    kind === "contract"
      ? `${target}: already exists; choose another path or pass --force to replace it ` +
        "(a contract is edited by hand, so only --force replaces it)"
      : `${target} exists and is not a toolscore ${kind}; ${how}`,
  );
}
