/**
 * The limits every parsed document is held to before anything walks it, so
 * that a hostile file gives a one-line error instead of a hang, an
 * out-of-memory crash or a stack overflow:
 *
 * - **Depth.** No value nests deeper than {@linkcode MAX_NESTING_DEPTH}
 *   (1,000) arrays and objects. Walkers (matchers, canonical JSON, the
 *   checks) recurse, and 100,000 levels overflowed the stack.
 * - **YAML aliases.** Aliases (`*name`) may add at most
 *   {@linkcode MAX_YAML_ALIAS_NODES} (100,000) nodes to a document, each
 *   alias counting the full size of the node it repeats. A 551-byte "billion
 *   laughs" document expands to billions; it is refused at the alias that
 *   crosses the limit, with `file:line:col`, from the parser's events,
 *   before the document is built.
 * - **Numbers.** A number JSON text can write but a float cannot hold
 *   (`1e400`, read as `Infinity`) is an error naming its JSON path.
 * - **Duplicate keys.** In the files people write (gold files, contracts,
 *   specs, protocols, honesty and fault files: everything
 *   `readDocument` reads) a key given twice in one JSON object is an error
 *   with `file:line:col` and the path; JSON.parse would keep the last
 *   silently, and YAML already refuses it.
 *
 * @module
 */

import { InputError } from "./errors.ts";
import { isNumberText } from "./lossless_json.ts";

/** The deepest nesting of arrays and objects a document may have. */
export const MAX_NESTING_DEPTH = 1000;

/** The most nodes YAML aliases may add to one document (each alias counts the node it repeats). */
export const MAX_YAML_ALIAS_NODES = 100_000;

function pathOf(keys: readonly (string | number)[]): string {
  if (keys.length > 24) {
    // A path 1,000 levels deep is no help in full: its start, and how deep it goes.
    return `${pathOf(keys.slice(0, 12))}…(${keys.length} levels)`;
  }
  let out = "";
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function located(where: string | undefined, path: string): string | undefined {
  if (path === "") return where;
  return where === undefined || where === "" ? path : `${where}: ${path}`;
}

// The JSON path of the first offending value, found again with keys tracked (only on error).
function findPath(
  value: unknown,
  bad: (value: unknown, depth: number) => boolean,
): (string | number)[] {
  const stack: { value: unknown; depth: number; keys: (string | number)[] }[] = [
    { value, depth: 0, keys: [] },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (bad(frame.value, frame.depth)) return frame.keys;
    const current = frame.value;
    if (typeof current !== "object" || current === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, i) => [i, item])
      : Object.entries(current);
    for (let k = entries.length - 1; k >= 0; k--) {
      const [key, item] = entries[k]!;
      stack.push({ value: item, depth: frame.depth + 1, keys: [...frame.keys, key] });
    }
  }
  return [];
}

/**
 * Check a parsed value against the limits: nesting depth and numbers a
 * float cannot hold. The walk is iterative, so any depth is safe to check.
 *
 * @param value A parsed JSON or YAML value.
 * @param where The file, for errors; the JSON path is appended.
 * @throws {InputError} When the value nests deeper than
 * {@linkcode MAX_NESTING_DEPTH} or holds a non-finite number.
 *
 * @example Usage
 * ```ts
 * import { checkJsonLimits } from "./json_limits.ts";
 * import assert from "node:assert/strict";
 *
 * checkJsonLimits(JSON.parse('{"a": [1, 2]}'), "x.json");
 * assert.throws(
 *   () => checkJsonLimits(JSON.parse('{"a": [1, 1e400]}'), "x.json"),
 *   /^InputError: x\.json: a\[1\]: number too large/,
 * );
 * ```
 */
export function checkJsonLimits(value: unknown, where?: string): void {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number" && !Number.isFinite(value)) throw numberError(value, where, "");
    return;
  }
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop()! + 1;
    if (depth > MAX_NESTING_DEPTH) {
      const keys = findPath(value, (_v, d) => d >= MAX_NESTING_DEPTH);
      throw new InputError(
        `nested deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects (the limit); ` +
          "flatten the data",
        located(where, pathOf(keys)),
      );
    }
    // Plain loops (no Object.values arrays): this runs over every document read.
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (typeof item === "object") {
          if (item !== null) {
            values.push(item);
            depths.push(depth);
          }
        } else if (typeof item === "number" && !Number.isFinite(item)) {
          throw numberAt(value, item, where);
        }
      }
    } else {
      const record = current as Record<string, unknown>;
      for (const key in record) {
        const item = record[key];
        if (typeof item === "object") {
          if (item !== null) {
            values.push(item);
            depths.push(depth);
          }
        } else if (typeof item === "number" && !Number.isFinite(item)) {
          throw numberAt(value, item, where);
        }
      }
    }
  }
}

// The most levels the quick pass descends before it leaves a value to the full walk.
const QUICK_DEPTH = 32;

/**
 * A quick pass for small values (one tool call's arguments or result): `true`
 * when the value nests at most 32 levels and holds only finite numbers, so it
 * is within the limits of {@linkcode checkJsonLimits}; `false` means that
 * check must decide (and say where). On a small value it costs less than the
 * check's explicit stacks; on a large one, run the check.
 *
 * @param value A parsed JSON value.
 * @returns Whether the value is certainly within the limits.
 *
 * @example Usage
 * ```ts
 * import { quickWithinLimits } from "./json_limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(quickWithinLimits({ a: [1, "x"] }), true);
 * assert.equal(quickWithinLimits({ a: [1, Infinity] }), false);
 * ```
 */
export function quickWithinLimits(value: unknown): boolean {
  if (typeof value === "number") return value - value === 0;
  return typeof value !== "object" || value === null || shallowAndFinite(value, 0);
}

function shallowAndFinite(value: object, depth: number): boolean {
  if (depth >= QUICK_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "number") {
        if (item - item !== 0) return false; // NaN or ±Infinity
      } else if (typeof item === "object" && item !== null) {
        if (!shallowAndFinite(item, depth + 1)) return false;
      }
    }
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === "number") {
      if (item - item !== 0) return false;
    } else if (typeof item === "object" && item !== null) {
      if (!shallowAndFinite(item, depth + 1)) return false;
    }
  }
  return true;
}

function numberAt(root: unknown, item: number, where: string | undefined): InputError {
  const keys = findPath(root, (v) => typeof v === "number" && !Number.isFinite(v));
  return numberError(item, where, pathOf(keys));
}

function numberError(value: number, where: string | undefined, path: string): InputError {
  // YAML's `.nan` is no number at all, not a large one (issue 42).
  if (Number.isNaN(value)) {
    return new InputError(
      "not a number (YAML .nan) has no JSON value; write it as a string or null",
      located(where, path),
    );
  }
  return new InputError(
    `number too large for JSON (it reads as ${value}); write it smaller, or as a string`,
    located(where, path),
  );
}

/** One event of js-yaml's `parseEvents`, as far as the alias count needs. */
export interface YamlEvent {
  /** 1 document, 2 sequence, 3 mapping, 4 scalar, 5 alias, 6 pop. */
  type: number;
  /** Where the anchor name starts, or -1. */
  anchorStart?: number;
  /** Where the anchor name ends, or -1. */
  anchorEnd?: number;
}

/**
 * Refuse a YAML document whose aliases would add more than
 * {@linkcode MAX_YAML_ALIAS_NODES} nodes, from the parser's events, before
 * the document is built.
 *
 * @param events The events of js-yaml's `parseEvents`.
 * @param text The YAML text the events point into.
 * @param file The file, for errors.
 * @param lineColumn Turns an offset into 1-based `[line, column]`.
 * @throws {InputError} Naming `file:line:col` of the alias that crosses the limit.
 */
export function checkYamlAliases(
  events: readonly YamlEvent[],
  text: string,
  file: string,
  lineColumn: (text: string, offset: number) => [number, number],
): void {
  const sizes = new Map<string, number>();
  // Open collections: their running size (themselves included) and anchor name.
  const open: { size: number; anchor: string | undefined }[] = [];
  let added = 0;
  const anchorOf = (event: YamlEvent) =>
    event.anchorStart !== undefined && event.anchorStart >= 0 && event.anchorEnd !== undefined
      ? text.slice(event.anchorStart, event.anchorEnd)
      : undefined;
  const addToParent = (size: number) => {
    const parent = open[open.length - 1];
    if (parent !== undefined) parent.size += size;
  };
  for (const event of events) {
    switch (event.type) {
      case 1:
        open.push({ size: 0, anchor: undefined });
        break;
      case 2:
      case 3:
        open.push({ size: 1, anchor: anchorOf(event) });
        break;
      case 4: {
        const anchor = anchorOf(event);
        if (anchor !== undefined) sizes.set(anchor, 1);
        addToParent(1);
        break;
      }
      case 5: {
        const name = anchorOf(event) ?? "";
        const size = sizes.get(name) ?? 1;
        added += size;
        if (added > MAX_YAML_ALIAS_NODES) {
          const [line, column] = lineColumn(text, Math.max(0, (event.anchorStart ?? 1) - 1));
          throw new InputError(
            `YAML aliases expand to more than ${MAX_YAML_ALIAS_NODES} nodes (the limit; *${name} ` +
              `repeats ${size}); write the data out without anchors and aliases`,
            `${file}:${line}:${column}`,
          );
        }
        addToParent(size);
        break;
      }
      case 6: {
        const closed = open.pop();
        if (closed === undefined) break;
        if (closed.anchor !== undefined) sizes.set(closed.anchor, closed.size);
        addToParent(closed.size);
        break;
      }
    }
  }
}

/** What {@linkcode checkDuplicateKeys} needs of jsonc-parser's scanner. */
export interface JsonScanner {
  /** The next token's kind (jsonc-parser's `SyntaxKind`). */
  scan(): number;
  /** A string token's decoded text. */
  getTokenValue(): string;
  /** The token's 0-based line. */
  getTokenStartLine(): number;
  /** The token's 0-based column. */
  getTokenStartCharacter(): number;
}

// jsonc-parser's SyntaxKind values (a const enum its types do not let us import).
const OPEN_BRACE = 1, CLOSE_BRACE = 2, OPEN_BRACKET = 3, CLOSE_BRACKET = 4, COMMA = 5;
const COLON = 6, STRING = 10, EOF = 17;

/** An open container while scanning: its keys so far (objects) or its index (arrays). */
interface Open {
  keys?: Set<string>;
  index: number;
  key?: string;
}

/**
 * Refuse a key given twice in one JSON object. Run it on text that parsed
 * and passed {@linkcode checkJsonLimits}. It walks jsonc-parser's token
 * scanner in a loop (no recursion: a document 1,000 levels deep is checked
 * however deep the caller's stack already is).
 *
 * @param text The JSON or JSONC text.
 * @param file The file, for errors.
 * @param createScanner jsonc-parser's `createScanner`.
 * @throws {InputError} Naming `file:line:col` and the key's JSON path.
 *
 * @example Usage
 * ```ts
 * import { checkDuplicateKeys } from "./json_limits.ts";
 * import { createScanner } from "jsonc-parser";
 * import assert from "node:assert/strict";
 *
 * checkDuplicateKeys('{"a": {"b": 1}, "b": [1, {"a": 2}]}', "x.json", createScanner);
 * assert.throws(
 *   () => checkDuplicateKeys('{"a": [{"k": 1,\n "k": 2}]}', "x.json", createScanner),
 *   /x\.json:2:2: a\[0\]: key "k" is given twice/,
 * );
 * ```
 */
export function checkDuplicateKeys(
  text: string,
  file: string,
  createScanner: (text: string, ignoreTrivia: boolean) => JsonScanner,
): void {
  const scanner = createScanner(text, true);
  const open: Open[] = [];
  let expectKey = false;
  // Bounded by the text: every scan consumes at least one character until EOF.
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    const top = open[open.length - 1];
    switch (token) {
      case OPEN_BRACE:
      case OPEN_BRACKET:
        open.push(token === OPEN_BRACE ? { keys: new Set(), index: 0 } : { index: 0 });
        expectKey = token === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        open.pop();
        expectKey = false;
        break;
      case COMMA:
        if (top === undefined) break;
        if (top.keys !== undefined) expectKey = true;
        else top.index++;
        break;
      case COLON:
        expectKey = false;
        break;
      case STRING:
        if (!expectKey || top?.keys === undefined) break;
        {
          const key = scanner.getTokenValue();
          if (top.keys.has(key)) {
            const path = pathOf(
              open.slice(0, -1).map((o) => o.keys === undefined ? o.index : o.key!),
            );
            throw new InputError(
              `${path === "" ? "" : `${path}: `}key ${
                JSON.stringify(key)
              } is given twice in one object; keep one`,
              `${file}:${scanner.getTokenStartLine() + 1}:${scanner.getTokenStartCharacter() + 1}`,
            );
          }
          top.keys.add(key);
          top.key = key;
        }
        break;
    }
  }
}

/**
 * Whether JSON text that `JSON.parse` read into `value` has no key given twice
 * in one object: the keys written in the text (strings followed by a colon)
 * are as many as the parsed objects' keys. Needs no parser, so a gold file or
 * contract in plain JSON is checked without loading jsonc-parser; only when
 * the counts differ does {@linkcode checkDuplicateKeys} find and name the
 * duplicate. Run it on text that parsed and passed
 * {@linkcode checkJsonLimits}; plain JSON only (no comments).
 *
 * @param text The JSON text.
 * @param value What `JSON.parse` made of it.
 * @returns `true` when no key is repeated.
 *
 * @example Usage
 * ```ts
 * import { keysAreUnique } from "./json_limits.ts";
 * import assert from "node:assert/strict";
 *
 * const text = '{"a": {"b": 1, "c": ["x:", {"d": 2}]}}';
 * assert.equal(keysAreUnique(text, JSON.parse(text)), true);
 * assert.equal(keysAreUnique('{"a": 1, "a": 2}', JSON.parse('{"a": 1, "a": 2}')), false);
 * ```
 */
export function keysAreUnique(text: string, value: unknown): boolean {
  let written = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 0x22) continue;
    for (i++; i < text.length; i++) { // to the string's closing quote
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) break;
    }
    let j = i + 1;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      j++;
    }
    if (text.charCodeAt(j) === 0x3a) written++;
  }
  let parsed = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (isNumberText(node)) continue; // a kept number literal (issue 42), not an object
    for (const key of Object.keys(node)) {
      parsed++;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return written === parsed;
}

/**
 * The offset of the first bracket nested deeper than
 * {@linkcode MAX_NESTING_DEPTH} in JSON or JSONC text, or -1. For text that
 * a recursive parser (jsonc-parser) is about to read.
 *
 * @param text The text.
 * @returns The offset, or -1 when the text is within the limit.
 */
export function tooDeepOffset(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) { // a string: skip to its closing quote
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c) i++;
        else if (c === 0x22) break;
      }
    } else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2f) { // a // comment
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2a) { // a /* comment */
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > MAX_NESTING_DEPTH) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return -1;
}
