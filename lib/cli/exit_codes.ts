/**
 * The one table of exit codes (issue 33): every code a toolscore command can
 * end with, what it means and which commands use it. The top-level `--help`
 * paragraph is written from it, and `tests/docs_tables_test.ts` checks every
 * command's "Exit codes:" paragraph and the README against it, so a code
 * cannot be used without being documented. {@linkcode EXIT} keeps the names
 * the code uses.
 *
 * @module
 */

/** One exit code. */
export interface ExitCodeDoc {
  /** The code. */
  code: number;
  /** What it means, in a few words. */
  meaning: string;
  /**
   * The commands whose `--help` must name it; absent: every command can end
   * with it (0, 2, 70, 141), or the commands that gate (1).
   */
  commands?: readonly string[];
}

/**
 * Every exit code, in numeric order.
 *
 * @example Usage
 * ```ts
 * import { EXIT_CODES } from "./exit_codes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(EXIT_CODES.map((row) => row.code), [0, 1, 2, 3, 4, 70, 130, 141, 143]);
 * ```
 */
export const EXIT_CODES: readonly ExitCodeDoc[] = [
  { code: 0, meaning: "ok" },
  { code: 1, meaning: "the gate failed" },
  { code: 2, meaning: "usage or input error" },
  { code: 3, meaning: "undecided (decide)", commands: ["decide"] },
  {
    code: 4,
    meaning: "the matrix is incomplete (agent run; rerun to finish)",
    commands: ["agent"],
  },
  { code: 70, meaning: "internal error — a bug" },
  { code: 130, meaning: "stopped by SIGINT (agent run, doctor)", commands: ["agent", "doctor"] },
  { code: 141, meaning: "the reader of the output closed it early (as with `| head`)" },
  { code: 143, meaning: "stopped by SIGTERM (agent run, doctor)", commands: ["agent", "doctor"] },
];

/**
 * The top-level help's exit-code paragraph, from {@linkcode EXIT_CODES}
 * (70 is left to the line every help ends its paragraph with).
 *
 * @returns The lines, without the line on 70.
 *
 * @example Usage
 * ```ts
 * import { exitCodesHelp } from "./exit_codes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(exitCodesHelp().join("\n"), /^Exit codes: 0 ok; 1 the gate failed; /);
 * ```
 */
export function exitCodesHelp(): string[] {
  const parts = EXIT_CODES.filter((row) => row.code !== 70).map((row) =>
    `${row.code} ${row.meaning}`
  );
  const lines: string[] = [];
  let line = "Exit codes:";
  for (const part of parts) {
    const word = `${part};`;
    if (line.length + 1 + word.length > 96) {
      lines.push(line);
      line = word;
    } else line = `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
