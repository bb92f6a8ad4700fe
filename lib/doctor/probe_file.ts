/**
 * The probe file of `doctor --probe` (issue 39): what to call, and what to
 * expect. A list of entries, each naming exactly one of `tool`, `resource`
 * (a URI for `resources/read`) or `prompt` (for `prompts/get`):
 *
 * ```yaml
 * - tool: echo
 *   args: { message: hi }
 *   expect_text: "Echo: hi"
 * - tool: get-sum
 *   args: { a: 1, b: 2 }
 *   expect_structured: { result: 3 }
 * - resource: demo://resource/static/document/architecture.md
 *   expect_text: { $contains: "architecture" }
 * ```
 *
 * With several servers (`--mcp-config --all`) the file is an object of such
 * lists keyed by server name. `expect_text` is a string or a `$` matcher
 * (the contracts' matchers) on the joined text; `expect_structured` a value
 * with `$` matchers, compared as contracts compare arguments (same keys; use
 * `{$any: true}` for a part not to check). The MCP SDK reads a server's
 * numbers as doubles, so an integer past 2^53 in `expect_structured` is
 * compared as its nearest double (issue 42); in `args` it is sent with its
 * digits.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { matcherFromJson } from "../scoring/matcher_json.ts";
import { numberText } from "../base/lossless_json.ts";

/** What a probe asks: a tool call, a resource read or a prompt. */
export type ProbeKind = "tool" | "resource" | "prompt";

/** One probe, read from the file. */
export interface Probe {
  /** What it asks. */
  kind: ProbeKind;
  /** The tool's or prompt's name, or the resource's URI. */
  target: string;
  /** The tool's arguments or the prompt's (`{}` when absent). */
  args: JsonObject;
  /** A string or matcher for the joined text content (absent: not checked). */
  expectText?: unknown;
  /** A value with matchers for `structuredContent` (absent: not checked). */
  expectStructured?: unknown;
  /** The probe passes on an error answer (and fails on any other). */
  expectError: boolean;
  /** Seconds the call may take (absent: the request timeout). */
  timeoutS?: number;
  /** The probe may call a tool not annotated `readOnlyHint: true`. */
  sideEffects: boolean;
  /** Where it is in the file, for messages (`probes.yaml: [2]`). */
  where: string;
}

const KEYS = new Set([
  "tool",
  "resource",
  "prompt",
  "args",
  "expect_text",
  "expect_structured",
  "expect_error",
  "timeout_s",
  "side_effects",
]);
const MAX_PROBES = 1000;

function probeOf(value: unknown, where: string): Probe {
  if (!isJsonObject(value)) throw new InputError("a probe must be an object", where);
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) {
      throw new InputError(
        `unknown key ${JSON.stringify(key.slice(0, 40))} (a probe has ${[...KEYS].join(", ")})`,
        where,
      );
    }
  }
  const kinds = (["tool", "resource", "prompt"] as const).filter((k) => value[k] !== undefined);
  if (kinds.length !== 1) {
    throw new InputError("give exactly one of tool, resource or prompt", where);
  }
  const kind = kinds[0]!;
  const target = value[kind];
  if (typeof target !== "string" || target === "") {
    throw new InputError(`${kind} must be a non-empty string`, `${where}.${kind}`);
  }
  const args = value.args ?? {};
  if (!isJsonObject(args)) throw new InputError("args must be an object", `${where}.args`);
  if (kind === "resource" && value.args !== undefined) {
    throw new InputError("a resource probe takes no args", `${where}.args`);
  }
  if (kind === "prompt") {
    for (const [name, arg] of Object.entries(args)) {
      if (typeof arg !== "string") {
        throw new InputError("prompt arguments are strings", `${where}.args.${name}`);
      }
    }
  }
  if (kind !== "tool" && value.expect_structured !== undefined) {
    throw new InputError(
      "only a tool answers structuredContent",
      `${where}.expect_structured`,
    );
  }
  for (const key of ["expect_error", "side_effects"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "boolean") {
      throw new InputError(`${key} must be true or false`, `${where}.${key}`);
    }
  }
  if (kind !== "tool" && value.side_effects !== undefined) {
    throw new InputError(`a ${kind} probe has no side effects`, `${where}.side_effects`);
  }
  const timeout = value.timeout_s;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || !(timeout > 0) || timeout > 86_400)
  ) {
    throw new InputError(
      "timeout_s must be a number of seconds in (0, 86400]",
      `${where}.timeout_s`,
    );
  }
  const text = value.expect_text;
  if (text !== undefined && typeof text !== "string" && !isJsonObject(text)) {
    throw new InputError(
      "expect_text must be a string or a $ matcher object",
      `${where}.expect_text`,
    );
  }
  if (isJsonObject(text) && !Object.keys(text).some((key) => key.startsWith("$"))) {
    throw new InputError(
      "expect_text must be a string or a $ matcher object ({$contains: …}, {$regex: …})",
      `${where}.expect_text`,
    );
  }
  const probe: Probe = {
    kind,
    target,
    args,
    expectError: value.expect_error === true,
    sideEffects: value.side_effects === true,
    where,
  };
  if (text !== undefined) probe.expectText = matcherFromJson(text, `${where}.expect_text`);
  if (value.expect_structured !== undefined) {
    probe.expectStructured = matcherFromJson(
      asDoubles(value.expect_structured),
      `${where}.expect_structured`,
    );
  }
  if (typeof timeout === "number") probe.timeoutS = timeout;
  return probe;
}

/**
 * Read a list of probes (a parsed file's value).
 *
 * @param value The list.
 * @param where Its place, for errors (`probes.yaml`, `probes.yaml: everything`).
 * @returns The probes, in file order.
 * @throws {InputError} On a bad entry, naming its place and key.
 *
 * @example Usage
 * ```ts
 * import { probesFromJson } from "./probe_file.ts";
 * import assert from "node:assert/strict";
 *
 * const [probe] = probesFromJson([{ tool: "echo", args: { message: "hi" }, expect_text: "Echo: hi" }], "p.json");
 * assert.equal(probe!.target, "echo");
 * assert.throws(() => probesFromJson([{ tool: "echo", expect: 1 }], "p.json"), /p\.json: \[0\]: unknown key "expect"/);
 * ```
 */
export function probesFromJson(value: unknown, where: string): Probe[] {
  if (!Array.isArray(value)) {
    throw new InputError("expected a list of probes ({tool|resource|prompt, …})", where);
  }
  if (value.length > MAX_PROBES) {
    throw new InputError(`more than ${MAX_PROBES} probes; split the file`, where);
  }
  return value.map((item, i) => probeOf(item, `${where}: [${i}]`));
}

/**
 * Read a probe file: a list (one server), or an object of lists keyed by server name.
 *
 * @param path The file (JSON or YAML).
 * @returns The probes, or the probes of each server by name.
 * @throws {InputError} When it cannot be read or an entry is bad (file, place and key).
 *
 * @example Usage
 * ```ts ignore
 * import { readProbeFile } from "./probe_file.ts";
 *
 * const probes = await readProbeFile("probes.yaml");
 * ```
 */
export async function readProbeFile(path: string): Promise<Probe[] | Record<string, Probe[]>> {
  const value = await readDocument(path);
  if (Array.isArray(value)) return probesFromJson(value, path);
  if (!isJsonObject(value)) {
    throw new InputError("expected a list of probes, or lists keyed by server name", path);
  }
  const out: Record<string, Probe[]> = {};
  for (const [name, list] of Object.entries(value)) {
    out[name] = probesFromJson(list, `${path}: ${name}`);
  }
  return out;
}

// Kept number literals (64-bit integers read as their digits) as the doubles the SDK reads.
function asDoubles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asDoubles);
  const digits = numberText(value);
  if (digits !== undefined) return Number(digits);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: asDoubles(value[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
