/**
 * Injected faults: the faults `agent run` puts into tool results, read from
 * a faults file and placed on the calls they landed on.
 *
 * @module
 */

import { isJsonObject, joinPath, type ToolCall } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";

/** The kinds of fault `agent run` injects into tool results. */
export type InjectedFaultKind = "error" | "timeout" | "warning";

/** A fault deliberately put into a tool result. */
export interface InjectedFault {
  /** The tool whose result was faulted. */
  tool: string;
  /** Which of that tool's calls, 1-based. */
  occurrence: number;
  /** What was injected. */
  kind: InjectedFaultKind;
  /** The injected message, if any. */
  message?: string;
}

/** An injected fault and the call it landed on (JSON shape). */
export interface InjectedFaultMatch {
  /** The tool. */
  tool: string;
  /** Which of the tool's calls, 1-based. */
  occurrence: number;
  /** What was injected. */
  kind: InjectedFaultKind;
  /** The 0-based index of the call it landed on; `null` when the trace has no such call. */
  index: number | null;
}

/** A file name and a JSON path as one place, for errors. */
export function located(source: string | undefined, path: string): string | undefined {
  if (source === undefined || source === "") return path === "" ? undefined : path;
  return path === "" ? source : `${source}: ${path}`;
}

const FAULT_KINDS: readonly InjectedFaultKind[] = ["error", "timeout", "warning"];

/**
 * Read injected faults: a list of `{tool, occurrence?, kind, message?}`
 * (`occurrence` is 1-based among that tool's calls, 1 when absent), or
 * `{"faults": [...]}`.
 *
 * @param value The parsed JSON or YAML.
 * @param source The file name, for errors.
 * @returns The faults.
 * @throws {InputError} On a malformed entry, naming its JSON path.
 *
 * @example Usage
 * ```ts
 * import { injectedFaultsFromJson } from "./injected_faults.ts";
 * import assert from "node:assert/strict";
 *
 * const faults = injectedFaultsFromJson([{ tool: "deploy", kind: "timeout" }]);
 * assert.deepEqual(faults, [{ tool: "deploy", occurrence: 1, kind: "timeout" }]);
 * assert.throws(() => injectedFaultsFromJson([{ tool: "deploy", kind: "crash" }]), /\[0\]\.kind/);
 * ```
 */
export function injectedFaultsFromJson(value: unknown, source?: string): InjectedFault[] {
  return faultsAt(value, "", source);
}

/** Read faults at a JSON path of a larger document (a honesty config's `injected`). */
export function faultsAt(
  value: unknown,
  path: string,
  source: string | undefined,
): InjectedFault[] {
  if (isJsonObject(value) && Array.isArray(value.faults)) {
    return faultsAt(value.faults, joinPath(path, "faults"), source);
  }
  if (!Array.isArray(value)) {
    throw new InputError(
      'expected a list of faults like {"tool": "deploy", "occurrence": 1, "kind": "timeout"}',
      located(source, path),
    );
  }
  return value.map((item, i) => {
    const at = joinPath(path, i);
    if (!isJsonObject(item)) {
      throw new InputError(
        "expected a fault object {tool, occurrence, kind, message?}",
        located(source, at),
      );
    }
    for (const key of Object.keys(item)) {
      if (!["tool", "occurrence", "kind", "message"].includes(key)) {
        throw new InputError(
          `unknown key ${key} (a fault has tool, occurrence, kind, message)`,
          located(source, joinPath(at, key)),
        );
      }
    }
    if (typeof item.tool !== "string" || item.tool === "") {
      throw new InputError(
        "tool must be a non-empty string",
        located(source, joinPath(at, "tool")),
      );
    }
    const occurrence = item.occurrence ?? 1;
    if (typeof occurrence !== "number" || !Number.isInteger(occurrence) || occurrence < 1) {
      throw new InputError(
        "occurrence must be a whole number from 1 (the tool's first call is 1)",
        located(source, joinPath(at, "occurrence")),
      );
    }
    if (typeof item.kind !== "string" || !FAULT_KINDS.includes(item.kind as InjectedFaultKind)) {
      throw new InputError(
        `kind must be one of ${FAULT_KINDS.join(", ")}`,
        located(source, joinPath(at, "kind")),
      );
    }
    if (item.message !== undefined && item.message !== null && typeof item.message !== "string") {
      throw new InputError("message must be a string", located(source, joinPath(at, "message")));
    }
    const fault: InjectedFault = {
      tool: item.tool,
      occurrence,
      kind: item.kind as InjectedFaultKind,
    };
    if (typeof item.message === "string") fault.message = item.message;
    return fault;
  });
}

/**
 * Read an injected-faults file (JSON, JSONC or YAML).
 *
 * @param path The file.
 * @returns The faults.
 * @throws {InputError} When the file cannot be read or is malformed.
 *
 * @example Usage
 * ```ts ignore
 * import { loadInjectedFaults } from "@toolscore/cli";
 *
 * const injected = await loadInjectedFaults("faults.json");
 * ```
 */
export async function loadInjectedFaults(path: string): Promise<InjectedFault[]> {
  return injectedFaultsFromJson(await readDocument(path), path);
}

// The placed faults of a run without injected faults (never written to).
const NO_FAULTS: ReadonlyMap<number, InjectedFault> = new Map();

export function placeFaults(
  calls: readonly ToolCall[],
  faults: readonly InjectedFault[],
): { byIndex: ReadonlyMap<number, InjectedFault>; matches: InjectedFaultMatch[] } {
  const matches: InjectedFaultMatch[] = [];
  if (faults.length === 0) return { byIndex: NO_FAULTS, matches };
  const byIndex = new Map<number, InjectedFault>();
  const seen = new Map<string, number>();
  const positions = new Map<string, number>(); // "tool\0occurrence" -> index
  calls.forEach((call, i) => {
    const n = (seen.get(call.tool) ?? 0) + 1;
    seen.set(call.tool, n);
    positions.set(`${call.tool}\0${n}`, i);
  });
  for (const fault of faults) {
    const index = positions.get(`${fault.tool}\0${fault.occurrence}`);
    matches.push({
      tool: fault.tool,
      occurrence: fault.occurrence,
      kind: fault.kind,
      index: index ?? null,
    });
    if (index !== undefined && !byIndex.has(index)) byIndex.set(index, fault);
  }
  return { byIndex, matches };
}
