/**
 * Internal to `user_regex.ts`: the JavaScript `RegExp` that answers exactly
 * as RE2 does for a user pattern in a plain subset — literal text, `\b`,
 * groups, alternation and `?` — so the honesty phrases (and `$regex`
 * operators of that shape) are searched by V8's engine instead of the RE2
 * port, several times faster on short texts. Anything outside the subset
 * stays on RE2.
 *
 * Why the answers agree:
 *
 * - The subset has no `.`, no ranges, no `\w`, no inline flags and no
 *   repetition but `?`, so code points versus UTF-16 units, Unicode classes
 *   and line terminators never come into play.
 * - `\b` and `\B` are ASCII in both (a RegExp without the `u` flag).
 * - Case-insensitive matching: without `u`, a RegExp matches an ASCII letter
 *   only with its ASCII other case; RE2 (simple Unicode case folding) also
 *   matches U+017F (ſ) with `s` and U+212A (Kelvin sign) with `k` — checked
 *   over every code point — so those two letters are spelled out as classes.
 *   A non-ASCII character is allowed only when it is punctuation or space
 *   with no case mapping.
 * - `^` and `$` are the text's ends in both when the `m` flag is absent;
 *   with it they are refused (a RegExp also breaks lines at `\r`).
 * - Backtracking stays bounded: a pattern has at most {@linkcode MAX_PATHS}
 *   ways through it (each `?` doubles, each `|` adds), so each start
 *   position costs a bounded number of steps.
 *
 * @module
 */

/** The most ways through one pattern (alternatives × optional parts) run natively. */
export const MAX_PATHS = 256;

// Literal outside and inside classes in both dialects (no meaning of their own).
const PLAIN = /^[A-Za-z0-9 !"#%&',\-/:;<=>@_`~]$/;
// Characters that may follow a backslash and stand for themselves in both dialects.
const ESCAPED = /^[.\-()[\]{}*+?|^$\\/]$/;
const NON_ASCII_OK = /^[\p{P}\p{Zs}]$/u;

/** A translated pattern: its JavaScript source and its number of ways through. */
export interface NativeSource {
  /** The RegExp source (flags: `i` or none). */
  source: string;
  /** The ways through the pattern. */
  paths: number;
}

class Parser {
  at = 0;
  constructor(readonly text: string, readonly fold: boolean, readonly anchors: boolean) {}

  // alternation := sequence ("|" sequence)*
  alternation(): NativeSource | undefined {
    let source = "";
    let paths = 0;
    for (;;) {
      const part = this.sequence();
      if (part === undefined) return undefined;
      source += part.source;
      paths += part.paths;
      if (paths > MAX_PATHS) return undefined;
      if (this.text[this.at] !== "|") return { source, paths };
      source += "|";
      this.at++;
    }
  }

  // sequence := (atom "?"?)*
  sequence(): NativeSource | undefined {
    let source = "";
    let paths = 1;
    while (this.at < this.text.length) {
      const ch = this.text[this.at]!;
      if (ch === "|" || ch === ")") break;
      const atom = this.atom();
      if (atom === undefined) return undefined;
      let ways = atom.paths;
      source += atom.source;
      if (this.text[this.at] === "?") {
        if (atom.source === "^" || atom.source === "$" || atom.source.startsWith("\\b")) {
          return undefined;
        }
        this.at++;
        if (this.text[this.at] === "?") return undefined; // lazy: not in the subset
        source += "?";
        ways += 1;
      }
      paths *= ways;
      if (paths > MAX_PATHS) return undefined;
    }
    return { source, paths };
  }

  atom(): NativeSource | undefined {
    const ch = this.text[this.at]!;
    if (ch === "(") {
      this.at++;
      let open = "(";
      if (this.text[this.at] === "?") {
        if (this.text[this.at + 1] !== ":") return undefined; // flags, names, lookaround
        this.at += 2;
        open = "(?:";
      }
      const inner = this.alternation();
      if (inner === undefined || this.text[this.at] !== ")") return undefined;
      this.at++;
      return { source: `${open}${inner.source})`, paths: inner.paths };
    }
    if (ch === "[") return this.charClass();
    if (ch === "\\") {
      const next = this.text[this.at + 1] ?? "";
      this.at += 2;
      if (next === "b" || next === "B") return { source: `\\${next}`, paths: 1 };
      if (next === "d") return { source: "[0-9]", paths: 1 };
      if (next === "s") return { source: "[\\t\\n\\f\\r ]", paths: 1 };
      return ESCAPED.test(next) ? { source: `\\${next}`, paths: 1 } : undefined;
    }
    if (ch === "^" || ch === "$") {
      this.at++;
      return this.anchors ? { source: ch, paths: 1 } : undefined;
    }
    const literal = this.literal(ch);
    if (literal === undefined) return undefined;
    this.at += ch.length;
    return { source: literal, paths: 1 };
  }

  // A class of literal characters: "[" (literal | "\" escaped)+ "]", no ranges, no negation.
  charClass(): NativeSource | undefined {
    this.at++;
    let body = "";
    while (this.text[this.at] !== "]") {
      const ch = this.text[this.at];
      if (ch === undefined || ch === "^" || ch === "-" || ch === "[") return undefined;
      if (ch === "\\") {
        const next = this.text[this.at + 1] ?? "";
        if (!ESCAPED.test(next)) return undefined;
        body += `\\${next}`;
        this.at += 2;
        continue;
      }
      const literal = this.literal(ch);
      if (literal === undefined) return undefined;
      body += literal.startsWith("[") ? literal.slice(1, -1) : literal;
      this.at += ch.length;
    }
    this.at++;
    return body === "" ? undefined : { source: `[${body}]`, paths: 1 };
  }

  // One literal character as RegExp source, or undefined when it is not in the subset.
  literal(ch: string): string | undefined {
    if (PLAIN.test(ch)) {
      if (this.fold && (ch === "s" || ch === "S")) return "[sS\\u017f]";
      if (this.fold && (ch === "k" || ch === "K")) return "[kK\\u212a]";
      return ch;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x80 || code >= 0xd800 && code <= 0xdfff) return undefined;
    if (!NON_ASCII_OK.test(ch) || ch.toUpperCase() !== ch || ch.toLowerCase() !== ch) {
      return undefined;
    }
    return ch;
  }
}

/**
 * The RegExp source equivalent to an RE2 pattern, when the pattern is in the
 * plain subset.
 *
 * @param pattern The pattern as the user wrote it.
 * @param flags Its flags (any of `i`, `m`, `s`).
 * @returns The source and its ways through, or `undefined` outside the subset.
 *
 * @example Usage
 * ```ts
 * import { nativeSource } from "./_native_pattern.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nativeSource("\\btimed? ?out\\b", "i")?.source, "\\btimed? ?out\\b");
 * assert.equal(nativeSource("\\bsuccess\\b", "i")?.source, "\\b[sS\\u017f]ucce[sS\\u017f][sS\\u017f]\\b");
 * assert.equal(nativeSource("a+", ""), undefined);
 * ```
 */
export function nativeSource(pattern: string, flags: string): NativeSource | undefined {
  if (pattern.length > 1000) return undefined;
  const parser = new Parser(pattern, flags.includes("i"), !flags.includes("m"));
  const out = parser.alternation();
  return out !== undefined && parser.at === pattern.length ? out : undefined;
}
