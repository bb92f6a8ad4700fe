/**
 * The output JSONL of `agent run`: the rows already there (for resume), a
 * trailing line cut by a kill (removed, and named), the rows a rerun
 * replaced (a stopped row, an error row `--retry-errors` ran again) removed
 * once their replacement is written, and the writer that appends each new
 * row as one whole line with one write.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { runKey } from "./plan.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** What the output file already holds. */
export interface ExistingRows {
  /** Rows by run key (arm, task, repeat); a later row for a key replaces an earlier one. */
  rows: Map<string, Record<string, unknown>>;
  /** The cut trailing line that was removed, if any. */
  cut: { bytes: number; preview: string } | null;
  /** Keys with more than one row (a rerun's row appended, the old one not yet removed). */
  duplicates: Set<string>;
}

function rowKey(value: unknown, where: string): string {
  if (
    !isJsonObject(value) || typeof value.arm_id !== "string" || typeof value.task_id !== "string" ||
    typeof value.repeat !== "number"
  ) {
    throw new InputError(
      "is not an agent run row (it needs arm_id, task_id and repeat); " +
        "write the run to a new file with -o",
      where,
    );
  }
  return runKey(value.arm_id, value.task_id, value.repeat);
}

/**
 * Read the rows of an output file, removing a trailing line that has no
 * newline (a write cut by a kill). A missing file holds no rows.
 *
 * @param path The JSONL file.
 * @returns The rows by key and what was cut.
 * @throws {InputError} When a complete line is not JSON or not a row (`file:line: …`).
 *
 * @example Usage
 * ```ts ignore
 * import { readExistingRows } from "./output.ts";
 *
 * const { rows, cut } = await readExistingRows("runs.jsonl");
 * ```
 */
export async function readExistingRows(path: string): Promise<ExistingRows> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { rows: new Map(), cut: null, duplicates: new Set() };
    }
    throw new InputError(`cannot read (${(error as Error).message})`, path);
  }
  let cut: ExistingRows["cut"] = null;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) {
    const end = bytes.lastIndexOf(0x0a) + 1;
    const tail = new TextDecoder().decode(bytes.subarray(end));
    cut = { bytes: bytes.length - end, preview: tail.length > 80 ? `${tail.slice(0, 80)}…` : tail };
    await Deno.truncate(path, end);
    bytes = bytes.subarray(0, end);
  }
  const rows = new Map<string, Record<string, unknown>>();
  const duplicates = new Set<string>();
  const lines = new TextDecoder().decode(bytes).split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${path}:${i + 1}`;
    let value: unknown;
    try {
      value = parseJsonLossless(line);
    } catch (error) {
      throw new InputError(
        `not JSON (${(error as Error).message}); fix or remove the line, then run again`,
        where,
      );
    }
    const key = rowKey(value, where);
    if (rows.has(key)) duplicates.add(key);
    rows.set(key, value as Record<string, unknown>);
  });
  return { rows, cut, duplicates };
}

/**
 * Rewrite the output keeping, for each of some keys, only its last row (a
 * stopped row whose rerun was appended after it), atomically.
 *
 * @param path The JSONL file.
 * @param keys The run keys whose earlier rows go.
 * @param tempDir Where the new text is written before it replaces the file (on the same disk).
 * @returns How many lines were dropped.
 *
 * @example Usage
 * ```ts ignore
 * import { dropEarlierRows } from "./output.ts";
 *
 * await dropEarlierRows("runs.jsonl", new Set([key]), "runs");
 * ```
 */
export async function dropEarlierRows(
  path: string,
  keys: ReadonlySet<string>,
  tempDir: string,
): Promise<number> {
  if (keys.size === 0) return 0;
  const lines = (await Deno.readTextFile(path)).split("\n").filter((line) => line.trim() !== "");
  const rowKeys = lines.map((line, i) => rowKey(parseJsonLossless(line), `${path}:${i + 1}`));
  const last = new Map<string, number>();
  rowKeys.forEach((key, i) => last.set(key, i));
  const kept = lines.filter((_, i) => !keys.has(rowKeys[i]!) || last.get(rowKeys[i]!) === i);
  await replaceText(path, kept, tempDir);
  return lines.length - kept.length;
}

// Written beside the traces, then renamed over the output: no write permission is needed
// on the output's folder, and a kill leaves the old file or the new one, never half of one.
async function replaceText(path: string, lines: string[], tempDir: string): Promise<void> {
  await Deno.mkdir(tempDir, { recursive: true });
  const temp = await Deno.makeTempFile({ dir: tempDir, prefix: ".rows-", suffix: ".tmp" });
  try {
    await Deno.writeTextFile(temp, lines.map((line) => `${line}\n`).join(""));
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new InputError(`cannot rewrite (${(error as Error).message})`, path);
  }
}

/**
 * Appends rows to the output, each as one line with one write.
 *
 * @example Usage
 * ```ts ignore
 * import { RowWriter } from "./output.ts";
 *
 * const writer = await RowWriter.open("runs.jsonl");
 * await writer.append({ arm_id: "a", task_id: "t", repeat: 0, status: "ok" });
 * await writer.close();
 * ```
 */
export class RowWriter {
  readonly #file: Deno.FsFile;
  #queue: Promise<void> = Promise.resolve();

  private constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /**
   * Open the output for appending (created when missing).
   *
   * @param path The JSONL file.
   * @returns The writer.
   */
  static async open(path: string): Promise<RowWriter> {
    try {
      return new RowWriter(await Deno.open(path, { append: true, create: true }));
    } catch (error) {
      throw new InputError(`cannot write (${(error as Error).message})`, path);
    }
  }

  /**
   * Append one row. Rows written concurrently are queued, never interleaved.
   *
   * @param row The row.
   * @returns When the line is written.
   */
  append(row: Record<string, unknown>): Promise<void> {
    const bytes = new TextEncoder().encode(`${JSON.stringify(row)}\n`);
    this.#queue = this.#queue.then(async () => {
      let rest = bytes;
      while (rest.length > 0) rest = rest.subarray(await this.#file.write(rest));
    });
    return this.#queue;
  }

  /** Close the file. */
  async close(): Promise<void> {
    await this.#queue.catch(() => {});
    this.#file.close();
  }
}
