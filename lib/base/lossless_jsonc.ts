/**
 * JSONC (comments, trailing commas) read with the number literals a double
 * cannot hold kept as their digits, as `parseJsonLossless` does for JSON
 * (issue 42). jsonc-parser has no reviver: its syntax tree gives each
 * literal's offset, and the value is built from the tree, with each number
 * literal read from its source text. Only text with a run of 16 digits where
 * a number can start takes this path; the rest is parsed by jsonc-parser as before.
 *
 * @module
 */

import type { Node } from "jsonc-parser";
import { jsoncModule } from "./_lazy.ts";
import { parseJsonLossless } from "./lossless_json.ts";

// As in lossless_json.ts: 16 digits where a number can start (here also after a comment's end).
const LONG_DIGITS = /(?:^|[:,[\s/])-?\d{16}/;

function build(node: Node | undefined, text: string): unknown {
  if (node === undefined) return undefined;
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key === undefined) continue;
        // As JSON.parse does: an own key (a "__proto__" key too), the last of two wins.
        Object.defineProperty(out, String(key.value), {
          value: build(value, text),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map((child) => build(child, text));
    case "number":
      return parseJsonLossless(text.slice(node.offset, node.offset + node.length));
    default:
      return node.value;
  }
}

/**
 * Parse JSONC text that has no syntax error (the caller checked), keeping
 * number literals a double cannot hold as their digits. Call it with the
 * heavy modules loaded (`withHeavy`); the text must be within the nesting
 * limit (jsonc-parser and this builder recurse).
 *
 * @param text JSONC text without syntax errors.
 * @returns The value.
 *
 * @example Usage
 * ```ts
 * import { parseJsoncLossless } from "./lossless_jsonc.ts";
 * import { withHeavy } from "./_lazy.ts";
 * import assert from "node:assert/strict";
 *
 * const value = await withHeavy(() => parseJsoncLossless('{"id": 12345678901234567891, /* c *\/ }'));
 * assert.equal(JSON.stringify(value), '{"id":12345678901234567891}');
 * ```
 */
export function parseJsoncLossless(text: string): unknown {
  const jsonc = jsoncModule();
  if (!LONG_DIGITS.test(text)) return jsonc.parse(text, [], { allowTrailingComma: true });
  return build(jsonc.parseTree(text, [], { allowTrailingComma: true }), text);
}
