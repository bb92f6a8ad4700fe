/**
 * The complete part of a JSON text that was cut short: every member and
 * element whose value ended before the cut, with the containers still open
 * at the cut closed. MCP client logs cut long messages in the middle
 * (Claude Desktop writes `…[11759 chars truncated]…`); the head of such a
 * message still says which method, id and tool it was.
 *
 * A scalar cut in the middle (a string without its closing quote, a number
 * not yet followed by a delimiter) is dropped with its key, never kept half.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** The complete part of a cut JSON text, and where the cut fell. */
export interface JsonPrefix {
  /** The value made of the members and elements complete before the cut. */
  value: unknown;
  /** Whether the text ended before its outermost container closed. */
  cut: boolean;
  /**
   * The keys (and array indexes) of the containers still open at the cut
   * below the outermost one, outermost first: a member on this path was
   * cut, the others are whole.
   */
  openPath: (string | number)[];
}

interface Frame {
  kind: "{" | "[";
  key?: string; // the member being read (objects)
  index: number; // the element being read (arrays)
}

const MAX_TEXT = 10_000_000;

/**
 * The complete part of a JSON object or array text cut at any point.
 *
 * @param text The text, starting with `{` or `[` (leading white space allowed).
 * @returns The value and open path, or `undefined` when the text does not
 * start like a JSON container or breaks JSON syntax before the cut.
 *
 * @example Usage
 * ```ts
 * import { completePrefix } from "./json_prefix.ts";
 * import assert from "node:assert/strict";
 *
 * const cut = completePrefix('{"method":"tools/call","params":{"name":"write","arguments":{"content":"abc');
 * assert.deepEqual(cut?.value, { method: "tools/call", params: { name: "write", arguments: {} } });
 * assert.deepEqual(cut?.openPath, ["params", "arguments"]);
 * assert.equal(cut?.cut, true);
 * ```
 */
export function completePrefix(text: string): JsonPrefix | undefined {
  const stack: Frame[] = [];
  let i = 0;
  const n = Math.min(text.length, MAX_TEXT);
  while (i < n && /\s/.test(text[i] as string)) i++;
  if (text[i] !== "{" && text[i] !== "[") return undefined;
  // The last offset where everything before it is whole. Every container
  // opened or closed marks one, so the containers open there are the ones
  // still open at the end (read once, after the scan: no work per mark).
  let safeAt = i;
  let expectKey = false;
  const mark = (at: number) => {
    safeAt = at;
  };
  const scanString = (from: number): number => { // index after the closing quote, or -1
    for (let j = from + 1; j < n; j++) {
      const ch = text[j];
      if (ch === "\\") j++;
      else if (ch === '"') return j + 1;
    }
    return -1;
  };
  const valueDone = (end: number) => {
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    mark(end);
    if (top.kind === "[") top.index++;
  };
  while (i < n) {
    const ch = text[i] as string;
    if (/\s/.test(ch) || ch === ":") {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (ch === ",") {
      if (top?.kind === "{") expectKey = true;
      i++;
      continue;
    }
    if (ch === "}" || ch === "]") {
      if (top === undefined || (ch === "}") !== (top.kind === "{")) return undefined;
      stack.pop();
      i++;
      if (stack.length === 0) {
        safeAt = i;
        break;
      }
      valueDone(i);
      continue;
    }
    if (top?.kind === "{" && expectKey) {
      if (ch !== '"') return undefined;
      const end = scanString(i);
      if (end === -1) break;
      top.key = JSON.parse(text.slice(i, end)) as string;
      expectKey = false;
      i = end;
      continue;
    }
    if (ch === "{" || ch === "[") {
      stack.push({ kind: ch, index: 0 });
      expectKey = ch === "{";
      i++;
      mark(i);
      continue;
    }
    if (ch === '"') {
      const end = scanString(i);
      if (end === -1) break;
      i = end;
      valueDone(i);
      continue;
    }
    const scalar = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?=[\s,}\]])/.exec(
      text.slice(i, i + 400),
    );
    if (scalar === null) {
      if (/^[-\d.eE+tfrualsn]*$/.test(text.slice(i, n))) break; // cut inside a scalar
      return undefined;
    }
    i += scalar[0].length;
    valueDone(i);
  }
  const closers = stack.map((f) => (f.kind === "{" ? "}" : "]")).reverse().join("");
  const openPath = stack.slice(0, -1).map((f) => (f.kind === "{" ? f.key ?? "" : f.index));
  try {
    return {
      value: parseJsonLossless(text.slice(0, safeAt) + closers),
      cut: stack.length > 0,
      openPath,
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a member of a cut object is whole: present, and not on the open
 * path.
 *
 * @param prefix A cut text's complete part.
 * @param path The member's keys, outermost first.
 * @returns `true` when the member ended before the cut.
 *
 * @example Usage
 * ```ts
 * import { completePrefix, memberWhole } from "./json_prefix.ts";
 * import assert from "node:assert/strict";
 *
 * const cut = completePrefix('{"params":{"name":"a","arguments":{"x":1},"_meta":{"k":"v');
 * assert.equal(cut !== undefined && memberWhole(cut, ["params", "arguments"]), true);
 * assert.equal(cut !== undefined && memberWhole(cut, ["params", "_meta"]), false);
 * ```
 */
export function memberWhole(prefix: JsonPrefix, path: string[]): boolean {
  let value: unknown = prefix.value;
  for (const key of path) {
    if (!isJsonObject(value) || !(key in value)) return false;
    value = value[key];
  }
  return !path.every((key, i) => prefix.openPath[i] === key);
}
