/**
 * Catalog drift: every change between a baseline catalog and the server's
 * catalog now, with its JSON pointer, classified — **breaking** (an agent
 * written against the baseline can now fail: a tool, parameter, resource or
 * prompt removed, a required parameter added, a type changed or its set
 * shrunk, an enum value removed, a tighter bound, a new pattern,
 * `additionalProperties: false` added), **safety** (a hint moved toward
 * destructive or open-world, with the MCP defaults for absent hints), or
 * **compatible** (something added, a description changed, a bound relaxed).
 * Schemas are compared recursively (properties, items, additionalProperties).
 *
 * Changed in issue 38 (the schema rules are in `schema_drift.ts`):
 * documentation anywhere in a schema is compatible, `$ref`s are resolved, a
 * new `anyOf`/`oneOf` branch is compatible, an `outputSchema` is compared
 * with the reader's classes (a field or a required field removed, a type
 * changed: breaking); `idempotentHint` true → false is safety; a
 * resource removed is compatible (a server's resources are often data: log
 * files, documents) while a template removed stays breaking; a removed
 * tool's rename hint prefers a new tool with the identical input schema.
 * Each change becomes a finding (`drift.breaking`, `drift.safety`,
 * `drift.compatible`) with its class and pointer. Prompt arguments are
 * pointed at by name (`/prompts/P/arguments/NAME`), not by position, since
 * positions move between versions.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { canonicalJson } from "../base/canonical.ts";
import type { Catalog } from "./catalog.ts";
import { closestName } from "./closest_name.ts";
import { effectiveHints } from "./tool_lint.ts";
import { DoctorCheck, type DoctorFinding } from "./check.ts";
import type { DoctorTerms } from "./terms.ts";
import { pointerKey } from "./lint_text.ts";
import { compareSchemas, type DriftClass, type DriftPush } from "./schema_drift.ts";

export type { DriftClass } from "./schema_drift.ts";

/** One change. */
export interface DriftChange {
  /** Its class. */
  class: DriftClass;
  /** Where, as a JSON pointer into the catalog (`/tools/search/inputSchema/properties/q`). */
  pointer: string;
  /** What changed, in a few words. */
  message: string;
}

const escape = pointerKey;

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

type Push = DriftPush;

// Toward the risky side: what a client that trusted the baseline's hints did not expect.
const RISKY: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function compareTool(name: string, a: JsonObject, b: JsonObject, push: Push): void {
  const at = `/tools/${escape(name)}`;
  compareSchemas(a.inputSchema, b.inputSchema, `${at}/inputSchema`, "input", push);
  if (a.outputSchema === undefined && b.outputSchema !== undefined) {
    push("compatible", `${at}/outputSchema`, "an output schema was added");
  } else if (a.outputSchema !== undefined && b.outputSchema === undefined) {
    push("breaking", `${at}/outputSchema`, "the output schema was removed");
  } else compareSchemas(a.outputSchema, b.outputSchema, `${at}/outputSchema`, "output", push);
  for (const key of ["description", "title"]) {
    if (!same(a[key], b[key])) push("compatible", `${at}/${key}`, `the tool's ${key} changed`);
  }
  const [ha, hb] = [effectiveHints(a.annotations), effectiveHints(b.annotations)];
  for (const hint of Object.keys(ha)) {
    if (ha[hint] === hb[hint]) continue;
    // Read-only before and now: what it would destroy or repeat does not apply (the spec).
    const moot = hint !== "readOnlyHint" && hint !== "openWorldHint" && ha.readOnlyHint &&
      hb.readOnlyHint;
    const where = `${at}/annotations/${hint}`;
    const message = `${hint} moved from ${ha[hint]} to ${hb[hint]}`;
    if (hint in RISKY && hb[hint] === RISKY[hint] && !moot) push("safety", where, message);
    else push("compatible", where, message);
  }
}

function compareArguments(at: string, a: unknown, b: unknown, push: Push): void {
  const list = (value: unknown) =>
    new Map(
      (Array.isArray(value) ? value : []).filter(isJsonObject).map((
        arg,
      ) => [String(arg.name), arg]),
    );
  const [la, lb] = [list(a), list(b)];
  for (const [name, arg] of la) {
    const where = `${at}/arguments/${escape(name)}`;
    const now = lb.get(name);
    if (now === undefined) push("breaking", where, `the argument ${name} was removed`);
    else if (arg.required !== true && now.required === true) {
      push("breaking", where, `the argument ${name} is now required`);
    } else if (!same(arg, now)) push("compatible", where, `the argument ${name} changed`);
  }
  for (const [name, arg] of lb) {
    if (la.has(name)) continue;
    push(
      arg.required === true ? "breaking" : "compatible",
      `${at}/arguments/${escape(name)}`,
      `${arg.required === true ? "a required" : "an optional"} argument ${name} was added`,
    );
  }
}

/**
 * Every change from a baseline catalog to the catalog now.
 *
 * @param baseline The catalog in the baseline file.
 * @param now The server's catalog now.
 * @returns The changes, in catalog order (tools, resources, templates, prompts).
 *
 * @example Usage
 * ```ts
 * import { catalogDrift } from "./drift.ts";
 * import { catalogOf } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const before = catalogOf({ tools: [{ name: "get", inputSchema: { type: "object", properties: { id: { type: "string" } } } }] });
 * const after = catalogOf({ tools: [{ name: "get", inputSchema: { type: "object", properties: { id: { type: "number" } } } }] });
 * assert.deepEqual(catalogDrift(before, after), [{
 *   class: "breaking",
 *   pointer: "/tools/get/inputSchema/properties/id/type",
 *   message: "the type changed from string to number",
 * }]);
 * ```
 */
export function catalogDrift(baseline: Catalog, now: Catalog): DriftChange[] {
  const changes: DriftChange[] = [];
  const push: Push = (cls, pointer, message) => changes.push({ class: cls, pointer, message });
  const added = Object.keys(now.tools).filter((name) => !Object.hasOwn(baseline.tools, name));
  for (const [name, tool] of Object.entries(baseline.tools)) {
    const current = now.tools[name];
    if (current === undefined) {
      // A rename keeps its schema: prefer the new tools with the identical input schema.
      const twins = added.filter((other) => same(now.tools[other]!.inputSchema, tool.inputSchema));
      const closest = closestName(name, twins.length > 0 ? twins : added);
      push(
        "breaking",
        `/tools/${escape(name)}`,
        `the tool ${name} was removed${
          closest === null ? "" : ` (renamed? closest new tool: ${closest})`
        }`,
      );
    } else compareTool(name, tool, current, push);
  }
  for (const name of added) {
    push("compatible", `/tools/${escape(name)}`, `the tool ${name} was added`);
  }
  for (const key of ["resources", "resource_templates", "prompts"] as const) {
    const [a, b] = [baseline[key], now[key]];
    const word = key === "prompts"
      ? "prompt"
      : key === "resources"
      ? "resource"
      : "resource template";
    for (const [id, item] of Object.entries(a)) {
      const at = `/${key}/${escape(id)}`;
      const current = b[id];
      if (current === undefined) {
        // A resource list is often data (files, rows): one gone is news, not a break.
        push(key === "resources" ? "compatible" : "breaking", at, `the ${word} ${id} was removed`);
      } else if (key === "prompts") {
        compareArguments(at, item.arguments, current.arguments, push);
        if (!same(item.description, current.description)) {
          push("compatible", `${at}/description`, "the prompt's description changed");
        }
      } else if (!same(item, current)) push("compatible", at, `the ${word} ${id} changed`);
    }
    for (const id of Object.keys(b)) {
      if (!Object.hasOwn(a, id)) {
        push("compatible", `/${key}/${escape(id)}`, `the ${word} ${id} was added`);
      }
    }
  }
  return changes;
}

const SEVERITY = { breaking: "fail", safety: "warn", compatible: "info" } as const;

/** Options for {@linkcode driftCheck}. */
export interface DriftCheckOptions {
  /**
   * Said after the baseline's name: which entry was compared, when not the server's name.
   * @default {""}
   */
  note?: string;
  /**
   * How many findings `--ignore` silenced.
   * @default {0}
   */
  ignored?: number;
}

/**
 * The findings of some changes: `drift.CLASS` with its class and pointer, the most severe first.
 *
 * @param changes The changes.
 * @returns The findings.
 *
 * @example Usage
 * ```ts
 * import { driftFindings } from "./drift.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(driftFindings([{ class: "safety", pointer: "/tools/a", message: "m" }]), [
 *   { code: "drift.safety", severity: "warn", path: "/tools/a", message: "m", class: "safety" },
 * ]);
 * ```
 */
export function driftFindings(changes: readonly DriftChange[]): DoctorFinding[] {
  const order: DriftClass[] = ["breaking", "safety", "compatible"];
  return order.flatMap((cls) =>
    changes.filter((change) => change.class === cls).map((change) => ({
      code: `drift.${cls}`,
      severity: SEVERITY[cls],
      path: change.pointer,
      message: change.message,
      class: cls,
    }))
  );
}

/**
 * `catalog-drift`: breaking changes fail, safety changes warn, compatible
 * ones are listed; each a finding with its JSON pointer, the most severe
 * first. The detail is the count; the console and Markdown list the
 * findings one a line.
 *
 * @param findings The findings ({@linkcode driftFindings}), less those ignored.
 * @param label The baseline file, for the detail.
 * @param terms How to name writing a baseline.
 * @param options Which entry was compared, and how many findings were ignored.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { driftCheck } from "./drift.ts";
 * import { LIBRARY_TERMS } from "./terms.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(driftCheck([], "b.json", LIBRARY_TERMS).detail, "the catalog matches b.json");
 * ```
 */
export function driftCheck(
  findings: readonly DoctorFinding[],
  label: string,
  terms: Pick<DoctorTerms, "updateBaseline">,
  options: DriftCheckOptions = {},
): DoctorCheck {
  const note = options.note ?? "";
  const ignored = options.ignored ?? 0;
  const tail = ignored === 0 ? "" : `; ${ignored} finding${ignored === 1 ? "" : "s"} ignored`;
  if (findings.length === 0) {
    return new DoctorCheck("catalog-drift", "pass", `the catalog matches ${label}${note}${tail}`);
  }
  const counts = { breaking: 0, safety: 0, compatible: 0 };
  for (const finding of findings) if (finding.class !== undefined) counts[finding.class]++;
  const detail =
    `against ${label}${note}: ${counts.breaking} breaking, ${counts.safety} safety, ${counts.compatible} compatible${tail}`;
  const withFindings = { findings };
  if (counts.breaking > 0) {
    return new DoctorCheck("catalog-drift", "fail", detail, {
      ...withFindings,
      fix:
        `agents written against the baseline may break: restore what was removed or tightened, or review and write a new baseline with ${terms.updateBaseline}`,
    });
  }
  if (counts.safety > 0) {
    return new DoctorCheck("catalog-drift", "warn", detail, {
      ...withFindings,
      fix:
        `a tool now says it may destroy, repeat badly or reach outside: review it, then write a new baseline with ${terms.updateBaseline}`,
    });
  }
  return new DoctorCheck("catalog-drift", "pass", detail, withFindings);
}
