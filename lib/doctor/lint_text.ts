/**
 * The lint of one text a model reads (a description, a title, a server's
 * instructions): hidden Unicode (zero-width, bidirectional controls, tag
 * characters, C0/C1 controls), instruction-like phrases and secret paths
 * (prompt-injection smells), and a size past what a description needs. And
 * {@linkcode walkSchema}, which visits every subschema of a JSON Schema —
 * `properties`, `items`, `anyOf`/`oneOf`/`allOf` branches, `$defs` and the
 * rest — with its JSON pointer, bounded in depth and count so that a
 * hostile schema cannot make the doctor loop.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import type { DoctorFinding } from "./check.ts";

// Zero-width and bidirectional controls, invisible operators, tag characters, BOM, C0/C1 controls.
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/u;

const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");

const INSTRUCTIONS: RegExp[] = [
  /\b(?:ignore|disregard|forget)\b.{0,20}\b(?:previous|prior|above|earlier|all other)\b.{0,20}\b(?:instructions?|prompts?|rules)\b/i,
  /<\/?(?:important|system|instructions?|secret|admin)>/i,
  /\bdo not (?:tell|inform|mention|reveal|show)\b.{0,30}\buser\b/i,
  /\b(?:before|instead of) (?:using|calling) (?:any )?(?:other|another) tools?\b/i,
  /\bsystem prompt\b/i,
  /\b(?:send|upload|post|forward|exfiltrate)\b.{0,40}\b(?:api[ _-]?keys?|passwords?|credentials|tokens?|secrets?)\b/i,
];

const SECRET_PATHS =
  /(?:~\/\.ssh\b|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws\/credentials|\/etc\/(?:passwd|shadow)\b|(?:^|[\s"'`/])\.env\b|\.netrc\b|\.npmrc\b|\.docker\/config\.json|\.kube\/config)/i;

/**
 * A text with every hidden character shown as `\u{…}`, for printing what a
 * reviewer must see (a tool name with a zero-width space in it).
 *
 * @param text The text.
 * @returns It, every hidden character visible.
 *
 * @example Usage
 * ```ts
 * import { visible } from "./lint_text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(visible("a\u200bb"), "a\\u{200B}b");
 * ```
 */
export function visible(text: string): string {
  return text.replace(
    HIDDEN_ALL,
    (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
}

/** The longest text (in characters) a description needs before it is a cost on every turn. */
export const MAX_TEXT_CHARS = 4096;

/** The deepest a schema is walked. */
const MAX_DEPTH = 64;
/** The most subschemas walked in one schema. */
const MAX_NODES = 10_000;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The findings of one text a model reads.
 *
 * @param text The text (anything else is ignored).
 * @param path Its JSON pointer in the catalog.
 * @param what What it is, for the message (`the description`).
 * @returns The findings: `lint.hidden-unicode`, `lint.instruction-text`, `lint.secret-path`, `lint.text-size`.
 *
 * @example Usage
 * ```ts
 * import { textFindings } from "./lint_text.ts";
 * import assert from "node:assert/strict";
 *
 * const found = textFindings("Read a file.\u200b <IMPORTANT>", "/tools/read/description", "the description");
 * assert.deepEqual(found.map((f) => f.code), ["lint.hidden-unicode", "lint.instruction-text"]);
 * ```
 */
export function textFindings(text: unknown, path: string, what: string): DoctorFinding[] {
  if (typeof text !== "string") return [];
  const out: DoctorFinding[] = [];
  const warn = (code: string, message: string) =>
    out.push({ code, severity: "warn", path, message });
  const hidden = [...new Set(text.match(HIDDEN_ALL) ?? [])];
  if (hidden.length > 0) {
    warn(
      "lint.hidden-unicode",
      `${what}: hidden Unicode (${
        hidden.slice(0, 4).map(codePoint).join(", ")
      }), which a model reads and a reviewer does not see (a prompt-injection smell)`,
    );
  }
  for (const pattern of INSTRUCTIONS) {
    const match = pattern.exec(text);
    if (match) {
      const snippet = match[0].replace(HIDDEN_ALL, "").slice(0, 60);
      warn(
        "lint.instruction-text",
        `${what}: instruction-like text ${JSON.stringify(snippet)} (a prompt-injection smell)`,
      );
      break;
    }
  }
  const secret = SECRET_PATHS.exec(text);
  if (secret) {
    warn(
      "lint.secret-path",
      `${what}: a secret path ${
        JSON.stringify(secret[0].trim().replace(/^["'`/]/, ""))
      } (a prompt-injection smell)`,
    );
  }
  if (text.length > MAX_TEXT_CHARS) {
    warn(
      "lint.text-size",
      `${what}: ${text.length.toLocaleString("en-US")} characters (over ${
        MAX_TEXT_CHARS.toLocaleString("en-US")
      }), paid on every model turn`,
    );
  }
  return out;
}

/**
 * Escape one key for a JSON pointer (RFC 6901).
 *
 * @param key The key.
 * @returns It with `~` as `~0` and `/` as `~1`.
 *
 * @example Usage
 * ```ts
 * import { pointerKey } from "./lint_text.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pointerKey("file:///a"), "file:~1~1~1a");
 * ```
 */
export function pointerKey(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SINGLE = [
  "items",
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];

/**
 * Visit a schema and every subschema in it, depth first, each with its JSON
 * pointer; at most 64 levels deep and 10,000 subschemas.
 *
 * @param schema The schema.
 * @param at Its JSON pointer.
 * @param visit Called on each (object) subschema.
 *
 * @example Usage
 * ```ts
 * import { walkSchema } from "./lint_text.ts";
 * import assert from "node:assert/strict";
 *
 * const seen: string[] = [];
 * walkSchema({ properties: { a: { anyOf: [{ type: "string" }] } } }, "/s", (_, at) => seen.push(at));
 * assert.deepEqual(seen, ["/s", "/s/properties/a", "/s/properties/a/anyOf/0"]);
 * ```
 */
export function walkSchema(
  schema: unknown,
  at: string,
  visit: (schema: JsonObject, at: string) => void,
): void {
  let nodes = 0;
  const walk = (node: unknown, where: string, depth: number) => {
    if (!isJsonObject(node) || depth > MAX_DEPTH || ++nodes > MAX_NODES) return;
    visit(node, where);
    for (const key of MAPS) {
      const map = node[key];
      if (!isJsonObject(map)) continue;
      for (const [name, sub] of Object.entries(map)) {
        walk(sub, `${where}/${key}/${pointerKey(name)}`, depth + 1);
      }
    }
    for (const key of LISTS) {
      const list = node[key];
      if (Array.isArray(list)) {
        list.forEach((sub, i) => walk(sub, `${where}/${key}/${i}`, depth + 1));
      }
    }
    for (const key of SINGLE) {
      const sub = node[key];
      if (Array.isArray(sub)) sub.forEach((s, i) => walk(s, `${where}/${key}/${i}`, depth + 1));
      else walk(sub, `${where}/${key}`, depth + 1);
    }
  };
  walk(schema, at, 0);
}
