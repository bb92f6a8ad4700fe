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
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { canonicalJson } from "../base/canonical.ts";
import type { Catalog } from "./catalog.ts";
import { closestName } from "./closest_name.ts";
import { effectiveHints } from "./tool_lint.ts";
import { DoctorCheck } from "./check.ts";
import type { DoctorTerms } from "./terms.ts";

/** How much a change matters to an agent written against the baseline. */
export type DriftClass = "breaking" | "safety" | "compatible";

/** One change. */
export interface DriftChange {
  /** Its class. */
  class: DriftClass;
  /** Where, as a JSON pointer into the catalog (`/tools/search/inputSchema/properties/q`). */
  pointer: string;
  /** What changed, in a few words. */
  message: string;
}

function escape(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const WORDS = new Set(["description", "title", "examples", "default", "$comment", "$schema"]);
const HANDLED = new Set([
  ...LOWER,
  ...UPPER,
  ...WORDS,
  "type",
  "enum",
  "pattern",
  "additionalProperties",
  "properties",
  "required",
  "items",
]);

function types(schema: JsonObject): string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return null;
}

type Push = (cls: DriftClass, pointer: string, message: string) => void;

function compareBounds(a: JsonObject, b: JsonObject, at: string, push: Push): void {
  for (
    const [keys, tighter] of [[LOWER, (x: number, y: number) => y > x], [
      UPPER,
      (x: number, y: number) => y < x,
    ]] as const
  ) {
    for (const key of keys) {
      const [x, y] = [a[key], b[key]];
      if (same(x, y)) continue;
      if (typeof y === "number" && (typeof x !== "number" || tighter(x, y))) {
        push("breaking", `${at}/${key}`, `${key} tightened from ${x ?? "none"} to ${y}`);
      } else push("compatible", `${at}/${key}`, `${key} relaxed from ${x} to ${y ?? "none"}`);
    }
  }
}

/**
 * Compare two JSON Schemas recursively.
 *
 * @param a The baseline's schema.
 * @param b The schema now.
 * @param at Its JSON pointer.
 * @param push Receives each change.
 */
function compareSchema(a: unknown, b: unknown, at: string, push: Push): void {
  if (same(a, b)) return;
  if (!isJsonObject(a) || !isJsonObject(b)) {
    push(b === undefined ? "compatible" : "breaking", at, "the schema changed");
    return;
  }
  const [ta, tb] = [types(a), types(b)];
  const widen = (list: string[]) => list.includes("number") ? [...list, "integer"] : list;
  if (tb !== null && (ta === null || ta.some((t) => !widen(tb).includes(t)))) {
    push(
      "breaking",
      `${at}/type`,
      ta === null
        ? `a type was added (${tb.join(" | ")})`
        : `the type changed from ${ta.join(" | ")} to ${tb.join(" | ")}`,
    );
  } else if (!same(a.type, b.type)) {
    push("compatible", `${at}/type`, `the type widened to ${tb?.join(" | ") ?? "any"}`);
  }
  const [ea, eb] = [a.enum, b.enum];
  if (!same(ea, eb)) {
    if (Array.isArray(eb) && !Array.isArray(ea)) {
      push("breaking", `${at}/enum`, "an enum was added");
    } else if (Array.isArray(ea)) {
      const now = Array.isArray(eb) ? eb.map((v) => canonicalJson(v)) : null;
      const removed = now === null ? [] : ea.filter((v) => !now.includes(canonicalJson(v)));
      for (const value of removed) {
        push("breaking", `${at}/enum`, `the enum value ${JSON.stringify(value)} was removed`);
      }
      if (removed.length === 0) push("compatible", `${at}/enum`, "enum values were added");
    }
  }
  compareBounds(a, b, at, push);
  if (!same(a.pattern, b.pattern)) {
    if (b.pattern !== undefined) {
      push("breaking", `${at}/pattern`, `a new pattern ${JSON.stringify(b.pattern)}`);
    } else push("compatible", `${at}/pattern`, "the pattern was removed");
  }
  if (!same(a.additionalProperties, b.additionalProperties)) {
    if (b.additionalProperties === false) {
      push("breaking", `${at}/additionalProperties`, "additionalProperties: false was added");
    } else if (isJsonObject(a.additionalProperties) && isJsonObject(b.additionalProperties)) {
      compareSchema(
        a.additionalProperties,
        b.additionalProperties,
        `${at}/additionalProperties`,
        push,
      );
    } else push("compatible", `${at}/additionalProperties`, "additionalProperties was relaxed");
  }
  const pa = isJsonObject(a.properties) ? a.properties : {};
  const pb = isJsonObject(b.properties) ? b.properties : {};
  const ra = new Set(Array.isArray(a.required) ? a.required : []);
  const rb = new Set(Array.isArray(b.required) ? b.required : []);
  for (const key of Object.keys(pa)) {
    const where = `${at}/properties/${escape(key)}`;
    if (!Object.hasOwn(pb, key)) push("breaking", where, `the parameter ${key} was removed`);
    else {
      compareSchema(pa[key], pb[key], where, push);
      if (!ra.has(key) && rb.has(key)) {
        push("breaking", where, `the parameter ${key} is now required`);
      }
      if (ra.has(key) && !rb.has(key)) {
        push("compatible", where, `the parameter ${key} is now optional`);
      }
    }
  }
  for (const key of Object.keys(pb)) {
    if (Object.hasOwn(pa, key)) continue;
    const where = `${at}/properties/${escape(key)}`;
    if (rb.has(key)) push("breaking", where, `a required parameter ${key} was added`);
    else push("compatible", where, `an optional parameter ${key} was added`);
  }
  if (a.items !== undefined || b.items !== undefined) {
    compareSchema(a.items ?? {}, b.items ?? {}, `${at}/items`, push);
  }
  for (const key of WORDS) {
    if (key !== "$schema" && !same(a[key], b[key])) {
      push("compatible", `${at}/${escape(key)}`, `${key} changed`);
    }
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (HANDLED.has(key) || same(a[key], b[key])) continue;
    // A keyword we do not reason about (anyOf, $ref, format…): assume the worst.
    push("breaking", `${at}/${escape(key)}`, `the ${key} keyword changed`);
  }
}

// Toward the risky side: what a client that trusted the baseline's hints did not expect.
const RISKY: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  openWorldHint: true,
};

function compareTool(name: string, a: JsonObject, b: JsonObject, push: Push): void {
  const at = `/tools/${escape(name)}`;
  compareSchema(a.inputSchema, b.inputSchema, `${at}/inputSchema`, push);
  if (!same(a.outputSchema, b.outputSchema)) {
    push("compatible", `${at}/outputSchema`, "the output schema changed");
  }
  for (const key of ["description", "title"]) {
    if (!same(a[key], b[key])) push("compatible", `${at}/${key}`, `the tool's ${key} changed`);
  }
  const [ha, hb] = [effectiveHints(a.annotations), effectiveHints(b.annotations)];
  for (const hint of Object.keys(ha)) {
    if (ha[hint] === hb[hint]) continue;
    const where = `${at}/annotations/${hint}`;
    const message = `${hint} moved from ${ha[hint]} to ${hb[hint]}`;
    if (hint in RISKY && hb[hint] === RISKY[hint]) push("safety", where, message);
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
      const closest = closestName(name, added);
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
      if (current === undefined) push("breaking", at, `the ${word} ${id} was removed`);
      else if (key === "prompts") {
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

/**
 * `catalog-drift`: breaking changes fail, safety changes warn, compatible
 * ones are listed; each with its JSON pointer, the most severe first.
 *
 * @param changes The changes.
 * @param label The baseline file, for the detail.
 * @param terms How to name writing a baseline.
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
  changes: readonly DriftChange[],
  label: string,
  terms: Pick<DoctorTerms, "updateBaseline">,
): DoctorCheck {
  if (changes.length === 0) {
    return new DoctorCheck("catalog-drift", "pass", `the catalog matches ${label}`);
  }
  const counts = { breaking: 0, safety: 0, compatible: 0 };
  for (const change of changes) counts[change.class]++;
  const order: DriftClass[] = ["breaking", "safety", "compatible"];
  const lines = order.flatMap((cls) =>
    changes.filter((change) => change.class === cls).map((change) =>
      `${change.class} ${change.pointer}: ${change.message}`
    )
  );
  const detail =
    `against ${label}: ${counts.breaking} breaking, ${counts.safety} safety, ${counts.compatible} compatible; ${
      lines.join("; ")
    }`;
  if (counts.breaking > 0) {
    return new DoctorCheck("catalog-drift", "fail", detail, {
      fix:
        `agents written against the baseline may break: restore what was removed or tightened, or review and write a new baseline with ${terms.updateBaseline}`,
    });
  }
  if (counts.safety > 0) {
    return new DoctorCheck("catalog-drift", "warn", detail, {
      fix:
        `a tool now says it may destroy or reach outside: review it, then write a new baseline with ${terms.updateBaseline}`,
    });
  }
  return new DoctorCheck("catalog-drift", "pass", detail);
}
