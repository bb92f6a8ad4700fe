/**
 * The inputs of the BFCL decoder vectors (`testdata/bfcl_decoder/python_vectors.jsonl`):
 * Python call strings as prompting models write them, from a grammar of
 * values (constants, every operator, names, calls, subscripts, lambdas,
 * sets, comprehensions, bad syntax) and wrappings (brackets or none, code
 * fences, stray text, quotes), drawn with a fixed seed.
 *
 * Usage:
 *
 * ```sh
 * deno run --allow-write=/tmp scripts/bfcl_decode_inputs.ts /tmp/inputs.jsonl
 * python3 scripts/bfcl_decode_vectors.py GORILLA_CHECKOUT /tmp/inputs.jsonl \
 *   testdata/bfcl_decoder/python_vectors.jsonl
 * ```
 *
 * @module
 */

import fc from "fast-check";

const ATOMS = [
  "1",
  "-1",
  "+2",
  "~3",
  "not 1",
  "5.0",
  "1e3",
  "0x1F",
  "1_0",
  "2**10",
  "7//2",
  "-7%3",
  "1/4",
  "'a'",
  '"b"',
  "'a'*3",
  "[1, 2]",
  "(1, 2)",
  "(1,)",
  "()",
  "{'k': 1}",
  "{1: 2}",
  "{}",
  "[]",
  "None",
  "True",
  "False",
  "...",
  "x",
  "a.b",
  "a[1]",
  "f(1)",
  "g(k=1)",
  "lambda: 1",
  "{1, 2}",
  "1 < 2",
  "a and b",
  "-x",
  "--1",
  "-(1)",
  "-'s'",
  "-None",
  "1+x",
  "[1]+[2]",
  "'a'+'b'",
  "1.5*2",
  "2**-2",
  "0.1+0.2",
  "10**20",
  "-0.0",
  "b'x'",
  "f'x'",
  "1j",
  "0012",
  "*a",
  "x if y else z",
  "[x for x in y]",
  "'\\n'",
  "'\\x41'",
  "r'\\d'",
  "'''t'''",
  "'a' 'b'",
  "1 if 2 else 3",
  "(1)",
  "a[1:2]",
  "f(*a)",
  "True+True",
  "3-True",
  "a[1, 2]",
  "f(a[::2], 'q')",
  "f(x, k=[1])",
  "{**d}",
  "-1.5e-7",
  "1e16",
  "123456789012345678901234567890",
  "2**0.5",
  "-2**2",
  "(-2)**2",
  "5 % -3",
  "-5.5 % 2",
  "7.0 // 2",
  "1 << 70",
  "~True",
  "[1]*2",
  "'é'",
  "'\\u00e9'",
  "'a\\'b'",
  '"a\'b"',
  "'\\t'",
  "1 | 2",
  "f(x=(1, [2]))",
  "1e400",
  "{'a': [1.0, {'b': None}]}",
  "((1))",
  "-(-1)",
];

const WRAPS: ((s: string) => string)[] = [
  (s) => `[${s}]`,
  (s) => s,
  (s) => `\`\`\`\n[${s}]\n\`\`\``,
  (s) => `[${s}]]`,
  (s) => `'[${s}]'`,
  (s) => `(${s})`,
  (s) => ` [${s}] \n`,
  (s) => `Sure: [${s}]`,
];

const call = fc.record({
  name: fc.constantFrom("f", "a.b", "m.n.o", "x"),
  args: fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "a"), fc.constantFrom(...ATOMS)), {
    maxLength: 3,
  }),
  positional: fc.constantFrom("", "1, ", "x, "),
});
const sample = fc.tuple(fc.array(call, { minLength: 1, maxLength: 3 }), fc.nat(WRAPS.length - 1));

if (import.meta.main) {
  const out = Deno.args[0] ?? "/tmp/bfcl_decode_inputs.jsonl";
  const lines = fc.sample(sample, { numRuns: 3000, seed: 43 }).map(([calls, wrap], i) => {
    const text = calls.map((c) =>
      `${c.name}(${c.positional}${c.args.map(([k, v]) => `${k}=${v}`).join(", ")})`
    ).join(", ");
    return JSON.stringify({ id: `simple_python_${i}`, result: WRAPS[wrap]!(text) });
  });
  Deno.writeTextFileSync(out, lines.join("\n") + "\n");
}
