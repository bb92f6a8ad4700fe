/**
 * A prompting model's Python call list (`[f(a=1, b="x"), g.h(c=[1, 2])]`),
 * decoded as BFCL's `ast_parse` and `resolve_ast_by_type` do
 * (`bfcl_eval/model_handler/utils.py`), with the `@lezer/python` parser:
 * never `eval`. Private to the `bfcl` reader.
 *
 * What BFCL's decoder does, and this one with it:
 *
 * - The text (already wrapped in `[…]` by the caller, as
 *   `default_decode_ast_prompting` does) is stripped of whitespace and `'`
 *   at both ends and parsed as one expression: a call, or a list, tuple or
 *   set whose every element is a call. Anything else fails.
 * - Only keyword arguments are kept; positional ones are dropped (BFCL's
 *   `resolve_ast_call` reads `keywords` only). The function name is the
 *   dotted attribute path (`math.factorial`).
 * - Values: constants as Python reads them (`5.0` stays a float; `...` is
 *   the text `"..."`); a bare name is its text (`unit=celsius` →
 *   `"celsius"`); lists, dicts and tuples (as lists) item by item; a nested
 *   call with keywords is `{name: {args}}`, one without keywords the text
 *   `ast.unparse` writes (`foo(1, 'x')`); a subscript is the text BFCL
 *   joins (`a[1]`, `a[1:2]`, `a[(1, 2)]`).
 *
 * Checked against CPython running BFCL's decoding: 2,951 real call strings
 * (the fixtures' source files) and 10,000 generated ones (constants, every
 * operator, names, calls, subscripts, lambdas, sets, comprehensions, bad
 * syntax, each wrapped as models write them) decode to the same calls, and
 * fail where BFCL's fails; 3,000 of them are kept as vectors
 * (`testdata/bfcl_decoder/`) that a test holds this decoder to.
 * - A unary operator on a number is BFCL's `-operand.value`: the operand
 *   negated whatever the operator (BFCL reads `+5` and `~5` as `-5`), and
 *   only on a constant (`-x`, `--5` fail).
 * - A binary operation is evaluated (BFCL calls `eval`): folded here when
 *   both sides are constants (`bfcl_fold.ts`); any other operand (a name, a
 *   call) and `%`-formatting of a string are decode errors here, though
 *   BFCL's `eval` could compute some (`len("ab") + 1`, `'%s' % 1`).
 * - Attribute values (`math.pi`), comparisons, `and`/`or`, conditional
 *   expressions, lambdas, sets, comprehensions, f-strings, starred items and
 *   `**` unpacking fail to decode, as BFCL's "Unsupported AST type" does.
 *
 * A value BFCL decodes that JSON cannot hold (bytes, complex numbers, inf)
 * or text `ast.unparse` would write that this reader cannot reproduce keeps
 * the call, marked unsupported (the caller records it as unreadable
 * arguments): BFCL would count the call, so the output is not "no call".
 *
 * @module
 */

import type { SyntaxNode, Tree } from "@lezer/common";
import {
  checkNesting,
  children,
  MAX_DEPTH,
  parseStrict,
  parts,
  stripChars,
} from "./bfcl_syntax.ts";
import {
  BfclDecodeError,
  BfclUnsupportedValue,
  pyRepr,
  pythonNumber,
  pythonString,
  type PyValue,
  toJsonValue,
} from "./bfcl_python_literals.ts";
import { foldBinary, foldUnary } from "./bfcl_fold.ts";

export { BfclDecodeError };

/** One decoded call: its arguments, or why they cannot be held (the call is kept). */
export interface BfclCall {
  /** The function name as BFCL reads it (`math.factorial`). */
  name: string;
  /** The arguments as JSON values (kept literals for whole floats and big ints). */
  args?: Record<string, unknown>;
  /** Why the arguments cannot be held (an unsupported value BFCL would decode). */
  unsupported?: string;
  /** The call's source text, with `unsupported`. */
  text?: string;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

class PythonDecoder {
  constructor(readonly source: string) {}

  text(node: SyntaxNode): string {
    return this.source.slice(node.from, node.to);
  }

  unsupported(node: SyntaxNode, what = node.name): never {
    throw new BfclDecodeError(`unsupported expression: ${what} ${clip(this.text(node))}`);
  }

  deeper(depth: number): number {
    if (depth >= MAX_DEPTH) throw new BfclDecodeError(`nested deeper than ${MAX_DEPTH} levels`);
    return depth + 1;
  }

  unwrap(node: SyntaxNode): SyntaxNode {
    let inner = node;
    while (inner.name === "ParenthesizedExpression") {
      const body = parts(inner);
      if (body.length !== 1) this.unsupported(inner);
      inner = body[0]!;
    }
    return inner;
  }

  /** A string literal, or adjacent ones (`"a" "b"`). */
  string(node: SyntaxNode): PyValue {
    if (node.name === "String") return pythonString(this.text(node));
    const pieces = parts(node).map((piece) =>
      piece.name === "String" ? pythonString(this.text(piece)) : this.unsupported(piece)
    );
    if (pieces.some((piece) => piece.kind === "bytes")) {
      if (pieces.every((piece) => piece.kind === "bytes")) {
        return { kind: "bytes", text: this.text(node) };
      }
      throw new BfclDecodeError("SyntaxError: cannot mix bytes and nonbytes literals");
    }
    return { kind: "str", value: pieces.map((p) => (p as { value: string }).value).join("") };
  }

  /** A constant's value, or `undefined` when the node is not a constant. */
  constant(node: SyntaxNode): PyValue | undefined {
    switch (node.name) {
      case "Number":
        return pythonNumber(this.text(node));
      case "String":
      case "ContinuedString":
        return this.string(node);
      case "Boolean":
        return { kind: "bool", value: this.text(node) === "True" };
      case "None":
        return { kind: "none" };
      case "FormatString":
        return this.unsupported(node, "f-string");
    }
    return undefined;
  }

  items(node: SyntaxNode, depth: number, each: (n: SyntaxNode, d: number) => PyValue): PyValue[] {
    return parts(node).map((item) => each(item, depth));
  }

  entries(
    node: SyntaxNode,
    depth: number,
    each: (n: SyntaxNode, d: number) => PyValue,
  ): [PyValue, PyValue][] {
    const inner = parts(node);
    if (inner.some((n) => n.name === "**" || n.name === "for")) this.unsupported(node);
    if (inner.length % 2 !== 0) this.unsupported(node);
    const out: [PyValue, PyValue][] = [];
    for (let i = 0; i < inner.length; i += 2) {
      out.push([each(inner[i]!, depth), each(inner[i + 1]!, depth)]);
    }
    return out;
  }

  /** BFCL's `resolve_ast_by_type`. */
  resolve(raw: SyntaxNode, level: number): PyValue {
    const depth = this.deeper(level);
    const node = this.unwrap(raw);
    const constant = this.constant(node);
    if (constant !== undefined) return constant;
    const resolve = (n: SyntaxNode, d: number) => this.resolve(n, d);
    switch (node.name) {
      case "Ellipsis":
        return { kind: "str", value: "..." };
      case "VariableName":
        return { kind: "str", value: this.text(node) };
      case "UnaryExpression": {
        // BFCL: `-value.operand.value`, whatever the operator.
        const operand = this.unwrap(parts(node)[1] ?? node);
        const value = operand.name === "Number" || operand.name === "Boolean"
          ? this.constant(operand)!
          : this.unsupported(node, "unary operator on a non-constant");
        return foldUnary("-", value);
      }
      case "BinaryExpression":
        return this.evaluate(node, depth);
      case "ArrayExpression":
        return { kind: "list", items: this.items(node, depth, resolve) };
      case "TupleExpression":
        return { kind: "tuple", items: this.items(node, depth, resolve) };
      case "DictionaryExpression":
        return { kind: "dict", entries: this.entries(node, depth, resolve) };
      case "CallExpression": {
        const call = this.call(node, depth);
        if (call.args.length > 0) return { kind: "call", name: call.name, args: call.args };
        return { kind: "str", value: this.unparse(node, depth) };
      }
      case "MemberExpression":
        if (children(node).some((c) => c.name === "[")) {
          return { kind: "str", value: this.subscript(node, depth, true) };
        }
        return this.unsupported(node, "attribute");
    }
    return this.unsupported(node);
  }

  /** A binary operation, computed as Python's `eval` would (constants only). */
  evaluate(raw: SyntaxNode, level: number): PyValue {
    const depth = this.deeper(level);
    const node = this.unwrap(raw);
    const constant = this.constant(node);
    if (constant !== undefined) return constant;
    const evaluate = (n: SyntaxNode, d: number) => this.evaluate(n, d);
    switch (node.name) {
      case "UnaryExpression": {
        const [op, operand] = children(node);
        return foldUnary(this.text(op!), this.evaluate(operand!, depth));
      }
      case "BinaryExpression": {
        const [left, op, right] = children(node);
        const name = op!.name;
        if (name !== "ArithOp" && name !== "BitOp") this.unsupported(node, "comparison or boolean");
        return foldBinary(
          this.text(op!),
          this.evaluate(left!, depth),
          this.evaluate(right!, depth),
        );
      }
      case "ArrayExpression":
        return { kind: "list", items: this.items(node, depth, evaluate) };
      case "TupleExpression":
        return { kind: "tuple", items: this.items(node, depth, evaluate) };
      case "DictionaryExpression":
        return { kind: "dict", entries: this.entries(node, depth, evaluate) };
    }
    return this.unsupported(node, "non-constant operand in arithmetic");
  }

  /** The text `ast.unparse` writes, for the shapes this reader reproduces. */
  unparse(raw: SyntaxNode, level: number): string {
    const depth = this.deeper(level);
    const node = this.unwrap(raw);
    const constant = this.constant(node);
    if (constant !== undefined) {
      if (constant.kind === "bytes" || constant.kind === "complex") this.unwritable(node);
      return pyRepr(constant);
    }
    const each = (n: SyntaxNode) => this.unparse(n, depth);
    switch (node.name) {
      case "VariableName":
        return this.text(node);
      case "Ellipsis":
        return "...";
      case "ArrayExpression":
        return `[${parts(node).map(each).join(", ")}]`;
      case "TupleExpression": {
        const items = parts(node).map(each);
        return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
      }
      case "DictionaryExpression": {
        const inner = parts(node);
        if (inner.length % 2 !== 0 || inner.some((n) => n.name === "**" || n.name === "for")) {
          this.unwritable(node);
        }
        const pairs: string[] = [];
        for (let i = 0; i < inner.length; i += 2) {
          pairs.push(`${each(inner[i]!)}: ${each(inner[i + 1]!)}`);
        }
        return `{${pairs.join(", ")}}`;
      }
      case "UnaryExpression": {
        const [op, operand] = children(node);
        const inner = this.unwrap(operand!);
        if (!["Number", "VariableName"].includes(inner.name)) this.unwritable(node);
        const sign = this.text(op!);
        return sign === "not" ? `not ${each(inner)}` : `${sign}${each(inner)}`;
      }
      case "MemberExpression": {
        const [object, ...rest] = children(node);
        if (rest[0]?.name === ".") return `${each(object!)}.${this.text(rest[1]!)}`;
        return this.subscript(node, depth, false);
      }
      case "CallExpression": {
        const [callee, argList] = children(node);
        const args: string[] = [];
        for (const item of this.argItems(argList!)) {
          if (item.keyword === undefined && item.nodes.length === 1) {
            args.push(`${item.star ?? ""}${each(item.nodes[0]!)}`);
          } else if (item.keyword !== undefined) {
            args.push(`${item.keyword}=${each(item.nodes[item.nodes.length - 1]!)}`);
          } else this.unwritable(node);
        }
        return `${each(callee!)}(${args.join(", ")})`;
      }
    }
    return this.unwritable(node);
  }

  /**
   * A subscript's text: `a[1]`, `a[1:2]`, `a[::2]`. `standalone` is BFCL's
   * own `unparse(value) + "[" + unparse(slice) + "]"`, where a tuple index
   * is written with its parentheses (`a[(1, 2)]`); inside `ast.unparse` it is not.
   */
  subscript(node: SyntaxNode, level: number, standalone: boolean): string {
    const depth = this.deeper(level);
    const kids = children(node);
    const open = kids.findIndex((k) => k.name === "[");
    if (open !== 1 || kids.at(-1)?.name !== "]") this.unwritable(node);
    const segments: string[][] = [[]];
    let piece = "";
    for (const kid of kids.slice(open + 1, -1)) {
      if (kid.name === "Comment") continue;
      if (kid.name === ",") {
        segments.at(-1)!.push(piece);
        segments.push([]);
        piece = "";
      } else if (kid.name === ":") {
        segments.at(-1)!.push(piece);
        piece = "";
      } else piece = this.unparse(kid, depth);
    }
    segments.at(-1)!.push(piece);
    const items = segments.map((segment) => {
      if (segment.length === 3 && segment[2] === "") segment.pop(); // `a[1:2:]` is `1:2`
      return segment.join(":");
    });
    const trailing = items.length > 1 && items.at(-1) === "";
    if (trailing) items.pop();
    const index = items.length === 1 && !trailing
      ? items[0]!
      : standalone
      ? (items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`)
      : (items.length === 1 ? `${items[0]},` : items.join(", "));
    if (index === "" && items.length === 1) this.unwritable(node);
    return `${this.unparse(kids[0]!, depth)}[${index}]`;
  }

  unwritable(node: SyntaxNode): never {
    throw new BfclUnsupportedValue(
      `the text BFCL writes back for ${clip(this.text(node))} (ast.unparse)`,
    );
  }

  /** The items of an argument list: a keyword's name, or none for a positional one. */
  argItems(argList: SyntaxNode): { keyword?: string; nodes: SyntaxNode[]; star?: string }[] {
    const items: { keyword?: string; nodes: SyntaxNode[]; star?: string }[] = [];
    let current: SyntaxNode[] = [];
    const flush = () => {
      if (current.length === 0) return;
      const [first, second] = current;
      if (first!.name === "*" || first!.name === "**") {
        items.push({ nodes: current.slice(1), star: first!.name });
      } else if (
        current.length === 3 && first!.name === "VariableName" && second!.name === "AssignOp" &&
        this.text(second!) === "="
      ) items.push({ keyword: this.text(first!), nodes: current.slice(2) });
      else items.push({ nodes: current });
      current = [];
    };
    for (const child of children(argList)) {
      if (child.name === "(" || child.name === ")" || child.name === "Comment") continue;
      if (child.name === ",") flush();
      else current.push(child);
    }
    flush();
    return items;
  }

  /** The dotted name of a call (attributes up to a name, as `resolve_ast_call` walks them). */
  callName(node: SyntaxNode): string {
    const names: string[] = [];
    let part = this.unwrap(node.firstChild!);
    while (part.name === "MemberExpression" && children(part)[1]?.name === ".") {
      names.push(this.text(children(part)[2]!));
      part = this.unwrap(children(part)[0]!);
    }
    if (part.name === "VariableName") names.push(this.text(part));
    return names.reverse().join(".");
  }

  /** BFCL's `resolve_ast_call`: the dotted name and the keyword arguments. */
  call(node: SyntaxNode, depth: number): { name: string; args: [string, PyValue][] } {
    const argList = node.lastChild!;
    let unpacked = false;
    // Later keywords win, in the first one's place, as in BFCL's args dict (ast.parse allows
    // repeats); `**x` is BFCL's `None` key, written `null` as json.dumps does.
    const args = new Map<string, PyValue>();
    let keywords = false;
    for (const item of this.argItems(argList)) {
      if (item.keyword === undefined && item.star !== "**") {
        if (keywords && item.star === undefined) {
          throw new BfclDecodeError(
            `SyntaxError: positional argument follows keyword ${
              unpacked ? "argument unpacking" : "argument"
            }`,
          );
        }
        continue; // BFCL reads keywords only
      }
      keywords = true;
      if (item.star === "**") unpacked = true;
      args.set(item.keyword ?? "null", this.resolve(item.nodes[0]!, depth));
    }
    return { name: this.callName(node), args: Array.from(args) };
  }
}

function topExpression(tree: Tree, text: string): SyntaxNode {
  const statements = parts(tree.topNode);
  const inner = statements.length === 1 && statements[0]!.name === "ExpressionStatement"
    ? parts(statements[0]!)
    : [];
  if (inner.length !== 1 || /;\s*$/.test(text)) {
    throw new BfclDecodeError("SyntaxError: not one Python expression");
  }
  return inner[0]!;
}

/**
 * Decode a Python call list as BFCL's `ast_parse` does.
 *
 * @param input The model's text, already wrapped in `[…]`.
 * @returns The calls.
 * @throws {BfclDecodeError} When BFCL's decoder would fail on it.
 *
 * @example Usage
 * ```ts
 * import "../base/_heavy.ts";
 * import { decodePythonCalls } from "./bfcl_python.ts";
 * import assert from "node:assert/strict";
 *
 * const calls = decodePythonCalls("[math.hypot(x=4, y=-5.0, unit=cm), g(1, k=[1, 2])]");
 * assert.equal(JSON.stringify(calls), '[{"name":"math.hypot","args":{"x":4,"y":-5.0,"unit":"cm"}},{"name":"g","args":{"k":[1,2]}}]');
 * assert.throws(() => decodePythonCalls("[f(a=math.pi)]"), /unsupported expression: attribute/);
 * ```
 */
export function decodePythonCalls(input: string): BfclCall[] {
  const text = stripChars(input.trim(), "'");
  checkNesting(text);
  const tree = parseStrict("python", text, "SyntaxError: invalid syntax");
  const decoder = new PythonDecoder(text);
  const body = decoder.unwrap(topExpression(tree, text));
  const elements = body.name === "CallExpression"
    ? [body]
    : ["ArrayExpression", "TupleExpression", "SetExpression"].includes(body.name)
    ? parts(body)
    : decoder.unsupported(body, "not a call list:");
  return elements.map((raw) => {
    const element = decoder.unwrap(raw);
    if (element.name !== "CallExpression") decoder.unsupported(element, "not a call:");
    try {
      const call = decoder.call(element, 0);
      const args: Record<string, unknown> = {};
      for (const [key, value] of call.args) args[key] = toJsonValue(value);
      return { name: call.name, args };
    } catch (error) {
      if (!(error instanceof BfclUnsupportedValue)) throw error;
      const name = decoder.callName(element);
      return { name, unsupported: error.message, text: decoder.text(element) };
    }
  });
}
