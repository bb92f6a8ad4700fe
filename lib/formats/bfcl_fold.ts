/**
 * Constant arithmetic in a BFCL call string, folded as Python computes it
 * (private to the `bfcl` reader). BFCL's decoder (`resolve_ast_by_type`)
 * evaluates a binary operation with `eval(ast.unparse(node))`; here only
 * operations on constants are folded (numbers, bools, strings, lists,
 * tuples, `None`), with Python's semantics: ints of any size (`bigint`),
 * `/` always a float, `//` and `%` rounding toward −∞, `**` with a negative
 * exponent a float, `+` and `*` on sequences. `ZeroDivisionError` and the
 * other exceptions Python raises are decode errors, as they are for BFCL.
 *
 * Bounds: an int result longer than 4096 bits, a `**` exponent over 4096
 * or a sequence longer than 1,000,000 items or characters is not computed
 * (a decode error naming it): the input controls these sizes.
 *
 * @module
 */

import { BfclDecodeError, type PyValue } from "./bfcl_python_literals.ts";

const MAX_BITS = 4096n;
const MAX_LENGTH = 1_000_000;

type Num = { kind: "int"; value: bigint } | { kind: "float"; value: number };

function numeric(value: PyValue): Num | undefined {
  if (value.kind === "int" || value.kind === "float") return value;
  if (value.kind === "bool") return { kind: "int", value: value.value ? 1n : 0n };
  return undefined;
}

function int(value: bigint): PyValue {
  const bits = value < 0n ? -value : value;
  if (bits >> MAX_BITS !== 0n) throw new BfclDecodeError("an int result past 4096 bits");
  return { kind: "int", value };
}

function float(value: number): PyValue {
  if (!Number.isFinite(value)) {
    throw new BfclDecodeError("OverflowError: float result out of range");
  }
  return { kind: "float", value };
}

function toFloat(n: Num): number {
  const value = n.kind === "int" ? Number(n.value) : n.value;
  if (!Number.isFinite(value)) {
    throw new BfclDecodeError("OverflowError: int too large for a float");
  }
  return value;
}

function zero(): never {
  throw new BfclDecodeError("ZeroDivisionError");
}

// CPython's float_divmod.
function floatDivmod(a: number, b: number): [number, number] {
  if (b === 0) zero();
  let mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0) {
    if ((b < 0) !== (mod < 0)) {
      mod += b;
      div -= 1;
    }
  } else mod = b < 0 ? -0 : 0;
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else floordiv = (a / b < 0 || Object.is(a / b, -0)) ? -0 : 0;
  return [floordiv, mod];
}

function intFloorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) zero();
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function intMod(a: bigint, b: bigint): bigint {
  if (b === 0n) zero();
  const r = a % b;
  return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
}

function power(a: Num, b: Num): PyValue {
  if (a.kind === "int" && b.kind === "int") {
    if (b.value >= 0n) {
      if (b.value > MAX_BITS && a.value !== 0n && a.value !== 1n && a.value !== -1n) {
        throw new BfclDecodeError("an int power past 4096 bits");
      }
      return int(a.value ** b.value);
    }
    if (a.value === 0n) throw new BfclDecodeError("ZeroDivisionError: 0 to a negative power");
  }
  const x = toFloat(a);
  const y = toFloat(b);
  if (x === 0 && y < 0) throw new BfclDecodeError("ZeroDivisionError: 0.0 to a negative power");
  if (x < 0 && !Number.isInteger(y)) throw new BfclDecodeError("a complex power");
  return float(x ** y);
}

function arithmetic(op: string, a: Num, b: Num): PyValue {
  if (op === "**") return power(a, b);
  if (op === "/") {
    const y = toFloat(b);
    if (y === 0) zero();
    return float(toFloat(a) / y);
  }
  if (a.kind === "int" && b.kind === "int") {
    const x = a.value;
    const y = b.value;
    switch (op) {
      case "+":
        return int(x + y);
      case "-":
        return int(x - y);
      case "*":
        return int(x * y);
      case "//":
        return int(intFloorDiv(x, y));
      case "%":
        return int(intMod(x, y));
      case "<<":
        if (y < 0n) throw new BfclDecodeError("ValueError: negative shift count");
        if (y > MAX_BITS) throw new BfclDecodeError("an int shift past 4096 bits");
        return int(x << y);
      case ">>":
        if (y < 0n) throw new BfclDecodeError("ValueError: negative shift count");
        return int(x >> (y > MAX_BITS ? MAX_BITS + 1n : y));
      case "&":
        return int(x & y);
      case "|":
        return int(x | y);
      case "^":
        return int(x ^ y);
    }
  }
  if (["<<", ">>", "&", "|", "^"].includes(op)) {
    throw new BfclDecodeError(`TypeError: unsupported operand type(s) for ${op}: float`);
  }
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case "+":
      return float(x + y);
    case "-":
      return float(x - y);
    case "*":
      return float(x * y);
    case "//":
      return float(floatDivmod(x, y)[0]);
    case "%":
      return float(floatDivmod(x, y)[1]);
  }
  throw new BfclDecodeError(`unsupported operator ${op}`);
}

function repeat(sequence: PyValue, times: Num): PyValue {
  if (times.kind !== "int") {
    throw new BfclDecodeError("TypeError: can't multiply sequence by float");
  }
  const n = times.value < 0n ? 0 : times.value;
  const unit = sequence.kind === "str"
    ? sequence.value.length
    : sequence.kind === "list" || sequence.kind === "tuple"
    ? sequence.items.length
    : 0;
  if (BigInt(unit) * BigInt(n) > BigInt(MAX_LENGTH)) {
    throw new BfclDecodeError("a repeated sequence past 1,000,000 items");
  }
  const count = Number(n);
  if (sequence.kind === "str") return { kind: "str", value: sequence.value.repeat(count) };
  if (sequence.kind === "list" || sequence.kind === "tuple") {
    const items: PyValue[] = [];
    for (let i = 0; i < count; i++) for (const item of sequence.items) items.push(item);
    return { kind: sequence.kind, items };
  }
  throw new BfclDecodeError(`TypeError: can't multiply ${sequence.kind}`);
}

function concat(a: PyValue, b: PyValue): PyValue | undefined {
  if (a.kind === "str" && b.kind === "str") {
    if (a.value.length + b.value.length > MAX_LENGTH) {
      throw new BfclDecodeError("a string past 1,000,000 characters");
    }
    return { kind: "str", value: a.value + b.value };
  }
  if ((a.kind === "list" && b.kind === "list") || (a.kind === "tuple" && b.kind === "tuple")) {
    if (a.items.length + b.items.length > MAX_LENGTH) {
      throw new BfclDecodeError("a list past 1,000,000 items");
    }
    return { kind: a.kind, items: a.items.concat(b.items) };
  }
  return undefined;
}

/**
 * A binary operation on two folded constants, as Python computes it.
 *
 * @param op The operator as written (`+`, `//`, `**`, `<<`…).
 * @param a The left operand.
 * @param b The right operand.
 * @returns The result.
 * @throws {BfclDecodeError} Where Python raises (division by zero, bad operand types) or past the bounds.
 *
 * @example Usage
 * ```ts
 * import { foldBinary } from "./bfcl_fold.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(foldBinary("//", { kind: "int", value: 7n }, { kind: "int", value: -2n }), { kind: "int", value: -4n });
 * assert.deepEqual(foldBinary("/", { kind: "int", value: 1n }, { kind: "int", value: 4n }), { kind: "float", value: 0.25 });
 * assert.throws(() => foldBinary("%", { kind: "int", value: 1n }, { kind: "int", value: 0n }), /ZeroDivisionError/);
 * ```
 */
export function foldBinary(op: string, a: PyValue, b: PyValue): PyValue {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) return arithmetic(op, x, y);
  if (op === "+") {
    const joined = concat(a, b);
    if (joined !== undefined) return joined;
  }
  if (op === "*" && y !== undefined && x === undefined) return repeat(a, y);
  if (op === "*" && x !== undefined && y === undefined) return repeat(b, x);
  if (op === "%" && a.kind === "str") {
    throw new BfclDecodeError("unsupported expression: %-formatting");
  }
  throw new BfclDecodeError(
    `TypeError: unsupported operand type(s) for ${op}: '${a.kind}' and '${b.kind}'`,
  );
}

/**
 * A unary operation on a folded constant, as Python computes it inside an
 * evaluated expression (`-`, `+`, `~`, `not`).
 *
 * @param op The operator.
 * @param a The operand.
 * @returns The result.
 * @throws {BfclDecodeError} On a bad operand type.
 *
 * @example Usage
 * ```ts
 * import { foldUnary } from "./bfcl_fold.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(foldUnary("~", { kind: "int", value: 5n }), { kind: "int", value: -6n });
 * assert.deepEqual(foldUnary("not", { kind: "str", value: "" }), { kind: "bool", value: true });
 * ```
 */
export function foldUnary(op: string, a: PyValue): PyValue {
  if (op === "not") {
    const truthy = a.kind === "none"
      ? false
      : a.kind === "int"
      ? a.value !== 0n
      : a.kind === "float" || a.kind === "bool"
      ? Boolean(a.value)
      : a.kind === "str"
      ? a.value !== ""
      : a.kind === "list" || a.kind === "tuple"
      ? a.items.length > 0
      : a.kind === "dict"
      ? a.entries.length > 0
      : true;
    return { kind: "bool", value: !truthy };
  }
  const n = numeric(a);
  if (n === undefined) throw new BfclDecodeError(`TypeError: bad operand type for unary ${op}`);
  if (op === "~") {
    if (n.kind !== "int") throw new BfclDecodeError("TypeError: bad operand type for unary ~");
    return int(~n.value);
  }
  if (op === "+") return n;
  return n.kind === "int" ? int(-n.value) : float(-n.value);
}
