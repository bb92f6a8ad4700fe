/**
 * A prompting model's JavaScript call (`[fn(a="x", n=5)]`), decoded as
 * BFCL's `parse_javascript_function_call` does (`bfcl_eval/model_handler/
 * parser/js_parser.py`, tree-sitter there, `@lezer/javascript` here).
 * Private to the `bfcl` reader.
 *
 * What BFCL's decoder does, and this one with it:
 *
 * - The first and last characters are cut (`input_str[1:-1]`), the rest
 *   parsed as a script; a syntax error fails the decoding.
 * - The first top-level expression statement that is a call is the one
 *   call (its callee as written); none: the output is not in call format
 *   (so `[f(a=1), g(b=2)]`, a sequence, is not a call for BFCL either).
 * - Only `name=value` arguments are named; a bare identifier or `true`
 *   argument is kept under the key `null` (BFCL's `None`, as `json.dumps`
 *   writes it); other positional arguments are dropped. A repeated name
 *   fails (two positional ones too).
 * - Every value is its source text, as BFCL's JavaScript checker expects,
 *   with one pair of enclosing `"…"` or `'…'` quotes cut (escapes as
 *   written): `5`, `true`, `[1, 2]`, `{k: 1}` stay as written.
 *
 * @module
 */

import type { SyntaxNode } from "@lezer/common";
import { BfclDecodeError } from "./bfcl_python_literals.ts";
import { checkNesting, children, parseStrict } from "./bfcl_syntax.ts";
import type { BfclCall } from "./bfcl_python.ts";

function unquoted(value: string): string {
  const quoted = (value.startsWith('"') && value.endsWith('"')) ||
    (value.startsWith("'") && value.endsWith("'"));
  return quoted ? value.slice(1, -1) : value;
}

function args(list: SyntaxNode, source: string): Record<string, unknown> {
  const text = (node: SyntaxNode) => source.slice(node.from, node.to);
  const out: Record<string, unknown> = {};
  const put = (key: string, value: string) => {
    if (Object.hasOwn(out, key)) {
      throw new BfclDecodeError("Multiple arguments with the same name are not supported");
    }
    out[key] = value;
  };
  for (const arg of children(list)) {
    if (arg.name === "AssignmentExpression") {
      const kids = children(arg);
      if (kids.length < 3 || kids[1]!.name !== "Equals") continue;
      put(text(kids[0]!), unquoted(text(kids[2]!)));
    } else if (
      // tree-sitter's identifier and true; its `undefined` is a node of its own, not an identifier.
      (arg.name === "VariableName" && text(arg) !== "undefined") ||
      (arg.name === "BooleanLiteral" && text(arg) === "true")
    ) put("null", text(arg));
  }
  return out;
}

/**
 * Decode a JavaScript call as BFCL's `parse_javascript_function_call` does.
 *
 * @param input The model's text, already wrapped in `[…]`.
 * @returns The call (one at most), or `undefined` when no top-level
 * statement is a call (BFCL returns `None`: not call format).
 * @throws {BfclDecodeError} When BFCL's decoder would fail on it.
 *
 * @example Usage
 * ```ts
 * import "../base/_heavy.ts";
 * import { decodeJavascriptCalls } from "./bfcl_javascript.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(decodeJavascriptCalls("[validate(field='user', done=true, list=[1, 2])]"), [
 *   { name: "validate", args: { field: "user", done: "true", list: "[1, 2]" } },
 * ]);
 * assert.equal(decodeJavascriptCalls("[f(a=1), g(b=2)]"), undefined);
 * ```
 */
export function decodeJavascriptCalls(input: string): BfclCall[] | undefined {
  const source = input.slice(1, -1);
  checkNesting(source);
  const tree = parseStrict("javascript", source, "Error js parsing the source code");
  for (const statement of children(tree.topNode)) {
    if (statement.name !== "ExpressionStatement") continue;
    for (const call of children(statement)) {
      if (call.name !== "CallExpression") continue;
      const [callee, list] = children(call);
      if (list?.name !== "ArgList") continue;
      const name = source.slice(callee!.from, callee!.to);
      return [{ name, args: args(list, source) }];
    }
  }
  return undefined;
}
