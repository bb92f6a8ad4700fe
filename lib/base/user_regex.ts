/**
 * Every regular expression a user writes — `$regex` in gold files and
 * contracts, honesty patterns, the task pattern — is compiled here, by
 * {@linkcode compileUserPattern}, onto RE2 (the `re2js` port): matching takes
 * time linear in the text, whatever the pattern, so `{"$regex": "(a+)+$"}`
 * cannot hang a run. toolscore's credential patterns stay JavaScript
 * RegExps; the shipped honesty phrases are compiled here like a user's.
 *
 * The dialect is RE2's, read with JavaScript habits:
 *
 * - Accepted: everything RE2 has (classes, `\d \w \s \b`, `\p{L}`, counted
 *   repeats up to 1000, lazy quantifiers, `(?i)` and other inline flags),
 *   named groups written `(?<name>…)` or Python's `(?P<name>…)`, and the
 *   JavaScript escapes `\uXXXX`, `\u{…}`, `\cX` and `[^]`, which are translated.
 * - Refused, with an error naming where the pattern came from:
 *   backreferences (`\1`, `\k<name>`, `(?P=name)`), lookaround (`(?=`, `(?!`,
 *   `(?<=`, `(?<!`), and any flag but `i`, `m` and `s` (`u` and `v` are
 *   RE2's default anyway; `g` and `y` make a match depend on the last one).
 * - Patterns in a plain subset (literal text, `\b`, `\d`, `\s`, literal
 *   classes, groups, `|` and `?`: the shipped honesty phrases, most `$regex`
 *   strings) are searched by an equivalent JavaScript RegExp, which answers
 *   exactly as RE2 and is faster on short texts (`_native_pattern.ts` says
 *   why they agree); the rest run on RE2.
 * - Different from RegExp: `\d`, `\w`, `\s` and `\b` are ASCII only (`\s`
 *   does not match a no-break space; write `\p{Z}` or `[\s\x{a0}]`), and `.`
 *   matches a whole code point.
 *
 * @module
 */

import { RE2JS } from "re2js";
import { InputError } from "./errors.ts";
import { MAX_PATHS, nativeSource } from "./_native_pattern.ts";

/**
 * What the matchers and checks need of a compiled pattern; a JavaScript
 * `RegExp` (a shipped pattern) has the same shape.
 */
export interface TextPattern {
  /** The pattern's text. */
  readonly source: string;
  /** Its flags (`i`, `m`, `s`). */
  readonly flags: string;
  /**
   * Whether the pattern is found anywhere in the text.
   *
   * @param text The text to search.
   * @returns `true` on a match.
   */
  test(text: string): boolean;
}

const FLAG_BITS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

/**
 * A user pattern compiled onto RE2: linear-time matching.
 *
 * @example Usage
 * ```ts
 * import { compileUserPattern } from "./user_regex.ts";
 * import assert from "node:assert/strict";
 *
 * const pattern = compileUserPattern("^(?P<task>[a-z]+)-\\d+$", "", "task_pattern");
 * assert.equal(pattern.test("refund-3"), true);
 * assert.deepEqual(pattern.groups("refund-3"), { task: "refund" });
 * ```
 */
export class UserPattern implements TextPattern {
  /** The pattern as the user wrote it. */
  readonly source: string;
  /** The flags as given. */
  readonly flags: string;
  #compiled: RE2JS | (() => RE2JS);
  // The same search on V8's engine, for a pattern in the plain subset (_native_pattern.ts).
  readonly #native: RegExp | undefined;

  /**
   * Wrap a compiled RE2 pattern; use {@linkcode compileUserPattern} to make one.
   *
   * @param source The pattern as written.
   * @param flags The flags.
   * @param re The compiled pattern, or how to compile it when first used.
   */
  constructor(source: string, flags: string, re: RE2JS | (() => RE2JS)) {
    this.source = source;
    this.flags = flags;
    this.#compiled = re;
    const native = nativeSource(source, flags);
    this.#native = native && new RegExp(native.source, flags.includes("i") ? "i" : "");
  }

  get #re(): RE2JS {
    if (typeof this.#compiled === "function") this.#compiled = this.#compiled();
    return this.#compiled;
  }

  /**
   * Whether the pattern is found anywhere in the text (linear time).
   *
   * @param text The text.
   * @returns `true` on a match.
   */
  test(text: string): boolean {
    return this.#native !== undefined ? this.#native.test(text) : this.#re.test(text);
  }

  /**
   * The named groups of the first match.
   *
   * @param text The text.
   * @returns Each named group's text (groups that took no part are left
   * out), or `undefined` when the pattern is not found.
   */
  groups(text: string): Record<string, string> | undefined {
    const matcher = this.#re.matcher(text);
    if (!matcher.find()) return undefined;
    const out: Record<string, string> = {};
    for (const name of Object.keys(this.#re.namedGroups())) {
      const value = matcher.group(name);
      if (typeof value === "string") out[name] = value;
    }
    return out;
  }

  /**
   * The names of the pattern's named groups.
   *
   * @returns The names, in no particular order.
   */
  groupNames(): string[] {
    return Object.keys(this.#re.namedGroups());
  }

  /**
   * The pattern's text.
   *
   * @returns {@linkcode UserPattern.source}.
   */
  toString(): string {
    return this.source;
  }
}

// What RE2 cannot run, found outside character classes: [what, how to say it].
function unsupported(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) return `a backreference (\\${next})`;
      if (!inClass && next === "k") return "a backreference (\\k<…>)";
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++; // a leading ] is a literal
      continue;
    }
    if (ch !== "(" || pattern[i + 1] !== "?") continue;
    const head = pattern.slice(i, i + 4);
    if (head.startsWith("(?=") || head.startsWith("(?!")) return "lookahead ((?= or (?!)";
    if (head === "(?<=" || head === "(?<!") return "lookbehind ((?<= or (?<!)";
    if (head === "(?P=") return "a backreference ((?P=name))";
  }
  return undefined;
}

// The RE2 flag bits of `flags`; a flag RE2 cannot honour is an error naming `where`.
function flagBits(flags: string, where: string | undefined, label: string): number {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) {
      const why = flag === "u" || flag === "v"
        ? "patterns are RE2 syntax, which is Unicode-aware already; drop it"
        : flag === "g" || flag === "y"
        ? "it would make a match depend on the one before; drop it"
        : "use any of i, m, s";
      const name = label === "$regex" ? "$flags" : "flags";
      throw new InputError(
        `invalid ${name} ${JSON.stringify(flags)}: ${JSON.stringify(flag)} is not allowed (${why})`,
        where,
      );
    }
    bits |= bit;
  }
  return bits;
}

// The RE2 flag bits of a pattern RE2 can run; a flag or construct it cannot is an error.
function preflight(
  pattern: string,
  flags: string,
  where: string | undefined,
  label: string,
): number {
  const bits = flagBits(flags, where, label);
  const construct = unsupported(pattern);
  if (construct !== undefined) {
    throw new InputError(
      `${label} ${JSON.stringify(pattern)} uses ${construct}, which the linear-time regex engine ` +
        "(RE2 syntax) cannot run; rewrite the pattern without it",
      where,
    );
  }
  return bits;
}

/**
 * Compile a user-supplied pattern onto RE2 (linear-time matching). A pattern
 * or flag it cannot run fails here, naming `where`, not while scoring.
 *
 * @param pattern The pattern (RE2 syntax with the JavaScript and Python
 * spellings the module doc lists).
 * @param flags Any of `i`, `m`, `s`.
 * @param where Where the pattern came from, for errors (`gold.json: required[0].args.q`).
 * @param label What the pattern is called in errors.
 * @returns The compiled pattern.
 * @throws {InputError} On a syntax error, a backreference, lookaround or another flag.
 *
 * @example Usage
 * ```ts
 * import { compileUserPattern } from "./user_regex.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(compileUserPattern("(a+)+$", "", "x").test("a".repeat(50) + "!"), false);
 * assert.throws(
 *   () => compileUserPattern("(a)\\1", "", "args.q", "$regex"),
 *   /^InputError: args\.q: \$regex "\(a\)\\\\1" uses a backreference/,
 * );
 * ```
 */
export function compileUserPattern(
  pattern: string,
  flags: string,
  where?: string,
  label = "pattern",
): UserPattern {
  if (typeof pattern !== "string") {
    throw new InputError(`${label} must be a string, got ${typeof pattern}`, where);
  }
  if (typeof flags !== "string") {
    throw new InputError(`flags must be a string, got ${typeof flags}`, where);
  }
  const bits = preflight(pattern, flags, where, label);
  const quoted = `${label} ${JSON.stringify(pattern)}`;
  try {
    return new UserPattern(pattern, flags, RE2JS.compile(RE2JS.translateRegExp(pattern), bits));
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, "");
    throw new InputError(`invalid ${quoted} (${reason}); fix the pattern (RE2 syntax)`, where, {
      cause: error,
    });
  }
}

/**
 * A pattern shipped with toolscore (the honesty defaults): the same checks as
 * {@linkcode compileUserPattern} but RE2 compiles it when it is first used.
 * The honesty checks run each list as one alternation built from the
 * patterns' sources, so a default pattern is rarely compiled on its own, and
 * compiling them all took about a fifth of `eval`'s start-up. Only for
 * patterns a test compiles (`tests/honesty_*`): a syntax error would surface
 * at first use.
 *
 * @param pattern The pattern (RE2 syntax).
 * @param flags Any of `i`, `m`, `s`.
 * @param where Where the pattern came from, for errors.
 * @returns The pattern, compiled on first use.
 * @throws {InputError} On a flag or construct RE2 cannot run.
 *
 * @example Usage
 * ```ts
 * import { deferredUserPattern } from "./user_regex.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(deferredUserPattern("done$", "i").test("All DONE"), true);
 * ```
 */
export function deferredUserPattern(pattern: string, flags: string, where?: string): UserPattern {
  const bits = preflight(pattern, flags, where, "pattern");
  return new UserPattern(
    pattern,
    flags,
    () => RE2JS.compile(RE2JS.translateRegExp(pattern), bits),
  );
}

/**
 * One test for "any of these patterns is found": the patterns as one
 * alternation (one pass over the text instead of one per pattern), when
 * they share their flags and compile together — on V8's engine when every
 * pattern is in the plain subset, else on RE2; otherwise each in turn. The
 * answer is the same either way.
 *
 * @param patterns Compiled user patterns.
 * @returns A test that is `true` when any pattern is found in the text.
 *
 * @example Usage
 * ```ts
 * import { anyUserPattern, compileUserPattern } from "./user_regex.ts";
 * import assert from "node:assert/strict";
 *
 * const test = anyUserPattern([compileUserPattern("^done", "i"), compileUserPattern("ok$", "i")]);
 * assert.equal(test("DONE it"), true);
 * assert.equal(test("is it ok"), true);
 * assert.equal(test("okay then"), false);
 * ```
 */
export function anyUserPattern(patterns: readonly UserPattern[]): (text: string) => boolean {
  const separate = (text: string) => patterns.some((p) => p.test(text));
  const first = patterns[0];
  if (first === undefined || patterns.length === 1) return separate;
  if (!patterns.every((p) => p.flags === first.flags)) return separate;
  // Every pattern in the plain subset: one alternation on V8's engine, as bounded.
  const natives = patterns.map((p) => nativeSource(p.source, p.flags));
  if (natives.every((n) => n !== undefined)) {
    if (natives.reduce((sum, n) => sum + n.paths, 0) <= MAX_PATHS * 4) {
      const source = natives.map((n) => `(?:${n.source})`).join("|");
      const combined = new RegExp(source, first.flags.includes("i") ? "i" : "");
      return (text) => combined.test(text);
    }
    return separate;
  }
  let bits = 0;
  for (const flag of first.flags) bits |= FLAG_BITS[flag] ?? 0;
  try {
    const source = patterns.map((p) => `(?:${RE2JS.translateRegExp(p.source)})`).join("|");
    const combined = RE2JS.compile(source, bits);
    return (text) => combined.test(text);
  } catch {
    return separate; // e.g. two patterns naming the same group
  }
}
