/**
 * A prompting model's Java call (`[Foo.bar(a="x", n=5)]`), decoded as BFCL's
 * `parse_java_function_call` does (`bfcl_eval/model_handler/parser/
 * java_parser.py`, tree-sitter there, `@lezer/java` here). Private to the
 * `bfcl` reader.
 *
 * What BFCL's decoder does, and this one with it:
 *
 * - The first and last characters are cut (`input_str[1:-1]`, the `[…]` the
 *   caller added or the model wrote), the rest parsed as Java statements; a
 *   syntax error fails the decoding.
 * - The first method invocation (in source order, outermost first) is the
 *   one call; its name is `object.method` as written. No invocation: the
 *   output is not in call format.
 * - Only `name=value` arguments are named; a bare identifier argument is
 *   kept under the key `null` (BFCL's `None`, as `json.dumps` writes it);
 *   other positional arguments are dropped. A repeated name fails.
 * - Every value is text, as BFCL's Java checker expects: a string or char
 *   literal without its quotes (escapes as written), an identifier or a
 *   nested invocation as written, `new T[]{…}` and `new T(…)` rebuilt as
 *   BFCL rebuilds them, anything else its tokens joined without spaces
 *   (`-5`, `1.5f`, `true`, `null`, `{1,2}`). `new T[n]` (no initializer)
 *   fails, as it does in BFCL.
 *
 * lezer's Java grammar differs from tree-sitter's in a few corners: it
 * rejects class literals (`String.class`), character literals of more than
 * one character (handed to it as strings here: tree-sitter reads them) and
 * statements at the top level (the text is parsed inside a method body
 * here), and its error recovery is not tree-sitter's: any syntax error is a
 * decode error (tree-sitter may insert a missing token without an `ERROR`).
 *
 * @module
 */

import type { SyntaxNode } from "@lezer/common";
import { BfclDecodeError } from "./bfcl_python_literals.ts";
import { checkNesting, children, MAX_DEPTH, parseStrict } from "./bfcl_syntax.ts";
import type { BfclCall } from "./bfcl_python.ts";

const PREFIX = "class BfclCall { void call() {\n";
const SUFFIX = "\n;}}";
const QUOTED = new Set(["StringLiteral", "CharacterLiteral", "TextBlock"]);
const VERBATIM = new Set(["Identifier", "TypeName", "MethodInvocation"]);

class JavaDecoder {
  constructor(readonly source: string) {}

  text(node: SyntaxNode): string {
    return this.source.slice(node.from, node.to);
  }

  // BFCL's traverse_node.
  value(node: SyntaxNode, nested: boolean, depth: number): string {
    if (depth > MAX_DEPTH) throw new BfclDecodeError(`nested deeper than ${MAX_DEPTH} levels`);
    const text = this.text(node);
    if (QUOTED.has(node.name)) return nested ? text : text.slice(1, -1);
    if (VERBATIM.has(node.name)) return text;
    const kids = children(node);
    if (node.name === "ArrayCreationExpression") {
      const type = kids.find((k) => k.name !== "new" && k.name !== "Dimension");
      const init = kids.find((k) => k.name === "ArrayInitializer");
      if (type === undefined || init === undefined) {
        throw new BfclDecodeError(`an array creation without an initializer: ${text.slice(0, 60)}`);
      }
      return `new ${this.value(type, true, depth + 1)}[]${this.value(init, true, depth + 1)}`;
    }
    if (node.name === "ObjectCreationExpression" && kids.some((k) => k.name === "new")) {
      const type = kids.find((k) => k.name !== "new" && k.name !== "ArgumentList")!;
      const args = kids.find((k) => k.name === "ArgumentList");
      const items = args === undefined
        ? []
        : children(args).filter((k) => ![",", "(", ")"].includes(k.name));
      return `new ${this.value(type, true, depth + 1)}(${
        items.map((k) => this.value(k, true, depth + 1)).join(", ")
      })`;
    }
    if (kids.length === 0) return text;
    // The tokens joined without the spaces between them.
    let out = "";
    let at = node.from;
    for (const kid of kids) {
      out += this.source.slice(at, kid.from).replace(/\s+/g, "");
      out += this.value(kid, true, depth + 1);
      at = kid.to;
    }
    return out + this.source.slice(at, node.to).replace(/\s+/g, "");
  }

  name(node: SyntaxNode): string {
    const kids = children(node);
    const method = kids.findIndex((k) => k.name === "MethodName");
    const methodName = this.text(kids[method]!);
    const object = kids.slice(0, method).filter((k) => k.name !== ".");
    if (object.length === 0) return methodName;
    const text = this.source.slice(object[0]!.from, object.at(-1)!.to);
    return `${text}.${methodName}`;
  }

  args(node: SyntaxNode): Record<string, unknown> {
    const list = children(node).find((k) => k.name === "ArgumentList");
    const args: Record<string, unknown> = {};
    const put = (key: string, value: string) => {
      if (Object.hasOwn(args, key)) {
        throw new BfclDecodeError("Multiple arguments with the same name are not supported");
      }
      args[key] = value;
    };
    for (const arg of list === undefined ? [] : children(list)) {
      if (arg.name === "AssignmentExpression") {
        const kids = children(arg);
        if (kids.length < 3 || this.text(kids[1]!) !== "=") continue;
        put(this.text(kids[0]!), this.value(kids[2]!, false, 0));
      } else if (arg.name === "Identifier") put("null", this.text(arg));
    }
    return args;
  }
}

/**
 * tree-sitter-java reads `'…'` of any length as a character literal
 * (`repeat1` in its grammar), so BFCL decodes `monitor='dbMonitor'` as
 * `dbMonitor`; lezer's Java grammar takes one character only. Such a literal
 * is handed to lezer as a string literal of the same length (quotes swapped,
 * an inner unescaped `"` made `'`); values are read from the original text.
 * The same goes for the words of module declarations (`to`, `with`,
 * `requires`, …): keywords to lezer, but plain names to tree-sitter outside a
 * module declaration (`to(x=1)` is a call BFCL decodes); each is handed to
 * lezer as a name of the same length (`_o`).
 */
function charLiteralsAsStrings(code: string): string {
  let out = "";
  let i = 0;
  while (i < code.length) {
    const ch = code[i]!;
    if (ch === '"' || (ch === "/" && (code[i + 1] === "/" || code[i + 1] === "*"))) {
      const end = ch === '"'
        ? skipString(code, i)
        : code[i + 1] === "/"
        ? lineEnd(code, i)
        : blockEnd(code, i);
      out += code.slice(i, end);
      i = end;
      continue;
    }
    if (WORD_CHAR.test(ch)) {
      let j = i + 1;
      while (j < code.length && WORD_CHAR.test(code[j]!)) j++;
      const word = code.slice(i, j);
      out += MODULE_WORDS.has(word) ? `_${word.slice(1)}` : word;
      i = j;
      continue;
    }
    if (ch !== "'") {
      out += ch;
      i++;
      continue;
    }
    let j = i + 1;
    let body = "";
    while (j < code.length && code[j] !== "'" && code[j] !== "\n") {
      if (code[j] === "\\" && j + 1 < code.length) {
        body += code.slice(j, j + 2);
        j += 2;
      } else {
        body += code[j] === '"' ? "'" : code[j];
        j++;
      }
    }
    if (code[j] !== "'" || body.length === 0) { // not a literal tree-sitter reads: as written
      out += code.slice(i, j);
      i = j;
      continue;
    }
    out += `"${body}"`;
    i = j + 1;
  }
  return out;
}

// Words lezer's Java grammar reserves that tree-sitter-java reads as names in expressions.
const MODULE_WORDS = new Set([
  "exports",
  "opens",
  "provides",
  "requires",
  "to",
  "transitive",
  "uses",
  "with",
]);
const WORD_CHAR = /[A-Za-z0-9_$]/;

function skipString(code: string, start: number): number {
  let j = start + 1;
  while (j < code.length && code[j] !== '"' && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
  return Math.min(code.length, j + 1);
}

function lineEnd(code: string, start: number): number {
  const end = code.indexOf("\n", start);
  return end === -1 ? code.length : end;
}

function blockEnd(code: string, start: number): number {
  const end = code.indexOf("*/", start + 2);
  return end === -1 ? code.length : end + 2;
}

/**
 * Decode a Java call as BFCL's `parse_java_function_call` does.
 *
 * @param input The model's text, already wrapped in `[…]`.
 * @returns The call (one at most), or `undefined` when the text holds no
 * invocation (BFCL returns `{}`: not call format).
 * @throws {BfclDecodeError} When BFCL's decoder would fail on it.
 *
 * @example Usage
 * ```ts
 * import "../base/_heavy.ts";
 * import { decodeJavaCalls } from "./bfcl_java.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(decodeJavaCalls('[Geo.create(controller="map", size=5, items=new int[]{1, 2})]'), [
 *   { name: "Geo.create", args: { controller: "map", size: "5", items: "new int[]{1,2}" } },
 * ]);
 * assert.equal(decodeJavaCalls("[x = 1]"), undefined);
 * ```
 */
export function decodeJavaCalls(input: string): BfclCall[] | undefined {
  const code = input.slice(1, -1);
  checkNesting(code);
  const source = PREFIX + code + SUFFIX;
  const parsed = PREFIX + charLiteralsAsStrings(code) + SUFFIX;
  const tree = parseStrict("java", parsed, "Error parsing java the source code", PREFIX.length);
  let found: SyntaxNode | undefined;
  tree.iterate({
    from: PREFIX.length,
    enter(node) {
      if (found !== undefined) return false;
      if (node.name === "MethodInvocation") {
        found = node.node;
        return false;
      }
    },
  });
  if (found === undefined) return undefined;
  const decoder = new JavaDecoder(source);
  return [{ name: decoder.name(found), args: decoder.args(found) }];
}
