/**
 * The drift of one JSON Schema, classified for the side it sits on. For an
 * `inputSchema` (what an agent sends) a schema that accepts less is
 * **breaking** and one that accepts more is compatible; for an
 * `outputSchema` (what an agent reads) it turns round: a property or a
 * required field removed, a type changed, an enum value added or a bound
 * relaxed is breaking, and so is any change of its type or its
 * `anyOf`/`oneOf` choices, narrower too (the issue: a reader's parser is
 * written for the old type). Anywhere, descriptions, titles, examples, defaults
 * and comments are compatible. Local `$ref`s (`#/$defs/…`, `#/definitions/…`)
 * are resolved before comparing, so an edit inside `$defs` is reported where
 * it is first used in the schema (once: a definition used twice, or a
 * recursive one, is one change); `$defs` themselves are only reported when
 * no use shows a change. `anyOf`/`oneOf` branches are matched by content: a new
 * branch widens an input (compatible), a removed one narrows it (breaking).
 * Keywords not reasoned about (`format`, `allOf`, `const`, a `$ref` to another
 * document…) are breaking when they change. Recursion is bounded: 32
 * levels, 16 `$ref` hops, 20,000 comparisons (past them, one safety warning
 * says what was not compared), and a pair of references is compared once.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { canonicalJson } from "../base/canonical.ts";
import { pointerKey } from "./lint_text.ts";

/** How much a change matters to an agent written against the baseline. */
export type DriftClass = "breaking" | "safety" | "compatible";

/** Receives one change. */
export type DriftPush = (cls: DriftClass, pointer: string, message: string) => void;

/** Which side of a tool a schema is: what the agent sends, or what it reads. */
export type SchemaSide = "input" | "output";

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const WORDS = ["description", "title", "examples", "default", "$comment"];
const BRANCHES = ["anyOf", "oneOf"];
const HANDLED = new Set([
  ...LOWER,
  ...UPPER,
  ...WORDS,
  ...BRANCHES,
  "$schema",
  "$ref",
  "$defs",
  "definitions",
  "$id",
  "type",
  "enum",
  "pattern",
  "additionalProperties",
  "properties",
  "required",
  "items",
]);
const MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
const CORE = ["type", "enum", "const", "properties", "required", "items", "format", "pattern"];
const MAX_DEPTH = 32;
const MAX_HOPS = 16;
/** The most subschema comparisons for one schema (a recursive one could branch without end). */
const MAX_COMPARISONS = 20_000;

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** The schema without its documentation (descriptions, titles, examples, defaults, comments). */
function docless(value: unknown, inMap = false): unknown {
  if (Array.isArray(value)) return value.map((v) => docless(v));
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(value)) {
    if (!inMap && WORDS.includes(key)) continue;
    out[key] = docless(sub, !inMap && MAPS.has(key));
  }
  return out;
}

interface Side {
  root: unknown;
}

function lookup(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  const body = ref.slice(1);
  if (body === "") return root;
  if (!body.startsWith("/")) return undefined;
  for (const raw of body.slice(1).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** A schema with its local `$ref` replaced by what it points at (siblings kept over it). */
function resolve(schema: unknown, side: Side): unknown {
  let node = schema;
  for (let hop = 0; hop < MAX_HOPS && isJsonObject(node) && typeof node.$ref === "string"; hop++) {
    const target = lookup(side.root, node.$ref);
    if (!isJsonObject(target)) return node;
    const { $ref: _ref, ...siblings } = node;
    node = { ...target, ...siblings };
  }
  return node;
}

/** Whether every `$ref` in a schema points into its `$defs` or `definitions` (bounded walk). */
function onlyDefinitionRefs(root: unknown): boolean {
  let nodes = 0;
  const walk = (node: unknown, depth: number): boolean => {
    if (++nodes > MAX_COMPARISONS || depth > 2 * MAX_DEPTH) return false;
    if (Array.isArray(node)) return node.every((item) => walk(item, depth + 1));
    if (!isJsonObject(node)) return true;
    if (
      typeof node.$ref === "string" && !/^#\/(?:\$defs|definitions)\//.test(node.$ref)
    ) return false;
    return Object.values(node).every((value) => walk(value, depth + 1));
  };
  return walk(root, 0);
}

function types(schema: JsonObject): string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return null;
}

class SchemaComparer {
  readonly #a: Side;
  readonly #b: Side;
  readonly #side: SchemaSide;
  readonly #push: DriftPush;
  readonly #defsSame: boolean;
  #pushed = 0;
  #budget = MAX_COMPARISONS;
  #stopped = false;
  readonly #done = new Set<string>();

  constructor(a: unknown, b: unknown, side: SchemaSide, push: DriftPush) {
    this.#a = { root: a };
    this.#b = { root: b };
    this.#side = side;
    this.#push = push;
    const defs = (root: unknown) => isJsonObject(root) ? [root.$defs, root.definitions] : [];
    // What a reference may point at is unchanged: the same definitions, and no reference
    // elsewhere into the schema (`#`, `#/properties/…`), which may have changed.
    this.#defsSame = same(defs(a), defs(b)) && onlyDefinitionRefs(a) && onlyDefinitionRefs(b);
  }

  run(at: string): void {
    this.#done.add("#\u0000#"); // the root is the first use of a reference to itself
    this.#compare(this.#a.root, this.#b.root, at, 0);
    const [a, b] = [this.#a.root, this.#b.root];
    if (this.#pushed === 0 && !this.#defsSame && isJsonObject(a) && isJsonObject(b)) {
      // Nothing that uses them changed: the definitions' own edit, for the record.
      this.#push("compatible", `${at}/$defs`, "the $defs changed (no use of them did)");
    }
  }

  #emit(cls: DriftClass, pointer: string, message: string): void {
    this.#pushed++;
    this.#push(cls, pointer, message);
  }

  /** Input: narrower is breaking. Output: wider is breaking. */
  #narrower(isNarrower: boolean): DriftClass {
    return isNarrower === (this.#side === "input") ? "breaking" : "compatible";
  }

  #compare(rawA: unknown, rawB: unknown, at: string, depth: number): void {
    const hasRef = (value: unknown) => canonicalJson(value ?? null).includes('"$ref"');
    if (same(rawA, rawB) && (this.#defsSame || !hasRef(rawA))) return;
    if (depth > MAX_DEPTH || --this.#budget < 0) {
      // Not compared is not unchanged: say so once, as a warning.
      if (!this.#stopped) {
        this.#stopped = true;
        this.#emit(
          "safety",
          at,
          `the comparison stopped here (over ${MAX_DEPTH} levels or ${
            MAX_COMPARISONS.toLocaleString("en-US")
          } subschemas): what lies below was not compared`,
        );
      }
      return;
    }
    const refOf = (value: unknown) =>
      isJsonObject(value) && typeof value.$ref === "string" ? value.$ref : null;
    const pair = refOf(rawA) !== null && refOf(rawB) !== null
      ? `${refOf(rawA)}\u0000${refOf(rawB)}`
      : null;
    // Each pair of references is compared once: at its first use (one change, one finding).
    if (pair !== null) {
      if (this.#done.has(pair)) return;
      this.#done.add(pair);
    }
    this.#compareResolved(resolve(rawA, this.#a), resolve(rawB, this.#b), at, depth);
  }

  #compareResolved(a: unknown, b: unknown, at: string, depth: number): void {
    if (!isJsonObject(a) || !isJsonObject(b)) {
      if (!same(a, b)) {
        this.#emit(b === undefined ? "compatible" : "breaking", at, "the schema changed");
      }
      return;
    }
    const input = this.#side === "input";
    if (!same(a.$ref, b.$ref)) {
      // A reference we cannot resolve (another document): we cannot tell, so assume the worst.
      this.#emit(
        "breaking",
        `${at}/$ref`,
        `the reference changed to ${JSON.stringify(b.$ref ?? null)}`,
      );
    }
    const [ta, tb] = [types(a), types(b)];
    const widen = (list: string[]) => list.includes("number") ? [...list, "integer"] : list;
    const narrowed = tb !== null && (ta === null || ta.some((t) => !widen(tb).includes(t)));
    // A schema that became (or stopped being) a choice: the branches tell, not the type.
    const choice = BRANCHES.some((key) => Array.isArray(a[key]) !== Array.isArray(b[key]));
    if (!same(a.type, b.type) && !choice) {
      const message = ta === null
        ? `a type was added (${tb!.join(" | ")})`
        : tb === null
        ? `the type was removed (was ${ta.join(" | ")})`
        : `the type changed from ${ta.join(" | ")} to ${tb.join(" | ")}`;
      // What an agent reads may not change type either way: its parser expects the old one.
      this.#emit(narrowed || !input ? "breaking" : "compatible", `${at}/type`, message);
    }
    this.#enum(a, b, at);
    this.#bounds(a, b, at);
    if (!same(a.pattern, b.pattern)) {
      this.#emit(
        input && b.pattern !== undefined ? "breaking" : "compatible",
        `${at}/pattern`,
        b.pattern === undefined
          ? "the pattern was removed"
          : `a new pattern ${JSON.stringify(b.pattern)}`,
      );
    }
    if (!same(a.additionalProperties, b.additionalProperties)) {
      if (isJsonObject(a.additionalProperties) && isJsonObject(b.additionalProperties)) {
        this.#compare(
          a.additionalProperties,
          b.additionalProperties,
          `${at}/additionalProperties`,
          depth + 1,
        );
      } else if (b.additionalProperties === false) {
        this.#emit(
          this.#narrower(true),
          `${at}/additionalProperties`,
          "additionalProperties: false was added",
        );
      } else {
        this.#emit(
          this.#narrower(false),
          `${at}/additionalProperties`,
          "additionalProperties was relaxed",
        );
      }
    }
    this.#properties(a, b, at, depth);
    if (a.items !== undefined || b.items !== undefined) {
      this.#compare(a.items ?? {}, b.items ?? {}, `${at}/items`, depth + 1);
    }
    for (const key of BRANCHES) this.#branches(a, b, key, at, depth);
    for (const key of WORDS) {
      if (!same(a[key], b[key])) {
        this.#emit("compatible", `${at}/${pointerKey(key)}`, `${key} changed`);
      }
    }
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (HANDLED.has(key) || same(a[key], b[key])) continue;
      if (same(docless(a[key]), docless(b[key]))) {
        this.#emit("compatible", `${at}/${pointerKey(key)}`, `documentation inside ${key} changed`);
        continue;
      }
      // A keyword we do not reason about (allOf, format, const…): assume the worst.
      this.#emit("breaking", `${at}/${pointerKey(key)}`, `the ${key} keyword changed`);
    }
  }

  #enum(a: JsonObject, b: JsonObject, at: string): void {
    const [ea, eb] = [a.enum, b.enum];
    if (same(ea, eb)) return;
    if (!Array.isArray(ea) || !Array.isArray(eb)) {
      this.#emit(
        this.#narrower(Array.isArray(eb)),
        `${at}/enum`,
        Array.isArray(eb) ? "an enum was added" : "the enum was removed",
      );
      return;
    }
    const [ka, kb] = [ea.map((v) => canonicalJson(v)), eb.map((v) => canonicalJson(v))];
    ea.forEach((value, i) => {
      if (!kb.includes(ka[i]!)) {
        this.#emit(
          this.#narrower(true),
          `${at}/enum`,
          `the enum value ${JSON.stringify(value)} was removed`,
        );
      }
    });
    eb.forEach((value, i) => {
      if (!ka.includes(kb[i]!)) {
        this.#emit(
          this.#narrower(false),
          `${at}/enum`,
          `the enum value ${JSON.stringify(value)} was added`,
        );
      }
    });
  }

  #bounds(a: JsonObject, b: JsonObject, at: string): void {
    for (const [keys, lower] of [[LOWER, true], [UPPER, false]] as const) {
      for (const key of keys) {
        const [x, y] = [a[key], b[key]];
        if (same(x, y)) continue;
        const tighter = typeof y === "number" &&
          (typeof x !== "number" || (lower ? y > x : y < x));
        this.#emit(
          this.#narrower(tighter),
          `${at}/${key}`,
          `${key} ${tighter ? "tightened" : "relaxed"} from ${x ?? "none"} to ${y ?? "none"}`,
        );
      }
    }
  }

  #properties(a: JsonObject, b: JsonObject, at: string, depth: number): void {
    const pa = isJsonObject(a.properties) ? a.properties : {};
    const pb = isJsonObject(b.properties) ? b.properties : {};
    const ra = new Set(Array.isArray(a.required) ? a.required : []);
    const rb = new Set(Array.isArray(b.required) ? b.required : []);
    const input = this.#side === "input";
    const noun = input ? "parameter" : "output field";
    for (const key of Object.keys(pa)) {
      const where = `${at}/properties/${pointerKey(key)}`;
      if (!Object.hasOwn(pb, key)) {
        // An input parameter removed breaks the calls that send it; an output field, the readers.
        this.#emit("breaking", where, `the ${noun} ${key} was removed`);
        continue;
      }
      this.#compare(pa[key], pb[key], where, depth + 1);
      if (!ra.has(key) && rb.has(key)) {
        this.#emit(input ? "breaking" : "compatible", where, `the ${noun} ${key} is now required`);
      }
      if (ra.has(key) && !rb.has(key)) {
        this.#emit(
          input ? "compatible" : "breaking",
          where,
          input
            ? `the parameter ${key} is now optional`
            : `the output field ${key} is no longer required`,
        );
      }
    }
    for (const key of Object.keys(pb)) {
      if (Object.hasOwn(pa, key)) continue;
      const where = `${at}/properties/${pointerKey(key)}`;
      const required = rb.has(key);
      this.#emit(
        input && required ? "breaking" : "compatible",
        where,
        `${required ? "a required" : "an optional"} ${noun} ${key} was added`,
      );
    }
    for (const key of ra) {
      if (typeof key === "string" && !Object.hasOwn(pa, key) && !rb.has(key) && !input) {
        this.#emit("breaking", `${at}/required`, `the output field ${key} is no longer required`);
      }
    }
  }

  /** What an agent reads may not change its choices either way (as with its type). */
  #branchClass(isNarrower: boolean): DriftClass {
    return this.#side === "output" ? "breaking" : this.#narrower(isNarrower);
  }

  #branches(a: JsonObject, b: JsonObject, key: string, at: string, depth: number): void {
    if (same(a[key], b[key]) && this.#defsSame) return;
    const la = Array.isArray(a[key]) ? a[key] as unknown[] : null;
    const lb = Array.isArray(b[key]) ? b[key] as unknown[] : null;
    if (la === null && lb === null) return;
    if (la === null || lb === null) {
      // A schema became (or stopped being) a choice: wider only if the old one is a branch now.
      const core = (schema: JsonObject) => {
        const out: JsonObject = {};
        for (const k of CORE) if (schema[k] !== undefined) out[k] = schema[k]!;
        return canonicalJson(docless(out) ?? null);
      };
      const single = la === null ? a : b;
      const list = (la ?? lb)!.map((x) => resolve(x, la === null ? this.#b : this.#a));
      const kept = list.some((x) => isJsonObject(x) && core(x) === core(single));
      const wider = la === null && kept;
      this.#emit(
        this.#branchClass(!wider),
        `${at}/${key}`,
        la === null ? `the schema became an ${key} of ${list.length}` : `the ${key} was removed`,
      );
      return;
    }
    const content = (branch: unknown, side: Side) =>
      canonicalJson(docless(resolve(branch, side)) ?? null);
    const ka = (la ?? []).map((x) => content(x, this.#a));
    const kb = (lb ?? []).map((x) => content(x, this.#b));
    const usedB = new Set<number>();
    const removed: number[] = [];
    ka.forEach((k, i) => {
      const j = kb.findIndex((other, jj) => other === k && !usedB.has(jj));
      if (j === -1) removed.push(i);
      else {
        usedB.add(j);
        this.#compare(la![i], lb![j], `${at}/${key}/${j}`, depth + 1); // documentation only
      }
    });
    const added = kb.map((_, j) => j).filter((j) => !usedB.has(j));
    // As many changed as before: the same branches, edited in place.
    if (removed.length === added.length) {
      removed.forEach((i, n) =>
        this.#compare(la![i], lb![added[n]!], `${at}/${key}/${added[n]}`, depth + 1)
      );
      return;
    }
    for (const i of removed) {
      this.#emit(
        this.#branchClass(true),
        `${at}/${key}/${i}`,
        `the ${key} branch ${i} was removed`,
      );
    }
    for (const j of added) {
      this.#emit(
        this.#branchClass(false),
        `${at}/${key}/${j}`,
        `a new ${key} branch ${j} was added`,
      );
    }
  }
}

/**
 * Compare two JSON Schemas of the same place, classifying every change.
 *
 * @param a The baseline's schema.
 * @param b The schema now.
 * @param at Its JSON pointer (`/tools/get/inputSchema`).
 * @param side `input` (what an agent sends) or `output` (what it reads).
 * @param push Receives each change.
 *
 * @example Usage
 * ```ts
 * import { compareSchemas } from "./schema_drift.ts";
 * import assert from "node:assert/strict";
 *
 * const seen: string[] = [];
 * compareSchemas(
 *   { anyOf: [{ type: "string" }] },
 *   { anyOf: [{ type: "string" }, { type: "null" }] },
 *   "/tools/t/inputSchema",
 *   "input",
 *   (cls, at, message) => seen.push(`${cls} ${at}: ${message}`),
 * );
 * assert.deepEqual(seen, ["compatible /tools/t/inputSchema/anyOf/1: a new anyOf branch 1 was added"]);
 * ```
 */
export function compareSchemas(
  a: unknown,
  b: unknown,
  at: string,
  side: SchemaSide,
  push: DriftPush,
): void {
  new SchemaComparer(a, b, side, push).run(at);
}
