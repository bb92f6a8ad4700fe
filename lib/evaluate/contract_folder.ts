/**
 * A folder of contracts as the gold (issues 43 and 44): `toolscore eval DIR
 * RESULTS…` scores each trace against the contract whose id is the trace's
 * task. {@linkcode loadContractFolder} reads the folder,
 * {@linkcode contractIdOf} names the contract a trace is scored against.
 *
 * **The folder.** `DIR/index.json` lists the contracts, when it exists:
 *
 * ```json
 * {
 *   "contracts": [
 *     { "id": "simple_python_0", "file": "simple_python_0.json", "category": "simple_python" },
 *     { "id": "simple_python_1", "file": "simple_python_1.json" }
 *   ]
 * }
 * ```
 *
 * `contracts` is required: a list of `{id, file}` objects, `id` a non-empty
 * string given once, `file` a path relative to `DIR` that stays inside it (no
 * absolute path, no `..`). Other keys, in the index and in its entries (a
 * category, the benchmark, its commit…), are the writer's and are not read;
 * what scoring uses comes from the contract itself (its `source`). The
 * importers (`toolscore import bfcl`, `import tau2`) write `DIR/<id>.json`
 * per contract and this index. Without an index, every `*.json`, `*.jsonc`,
 * `*.yaml` and `*.yml` file directly in `DIR` is a contract (or a gold file)
 * whose id is its file name less the extension; other files are ignored.
 * Every contract is read before any trace is scored, so a bad one stops the
 * run before it starts, naming its file.
 *
 * **The contract of a trace**: the trace's task (`trace.run.task`, from run
 * files such as τ-bench and τ²-bench results), else a BFCL result line's id
 * (`trace.metadata.bfcl_id`) up to the first `#` (`simple_python_3#2`, a
 * repeat, uses `simple_python_3`), else the trace file's name less its last
 * extension (`runs/simple_python_3.json` → `simple_python_3`).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import type { Trace } from "../scoring/calls.ts";
import { type Expected, expectedFromJson } from "./expected.ts";

/** The index file's name inside a contract folder. */
export const CONTRACT_INDEX = "index.json";

/** At most this many contracts in one folder: the index is input, so its size is bounded. */
export const MAX_FOLDER_CONTRACTS = 200_000;

const CONTRACT_EXTENSIONS = [".json", ".jsonc", ".yaml", ".yml"];

/** One contract of a contract folder. */
export interface ContractFolderEntry {
  /** Its id: what a trace's task must be to be scored against it. */
  id: string;
  /** Its file (`DIR/file`). */
  path: string;
  /** The contract (or gold file) read from it. */
  expected: Expected;
}

/** A folder of contracts, read. */
export interface ContractFolder {
  /** The folder, as given. */
  dir: string;
  /** Its index file, when it has one. */
  index?: string;
  /** The contracts, in index order (or file name order without an index). */
  entries: ContractFolderEntry[];
  /** The contracts by id. */
  byId: Map<string, ContractFolderEntry>;
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function safeRelative(file: string): boolean {
  if (file === "" || file.startsWith("/") || file.startsWith("\\") || /^[A-Za-z]:/.test(file)) {
    return false;
  }
  return !file.split(/[\\/]/).some((part) => part === "..");
}

async function indexEntries(dir: string, index: string): Promise<{ id: string; file: string }[]> {
  const doc = await readDocument(index);
  const list = isObject(doc) ? doc.contracts : undefined;
  if (!Array.isArray(list)) {
    throw new InputError(
      `expected {"contracts": [{"id": ..., "file": ...}, ...]}; see the README's "Scoring against a gold folder"`,
      index,
    );
  }
  if (list.length > MAX_FOLDER_CONTRACTS) {
    throw new InputError(
      `lists ${list.length} contracts, more than ${MAX_FOLDER_CONTRACTS}`,
      index,
    );
  }
  const out: { id: string; file: string }[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of list.entries()) {
    const where = `${index}: contracts[${i}]`;
    if (!isObject(entry)) throw new InputError(`expected an object {id, file}`, where);
    const { id, file } = entry;
    if (typeof id !== "string" || id === "") {
      throw new InputError(`id: expected a non-empty string`, where);
    }
    if (typeof file !== "string" || !safeRelative(file)) {
      throw new InputError(
        `file: expected a path relative to ${dir} that stays inside it, got ${
          JSON.stringify(file)
        }`,
        where,
      );
    }
    if (seen.has(id)) throw new InputError(`id ${JSON.stringify(id)} is listed twice`, where);
    seen.add(id);
    out.push({ id, file });
  }
  return out;
}

async function folderFiles(dir: string): Promise<{ id: string; file: string }[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile) continue;
    if (!CONTRACT_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) continue;
    names.push(entry.name);
    if (names.length > MAX_FOLDER_CONTRACTS) {
      throw new InputError(`holds more than ${MAX_FOLDER_CONTRACTS} contract files`, dir);
    }
  }
  names.sort();
  const out: { id: string; file: string }[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const id = name.slice(0, name.lastIndexOf("."));
    const before = seen.get(id);
    if (before !== undefined) {
      throw new InputError(
        `${before} and ${name} both have the id ${JSON.stringify(id)}; keep one, or list the ` +
          `contracts in ${CONTRACT_INDEX}`,
        dir,
      );
    }
    seen.set(id, name);
    out.push({ id, file: name });
  }
  return out;
}

/**
 * Read a folder of contracts: those `DIR/index.json` lists, or without an
 * index every contract file directly in the folder (see the module doc).
 *
 * @param dir The folder.
 * @returns The contracts, by id.
 * @throws {InputError} When the folder, its index or a contract cannot be
 *   read or understood, or the folder holds no contract.
 *
 * @example Usage
 * ```ts
 * import { loadContractFolder } from "./contract_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.json`, JSON.stringify({ required: [{ tool: "search" }] }));
 * Deno.writeTextFileSync(
 *   `${dir}/index.json`,
 *   JSON.stringify({ contracts: [{ id: "task-a", file: "a.json" }] }),
 * );
 * const folder = await loadContractFolder(dir);
 * assert.deepEqual(folder.entries.map((entry) => entry.id), ["task-a"]);
 * assert.equal(folder.byId.get("task-a")?.expected.kind, "contract");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function loadContractFolder(dir: string): Promise<ContractFolder> {
  const index = joinPath(dir, CONTRACT_INDEX);
  let hasIndex: boolean;
  try {
    hasIndex = (await Deno.stat(index)).isFile;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new InputError(`cannot read: ${(error as Error).message}`, index);
    }
    hasIndex = false;
  }
  let listed: { id: string; file: string }[];
  try {
    listed = hasIndex ? await indexEntries(dir, index) : await folderFiles(dir);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read this folder: ${(error as Error).message}`, dir);
  }
  if (listed.length === 0) {
    throw new InputError(
      hasIndex
        ? `${CONTRACT_INDEX} lists no contract`
        : "no contract files (*.json, *.jsonc, *.yaml, *.yml) in this gold folder",
      dir,
    );
  }
  const entries: ContractFolderEntry[] = [];
  const byId = new Map<string, ContractFolderEntry>();
  for (const { id, file } of listed) {
    const path = joinPath(dir, file);
    const doc = await readDocument(path);
    const entry = { id, path, expected: expectedFromJson(doc, path) };
    entries.push(entry);
    byId.set(id, entry);
  }
  return { dir, ...(hasIndex ? { index } : {}), entries, byId };
}

/**
 * The id of the contract a trace is scored against: its run's task, else its
 * BFCL id up to the first `#`, else its file's name less the last extension.
 *
 * @param trace The trace.
 * @param file The file it came from (`-` for standard input).
 * @returns The id, or `undefined` when the trace names none (standard input
 *   without a task or BFCL id).
 *
 * @example Usage
 * ```ts
 * import { contractIdOf } from "./contract_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const calls = { calls: [], format: "toolscore" as const };
 * assert.equal(contractIdOf({ ...calls, run: { task: "7", trial: 0 } }, "runs.json"), "7");
 * assert.equal(
 *   contractIdOf({ ...calls, metadata: { bfcl_id: "simple_python_3#2" } }, "r.json"),
 *   "simple_python_3",
 * );
 * assert.equal(contractIdOf(calls, "runs/simple_python_3.json"), "simple_python_3");
 * assert.equal(contractIdOf(calls, "-"), undefined);
 * ```
 */
export function contractIdOf(trace: Trace, file: string): string | undefined {
  if (trace.run !== undefined && trace.run.task !== "") return trace.run.task;
  const bfcl = trace.metadata?.bfcl_id;
  if (typeof bfcl === "string" && bfcl !== "") {
    const hash = bfcl.indexOf("#");
    return hash === -1 ? bfcl : bfcl.slice(0, hash);
  }
  if (file === "-") return undefined;
  const name = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
