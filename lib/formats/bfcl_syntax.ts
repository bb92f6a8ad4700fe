/**
 * What the BFCL call-string decoders share (private to the `bfcl` reader):
 * the children of a lezer node, the first syntax error of a tree, and the
 * nesting bound. Values may nest at most {@linkcode MAX_DEPTH} levels, as
 * CPython's parser allows 200 nested brackets: a deeper text is a decode
 * error found by a scan before lezer sees it (lezer takes seconds on
 * hundreds of thousands of nested brackets).
 *
 * @module
 */

import type { SyntaxNode, Tree } from "@lezer/common";
import { type HeavyModules, lezerParsers } from "../base/_lazy.ts";
import { BfclDecodeError } from "./bfcl_python_literals.ts";

type Parsers = HeavyModules["lezer"];
let strictParsers: Parsers | undefined;

/**
 * Parse a text with lezer in strict mode: the first syntax error throws
 * instead of starting lezer's error recovery, which takes seconds on
 * hostile text (`(]` repeated) where a strict parse stops at once. The
 * decoders want only "parses or not", as tree-sitter's `ERROR` check gives
 * BFCL.
 *
 * @param language Which parser.
 * @param text The text.
 * @param what The start of the error message (BFCL's own wording).
 * @param offset Characters the text has before the model's own text.
 * @returns The tree (without error nodes).
 * @throws {BfclDecodeError} On a syntax error, naming its column.
 *
 * @example Usage
 * ```ts
 * import "../base/_heavy.ts";
 * import { parseStrict } from "./bfcl_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseStrict("python", "[f(a=1)]", "SyntaxError").topNode.name, "Script");
 * assert.throws(() => parseStrict("python", "[f(a=1) g]", "SyntaxError: invalid syntax"), /at column 9/);
 * ```
 */
export function parseStrict(
  language: keyof Parsers,
  text: string,
  what: string,
  offset = 0,
): Tree {
  if (strictParsers === undefined) {
    const loose = lezerParsers();
    strictParsers = {
      python: loose.python.configure({ strict: true }),
      java: loose.java.configure({ strict: true }),
      javascript: loose.javascript.configure({ strict: true }),
    };
  }
  let tree: Tree;
  try {
    tree = strictParsers[language].parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const at = /No parse at (\d+)/.exec(error.message);
    const column = at === null ? 1 : Math.max(1, Number(at[1]) - offset + 1);
    throw new BfclDecodeError(`${what} at column ${column}`);
  }
  const column = errorColumn(tree, offset);
  if (column !== undefined) throw new BfclDecodeError(`${what} at column ${column}`);
  return tree;
}

/** How deep values may nest before the decoder stops (the input controls it). */
export const MAX_DEPTH = 200;

const PUNCTUATION = new Set(["(", ")", "[", "]", "{", "}", ",", ":", "Comment"]);

/** The children of a node that carry meaning (no punctuation or comments). */
export function parts(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (!PUNCTUATION.has(child.name)) out.push(child);
  }
  return out;
}

/** Every child of a node, punctuation and comments too. */
export function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) out.push(child);
  return out;
}

/**
 * The first syntax error in a lezer tree, as a 1-based column, or `undefined`.
 *
 * @param tree The tree.
 * @param offset Characters the parsed text has before the model's own text.
 * @returns The column, or `undefined` when the tree has no error.
 */
export function errorColumn(tree: Tree, offset = 0): number | undefined {
  let at: number | undefined;
  tree.iterate({
    enter(node) {
      if (at !== undefined) return false;
      if (node.type.isError) at = Math.max(1, node.from - offset + 1);
    },
  });
  return at;
}

/**
 * Refuse a text whose brackets nest deeper than {@linkcode MAX_DEPTH}
 * (outside quoted strings, read roughly: `'`, `"` and backquotes with
 * backslash escapes).
 *
 * @param text The call string.
 * @throws {BfclDecodeError} When it nests too deep.
 *
 * @example Usage
 * ```ts
 * import { checkNesting } from "./bfcl_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * checkNesting("[f(a=[[1]], b='((((')]");
 * assert.throws(() => checkNesting("[".repeat(201)), /nested deeper than 200 levels/);
 * ```
 */
export function checkNesting(text: string): void {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== "") {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") {
      if (++depth > MAX_DEPTH) {
        throw new BfclDecodeError(`nested deeper than ${MAX_DEPTH} levels (column ${i + 1})`);
      }
    } else if (ch === ")" || ch === "]" || ch === "}") depth--;
  }
}

/**
 * Python's `str.strip(chars)`: the text without the given characters at
 * either end (a loop, not a regular expression: `/x+$/` backtracks over
 * every run of `x` inside the text).
 *
 * @param text The text.
 * @param chars The characters to strip.
 * @returns The stripped text.
 *
 * @example Usage
 * ```ts
 * import { stripChars } from "./bfcl_syntax.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stripChars("``\n[f()]\n``", "`\n "), "[f()]");
 * ```
 */
export function stripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}
