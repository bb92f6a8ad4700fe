/**
 * Text from traces, gold files and contracts (tool names, argument values,
 * parse-error snippets) is shown on a terminal; a trace must not be able to
 * clear the screen, set the window title or reorder what is shown. Every
 * console line the CLI writes goes through {@linkcode escapeControl} (in
 * `runCli`), which shows C0 and C1 control characters, DEL and the
 * bidirectional controls as `\u001b`-style escapes, keeping only newlines,
 * tabs and the exact colour and progress sequences toolscore itself writes.
 * Markdown output escapes separately (the reports' own helper).
 *
 * Own sequences are told from data by their origin, not their shape (issue
 * 42): a file named `\r\x1b[2K\x1b[32mok` has the exact bytes of our
 * progress and colour codes. While the CLI runs ({@linkcode withOwnSequences})
 * every sequence toolscore writes goes through {@linkcode ownSequence}, which
 * prefixes it with a per-process random mark no input can know; the console
 * filter keeps a sequence only after that mark (and drops the mark), so the
 * same bytes from a trace, a file name or an error message come out escaped.
 * Outside the CLI (the library's `color: true` reports) the sequences are
 * plain, as before.
 *
 * @module
 */

/** Characters shown escaped: C0 but tab and newline, DEL, C1, and the bidi controls. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * The colour codes toolscore writes (`lib/report/color.ts` and the reports):
 * reset, bold, dim, normal intensity, red, green, yellow, default colour.
 */
// deno-lint-ignore no-control-regex
export const OWN_COLOR_SEQUENCES: RegExp = /\x1b\[(?:0|1|2|22|31|32|33|39)m/;

/** The progress line's own sequence: carriage return and erase line. */
// deno-lint-ignore no-control-regex
export const OWN_PROGRESS_SEQUENCES: RegExp = /\r\x1b\[2K/;

// A per-process mark of private-use characters around random hex: unknowable to any input.
const MARK = `\ue000${
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0"))
    .join("")
}\ue001`;
let marking = 0;

/**
 * One of toolscore's own terminal sequences (a colour code, the progress
 * line's carriage return and erase), marked as ours while the CLI runs (see
 * the module doc) so the console filter keeps it; plain otherwise.
 *
 * @param sequence The sequence, e.g. `"\x1b[31m"`.
 * @returns The sequence, marked when the CLI runs.
 *
 * @example Usage
 * ```ts
 * import { ownSequence } from "./terminal_safe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ownSequence("\x1b[31m"), "\x1b[31m"); // outside the CLI
 * ```
 */
export function ownSequence(sequence: string): string {
  return marking > 0 ? MARK + sequence : sequence;
}

/**
 * Run `fn` with toolscore's own sequences marked ({@linkcode ownSequence}), so
 * that {@linkcode escapeControl}'s `keep` keeps only marked ones.
 *
 * @param fn What to run (the CLI, a worker's lifetime).
 * @returns What `fn` returns.
 *
 * @example Usage
 * ```ts
 * import { escapeControl, OWN_COLOR_SEQUENCES, ownSequence, withOwnSequences } from "./terminal_safe.ts";
 * import assert from "node:assert/strict";
 *
 * const shown = await withOwnSequences(() =>
 *   Promise.resolve(escapeControl(`${ownSequence("\x1b[32m")}ok\x1b[32m`, { keep: [OWN_COLOR_SEQUENCES] }))
 * );
 * assert.equal(shown, "\x1b[32mok\\u001b[32m");
 * ```
 */
export async function withOwnSequences<T>(fn: () => Promise<T>): Promise<T> {
  marking++;
  try {
    return await fn();
  } finally {
    marking--;
  }
}

/** Options for {@linkcode escapeControl}. */
export interface EscapeControlOptions {
  /**
   * Sequences to leave as they are (toolscore's own colour or progress codes);
   * while the CLI runs, only when marked by {@linkcode ownSequence}.
   * @default {undefined}
   */
  keep?: readonly RegExp[];
}

const PATTERNS = new Map<string, RegExp>();

function patternFor(keep: readonly RegExp[], marked: boolean): RegExp {
  const key = keep.map((k) => k.source).join("|");
  let pattern = PATTERNS.get(`${marked}${key}`);
  if (pattern === undefined) {
    const own = keep.length === 0 ? "" : `${marked ? MARK : ""}(${key})|`;
    pattern = new RegExp(`${own}${CONTROL.source}`, "g");
    PATTERNS.set(`${marked}${key}`, pattern);
  }
  return pattern;
}

/**
 * Show control characters as escapes: `"\x1b[2J"` becomes the text `\u001b[2J`.
 * Newlines and tabs stay; so do the sequences in `keep`.
 *
 * @param text Text for a terminal.
 * @param options Sequences to keep.
 * @returns The text, safe to write to a terminal.
 *
 * @example Usage
 * ```ts
 * import { escapeControl, OWN_COLOR_SEQUENCES } from "./terminal_safe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeControl("tool \x1b]0;pwned\x07\n"), "tool \\u001b]0;pwned\\u0007\n");
 * assert.equal(escapeControl("a\u202eb"), "a\\u202eb");
 * assert.equal(escapeControl("\x1b[31mred\x1b[39m", { keep: [OWN_COLOR_SEQUENCES] }), "\x1b[31mred\x1b[39m");
 * ```
 */
export function escapeControl(text: string, options: EscapeControlOptions = {}): string {
  if (!CONTROL.test(text)) return text;
  const marked = marking > 0;
  const shown = text.replace(
    patternFor(options.keep ?? [], marked),
    (match, own: unknown) =>
      typeof own === "string" && own !== ""
        ? own
        : `\\u${match.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  // A marked sequence not kept here (colour off) leaves its mark behind: drop it.
  return marked && shown.includes(MARK) ? shown.replaceAll(MARK, "") : shown;
}
