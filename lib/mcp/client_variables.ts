/**
 * Variables in a client config, expanded as that client expands them (the
 * rules and their sources: `client_dialect.ts`). Claude Code reads `${VAR}`
 * and `${VAR:-default}`; Gemini CLI `$VAR` and `${VAR}`; VS Code and Cursor
 * their own variables (`${env:NAME}`, `${workspaceFolder}`…; VS Code also
 * `${input:ID}`, `${workspaceRoot}` and `${cwd}`), leaving any other
 * `${NAME}` as written; Claude Desktop and Cline expand nothing. What a
 * client leaves as written reaches the server as written, and reading the
 * config warns about it ({@linkcode literalReferences}).
 *
 * @module
 */

import type { McpClient } from "./client_dialect.ts";
import { InputError } from "../base/errors.ts";

// VS Code's and Cursor's own variables (besides `env:` and `input:`), as our default rules read them.
const EDITOR_NAMED = new Set([
  "workspaceFolder",
  "workspaceFolderBasename",
  "userHome",
  "pathSeparator",
  "/",
]);
const EDITOR_REFERENCE = /\$\{(?:(env|input):)?([A-Za-z_/][A-Za-z0-9_.-]*)\}/g;
const CLAUDE_CODE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const GEMINI_REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;
const ANY_REFERENCE = /\$\{[^}\s]{1,200}\}/g;

function editorKnows(client: McpClient, kind: string | undefined, name: string): boolean {
  if (kind === "env") return true;
  if (kind === "input") return client === "vscode";
  if (EDITOR_NAMED.has(name)) return true;
  return client === "vscode" && (name === "workspaceRoot" || name === "cwd");
}

// VS Code's `${cwd}`: the folder the editor started in, here ours.
function ourFolder(): string {
  try {
    return Deno.cwd();
  } catch {
    throw new InputError(
      "refers to ${cwd}, but deno may not read the working directory; run deno with --allow-read",
      "server",
    );
  }
}

/**
 * Expand a value as `client` does. `base` expands one reference by our own
 * rules (it knows `${env:NAME}`, `${input:ID}` and the editors' named
 * variables, and throws the error for one that is missing); `lookup` reads
 * one variable.
 *
 * @param value The text.
 * @param client The client.
 * @param lookup Reads one variable; `undefined` when unset.
 * @param base Expands one reference (`${env:NAME}`, `${workspaceFolder}`…) by our rules.
 * @returns The expanded text.
 * @throws {InputError} From `base`, for a variable that is unset (with no default); for
 *   VS Code's `${cwd}` when deno may not read the working directory.
 *
 * @example Usage
 * ```ts
 * import { expandForClient } from "./client_variables.ts";
 * import assert from "node:assert/strict";
 *
 * const base = (ref: string) => ref === "${env:T}" ? "t0k" : "?";
 * const lookup = (name: string) => (name === "T" ? "t0k" : undefined);
 * assert.equal(expandForClient("${T}|${U:-none}", "claude-code", lookup, base), "t0k|none");
 * assert.equal(expandForClient("${T}", "claude-desktop", lookup, base), "${T}");
 * assert.equal(expandForClient("$T/${T}", "gemini-cli", lookup, base), "t0k/t0k");
 * assert.equal(expandForClient("${env:T} ${T}", "vscode", lookup, base), "t0k ${T}");
 * ```
 */
export function expandForClient(
  value: string,
  client: McpClient,
  lookup: (name: string) => string | undefined,
  base: (reference: string) => string,
): string {
  switch (client) {
    case "claude-desktop":
    case "cline":
      return value;
    case "claude-code":
      return value.replace(CLAUDE_CODE_REFERENCE, (_, name: string, fallback?: string) => {
        const found = lookup(name);
        if (found !== undefined) return found;
        return fallback !== undefined ? fallback : base(`\${env:${name}}`);
      });
    case "gemini-cli":
      return value.replace(GEMINI_REFERENCE, (_, braced?: string, bare?: string) => {
        const name = (braced ?? bare)!;
        return lookup(name) ?? base(`\${env:${name}}`);
      });
    case "vscode":
    case "cursor":
      return value.replace(EDITOR_REFERENCE, (whole, kind: string | undefined, name: string) => {
        if (!editorKnows(client, kind, name)) return whole;
        if (kind === undefined && name === "workspaceRoot") return base("${workspaceFolder}");
        if (kind === undefined && name === "cwd") return ourFolder();
        return base(whole);
      });
  }
}

/**
 * The `${…}` references in a value that `client` leaves as written (so the
 * server gets them literally): every one for Claude Desktop and Cline, those
 * that are none of the editor's variables for VS Code and Cursor.
 *
 * @param value The text.
 * @param client The client.
 * @returns The references, in order (at most 20).
 *
 * @example Usage
 * ```ts
 * import { literalReferences } from "./client_variables.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(literalReferences("Bearer ${TOKEN}", "claude-desktop"), ["${TOKEN}"]);
 * assert.deepEqual(literalReferences("${env:A} ${B} ${cwd}", "vscode"), ["${B}"]);
 * assert.deepEqual(literalReferences("${A:-x}", "claude-code"), []);
 * ```
 */
export function literalReferences(value: string, client: McpClient): string[] {
  if (client === "claude-desktop" || client === "cline") {
    return [...value.matchAll(ANY_REFERENCE)].slice(0, 20).map((match) => match[0]);
  }
  if (client !== "vscode" && client !== "cursor") return [];
  const found: string[] = [];
  for (const match of value.matchAll(EDITOR_REFERENCE)) {
    if (!editorKnows(client, match[1], match[2]!)) found.push(match[0]);
    if (found.length === 20) break;
  }
  return found;
}
