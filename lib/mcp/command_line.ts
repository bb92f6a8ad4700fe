/**
 * Command lines: split one the way a POSIX shell would, and quote tokens back
 * for a line a user can paste into a shell. (A server spec from a command line
 * is `serverSpecFromCommandLine` in `server_spec.ts`.)
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/**
 * Split a command line into tokens the way a POSIX shell would for simple
 * cases: whitespace separates, single quotes keep everything, double quotes
 * keep everything but `\"` and `\\`, and a backslash escapes the next character.
 *
 * @param line The command line.
 * @returns The tokens.
 * @throws {InputError} On an unclosed quote.
 *
 * @example Usage
 * ```ts
 * import { splitCommandLine } from "./command_line.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitCommandLine(`npx -y "my server" 'a b'`), ["npx", "-y", "my server", "a b"]);
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let inToken = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) current += line[++i];
      else current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inToken = true;
    } else if (char === "\\" && i + 1 < line.length) {
      current += line[++i];
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = "";
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (quote !== null) throw new InputError(`unclosed ${quote} in the command line`, "command");
  if (inToken) tokens.push(current);
  return tokens;
}

/**
 * Quote one token for a POSIX shell: left bare when it has only characters
 * no shell treats specially, else in single quotes (so `$VAR`, backquotes
 * and `!` stay literal when pasted).
 *
 * @param token The token.
 * @returns The quoted token.
 *
 * @example Usage
 * ```ts
 * import { shellQuote } from "./command_line.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shellQuote("--allow-read=."), "--allow-read=.");
 * assert.equal(shellQuote("$HOME/it's"), String.raw`'$HOME/it'\''s'`);
 * assert.equal(shellQuote(""), "''");
 * ```
 */
export function shellQuote(token: string): string {
  if (/^[\w@%+=:,./-]+$/.test(token)) return token;
  return `'${token.replaceAll("'", `'\\''`)}'`;
}

/**
 * A command as one line to paste into a POSIX shell ({@linkcode shellQuote} per token).
 *
 * @param command The executable and its arguments.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { shellLine } from "./command_line.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shellLine(["npx", "-y", "my server", "$X"]), `npx -y 'my server' '$X'`);
 * ```
 */
export function shellLine(command: readonly string[]): string {
  return command.map(shellQuote).join(" ");
}
