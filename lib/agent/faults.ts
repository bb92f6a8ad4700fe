/**
 * Injected faults for `agent run`: the honesty page's entry `{tool,
 * occurrence, kind: error|timeout|warning, message?}` extended with
 * `probability` (0..1, default 1) and `seed` (default 0) — and `kind:
 * replace` with a `result`.
 *
 * **Common random numbers** (issue 28). Whether a fault fires is drawn from
 * `SHA-256(seed, task id, repeat, entry index, occurrence)` — no arm, no spec
 * hash — so every arm of a (task, repeat) cell faces the same fault
 * *schedule* (the entries that fire, so the same (tool, occurrence) pairs),
 * and a rerun, another shard or an edited spec draws the same. Before, the
 * draw took the run id, which hashes the arm: two arms compared on one cell
 * faced different faults in 11 of 18 cells, yet McNemar pairs exactly those
 * cells. An arm that calls a tool fewer times applies fewer faults; its
 * schedule is still the cell's.
 *
 * Faults change the real tool result before the model sees it (the tool is
 * still called): `error` and `timeout` turn it into a failure at once (a
 * timeout does not wait), `warning` adds a warning line to it, `replace`
 * puts `result` in its place. Each run's faults go to `<run>.injected.json` —
 * `{run_id, task_id, repeat, schedule: [...], applied: [...], faults: [...],
 * replaced: [...]}`, `schedule` the cell's entries that fire and `applied`
 * those that landed on a call (each `{entry, tool, occurrence, kind}`, `entry`
 * the 0-based index in the faults file) — whose
 * `faults` list is what the honesty checks read (the receipt's `injected`
 * input, so `disclosure` judges whether the answer told the user). A
 * replaced result is not a fault to disclose: it is judged like any result
 * (its warnings and errors), so it is listed under `replaced` instead.
 *
 * @module
 */

import { sha256Hex } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import type { InjectedFault } from "../checks/injected_faults.ts";
import type { FaultHook } from "./run_loop.ts";

/** What a fault does. */
export type FaultKind = "error" | "timeout" | "warning" | "replace";

/** One fault entry of a spec's `faults` file. */
export interface FaultSpec {
  /** The tool (MCP name). */
  tool: string;
  /** Which of the tool's calls in a run, 1-based. */
  occurrence: number;
  /** What it does. */
  kind: FaultKind;
  /** The message the model sees (a default when absent). */
  message?: string;
  /** The result put in place of the real one (`replace` only). */
  result?: unknown;
  /** The chance it fires in a run, 0..1. */
  probability: number;
  /** Mixed into the draw, so that two entries can fire independently. */
  seed: number | string;
}

/** A tool result a `replace` fault put in place. */
export interface ReplacedResult {
  /** The tool. */
  tool: string;
  /** Which of its calls. */
  occurrence: number;
  /** What the model saw instead of the real result. */
  result: unknown;
}

const KINDS: readonly FaultKind[] = ["error", "timeout", "warning", "replace"];
const KEYS = ["tool", "occurrence", "kind", "message", "result", "probability", "seed"];

/**
 * Read fault entries: a list, or `{"faults": [...]}`.
 *
 * @param value The parsed JSON or YAML.
 * @param source The file, for errors.
 * @returns The faults, defaults filled in.
 * @throws {InputError} Naming the JSON path of a bad entry.
 *
 * @example Usage
 * ```ts
 * import { faultsFromJson } from "./faults.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(faultsFromJson([{ tool: "book", kind: "timeout" }]), [
 *   { tool: "book", occurrence: 1, kind: "timeout", probability: 1, seed: 0 },
 * ]);
 * assert.throws(() => faultsFromJson([{ tool: "book", kind: "replace" }]), /\[0\]\.result: a replace fault needs a result/);
 * ```
 */
export function faultsFromJson(value: unknown, source?: string): FaultSpec[] {
  const at = (path: string) =>
    source === undefined ? path || "(faults)" : path === "" ? source : `${source}: ${path}`;
  const wrapped = isJsonObject(value) && "faults" in value;
  const list = wrapped ? value.faults : value;
  const base = wrapped ? "faults" : "";
  if (!Array.isArray(list)) {
    throw new InputError(
      `expected a list of faults like {"tool": "deploy", "kind": "timeout"}, got ${
        describeJson(list)
      }`,
      at(base),
    );
  }
  return list.map((item, i): FaultSpec => {
    const path = joinPath(base, i);
    if (!isJsonObject(item)) throw new InputError("expected a fault object", at(path));
    for (const key of Object.keys(item)) {
      if (!KEYS.includes(key)) {
        throw new InputError(
          `unknown key; a fault has ${KEYS.join(", ")}`,
          at(joinPath(path, key)),
        );
      }
    }
    if (typeof item.tool !== "string" || item.tool === "") {
      throw new InputError("tool must be a non-empty string", at(joinPath(path, "tool")));
    }
    const occurrence = item.occurrence ?? 1;
    if (typeof occurrence !== "number" || !Number.isInteger(occurrence) || occurrence < 1) {
      throw new InputError(
        "occurrence must be a whole number from 1 (the tool's first call is 1)",
        at(joinPath(path, "occurrence")),
      );
    }
    if (!KINDS.includes(item.kind as FaultKind)) {
      throw new InputError(`kind must be one of ${KINDS.join(", ")}`, at(joinPath(path, "kind")));
    }
    const probability = item.probability ?? 1;
    if (typeof probability !== "number" || !(probability >= 0 && probability <= 1)) {
      throw new InputError(
        "probability must be a number from 0 to 1",
        at(joinPath(path, "probability")),
      );
    }
    const seed = item.seed ?? 0;
    if (typeof seed !== "number" && typeof seed !== "string") {
      throw new InputError("seed must be a number or a string", at(joinPath(path, "seed")));
    }
    if (item.message !== undefined && typeof item.message !== "string") {
      throw new InputError("message must be a string", at(joinPath(path, "message")));
    }
    if (item.kind === "replace" && item.result === undefined) {
      throw new InputError("a replace fault needs a result", at(joinPath(path, "result")));
    }
    if (item.kind !== "replace" && item.result !== undefined) {
      throw new InputError("only a replace fault takes a result", at(joinPath(path, "result")));
    }
    const fault: FaultSpec = {
      tool: item.tool,
      occurrence,
      kind: item.kind as FaultKind,
      probability,
      seed,
    };
    if (typeof item.message === "string") fault.message = item.message;
    if (item.result !== undefined) fault.result = item.result;
    return fault;
  });
}

/**
 * Read a faults file (JSON or YAML).
 *
 * @param path The file.
 * @returns The faults.
 * @throws {InputError} When it cannot be read or holds a bad entry.
 *
 * @example Usage
 * ```ts ignore
 * import { loadFaults } from "./faults.ts";
 *
 * const faults = await loadFaults("faults.yaml");
 * ```
 */
export async function loadFaults(path: string): Promise<FaultSpec[]> {
  return faultsFromJson(await readDocument(path), path);
}

/** The (task, repeat) cell of a run: every arm of a cell draws the same faults. */
export interface FaultCell {
  /** The task id. */
  taskId: string;
  /** The repeat, from 0. */
  repeat: number;
}

/**
 * The cell of a planned run: its task and repeat, never its arm.
 *
 * @param run The run (a `PlannedRun`).
 * @returns The cell its faults are drawn for.
 *
 * @example Usage
 * ```ts
 * import { faultCellOf } from "./faults.ts";
 * import assert from "node:assert/strict";
 *
 * const cell = faultCellOf({ task: { id: "book" }, repeat: 2 });
 * assert.deepEqual(cell, { taskId: "book", repeat: 2 });
 * ```
 */
export function faultCellOf(
  run: { readonly task: { readonly id: string }; readonly repeat: number },
): FaultCell {
  return { taskId: run.task.id, repeat: run.repeat };
}

/** A fault entry that fires in a cell (JSON shape, as `<run>.injected.json` and rows hold it). */
export interface ScheduledFault {
  /** Its 0-based index in the faults file. */
  entry: number;
  /** The tool. */
  tool: string;
  /** Which of the tool's calls, 1-based. */
  occurrence: number;
  /** What it does. */
  kind: FaultKind;
}

/**
 * Whether a fault fires in a cell: `probability` against a draw in [0, 1)
 * from the SHA-256 of the seed, task id, repeat, entry index and occurrence
 * (a JSON array, so no two cells share a hashed text).
 *
 * @param fault The fault.
 * @param index Its index in the faults file.
 * @param cell The run's task and repeat (never its arm).
 * @returns `true` when it fires.
 *
 * @example Usage
 * ```ts
 * import { faultFires } from "./faults.ts";
 * import assert from "node:assert/strict";
 *
 * const fault = { tool: "t", occurrence: 1, kind: "error" as const, probability: 0.5, seed: 1 };
 * const cell = { taskId: "book", repeat: 0 };
 * assert.equal(faultFires(fault, 0, cell), faultFires(fault, 0, { ...cell }));
 * assert.equal(faultFires({ ...fault, probability: 0 }, 0, cell), false);
 * ```
 */
export function faultFires(fault: FaultSpec, index: number, cell: FaultCell): boolean {
  if (fault.probability >= 1) return true;
  if (fault.probability <= 0) return false;
  const hash = sha256Hex(
    JSON.stringify([fault.seed, cell.taskId, cell.repeat, index, fault.occurrence]),
  );
  return parseInt(hash.slice(0, 8), 16) / 2 ** 32 < fault.probability;
}

/**
 * The fault schedule of a cell: the entries that fire, in file order.
 *
 * @param faults The spec's faults.
 * @param cell The task and repeat.
 * @returns The entries that fire.
 *
 * @example Usage
 * ```ts
 * import { faultSchedule, faultsFromJson } from "./faults.ts";
 * import assert from "node:assert/strict";
 *
 * const faults = faultsFromJson([{ tool: "book", kind: "error" }, { tool: "pay", kind: "timeout", probability: 0 }]);
 * assert.deepEqual(faultSchedule(faults, { taskId: "t", repeat: 0 }), [
 *   { entry: 0, tool: "book", occurrence: 1, kind: "error" },
 * ]);
 * ```
 */
export function faultSchedule(faults: readonly FaultSpec[], cell: FaultCell): ScheduledFault[] {
  const schedule: ScheduledFault[] = [];
  faults.forEach((fault, entry) => {
    if (faultFires(fault, entry, cell)) {
      schedule.push({ entry, tool: fault.tool, occurrence: fault.occurrence, kind: fault.kind });
    }
  });
  return schedule;
}

/**
 * The faults of one run: the hook for the run loop, and what it applied.
 *
 * @example Usage
 * ```ts
 * import { faultsFromJson, RunFaults } from "./faults.ts";
 * import assert from "node:assert/strict";
 *
 * const cell = { taskId: "book", repeat: 0 };
 * const faults = new RunFaults(faultsFromJson([{ tool: "book", kind: "error", message: "down" }]), cell);
 * const seen = faults.hook("book", 1, { text: "booked", isError: false, result: "booked" });
 * assert.equal(seen?.text, "down");
 * assert.deepEqual(faults.applied, [{ tool: "book", occurrence: 1, kind: "error", message: "down" }]);
 * assert.deepEqual(faults.landed, faults.schedule);
 * assert.equal(faults.hook("book", 2, { text: "booked", isError: false, result: "booked" }), null);
 * ```
 */
export class RunFaults {
  /** The faults applied, in the honesty checks' shape. */
  readonly applied: InjectedFault[] = [];
  /** The results replaced. */
  readonly replaced: ReplacedResult[] = [];
  /** The cell's schedule: the entries that fire, whichever arm runs it. */
  readonly schedule: readonly ScheduledFault[];
  /** The scheduled entries that landed on a call, in the order they were applied. */
  readonly landed: ScheduledFault[] = [];
  readonly #faults: readonly FaultSpec[];

  /**
   * Prepare the faults of one run.
   *
   * @param faults The spec's faults.
   * @param cell The run's task and repeat.
   */
  constructor(faults: readonly FaultSpec[], cell: FaultCell) {
    this.#faults = faults;
    this.schedule = faultSchedule(faults, cell);
  }

  /** The hook the run loop calls with every real tool result. */
  readonly hook: FaultHook = (tool, occurrence, seen) => {
    // The first scheduled entry for this call wins, as the first matching entry of the file.
    const scheduled = this.schedule.find((s) => s.tool === tool && s.occurrence === occurrence);
    if (scheduled === undefined) return null;
    this.landed.push(scheduled);
    const fault = this.#faults[scheduled.entry]!;
    if (fault.kind === "replace") {
      this.replaced.push({ tool, occurrence, result: fault.result });
      const text = typeof fault.result === "string" ? fault.result : JSON.stringify(fault.result);
      return { text, isError: false, result: fault.result, fault: { kind: "replace" } };
    }
    if (fault.kind === "warning") {
      const line = `warning: ${fault.message ?? "the result may be partial"}`;
      const text = seen.text === "" ? line : `${seen.text}\n${line}`;
      this.applied.push({ tool, occurrence, kind: "warning", message: line });
      return {
        text,
        isError: seen.isError,
        result: text,
        fault: { kind: "warning", message: line },
      };
    }
    const message = fault.message ??
      (fault.kind === "timeout" ? `${tool} timed out` : `${tool} failed (injected error)`);
    this.applied.push({ tool, occurrence, kind: fault.kind, message });
    return {
      text: message,
      isError: true,
      result: undefined,
      fault: { kind: fault.kind, message },
    };
  };
}
