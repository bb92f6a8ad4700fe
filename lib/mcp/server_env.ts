/**
 * The environment a local server starts with: a minimal base of our
 * variables, never one named like a secret unless the spec names it, and the
 * spec's `env` with `${NAME}` (and the desktop clients' `${env:NAME}`,
 * `${input:ID}`, `${workspaceFolder}`, `${userHome}`) expanded.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import type { StdioServerSpec } from "./server_spec.ts";
import type { McpClient } from "./client_dialect.ts";
import { expandForClient } from "./client_variables.ts";

/**
 * The variables a local server inherits from us when they are set: the search
 * path, home and locale, temp and cache folders, CA certificates and proxies.
 * Nothing else of ours reaches the server.
 */
export const BASE_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "DENO_DIR",
  "DENO_TLS_CA_STORE",
  "DENO_CERT",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  // Windows: a Node or Deno server cannot start without these.
  "SYSTEMROOT",
  "PATHEXT",
  "COMSPEC",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
];

/**
 * Whether a variable's name says it holds a secret (`*_KEY`, `*_TOKEN`,
 * `*_SECRET`, `*PASSWORD*`, `*CREDENTIAL*`).
 *
 * @param name The variable name.
 * @returns `true` when it must not be passed on unless named.
 *
 * @example Usage
 * ```ts
 * import { looksSecret } from "./server_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(looksSecret("OPENAI_API_KEY"), true);
 * assert.equal(looksSecret("PATH"), false);
 * ```
 */
export function looksSecret(name: string): boolean {
  return /(^|_)(KEY|TOKEN|SECRET)S?$|PASSWORD|PASSWD|CREDENTIAL/i.test(name);
}

function envReadable(name: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
  } catch {
    return true; // an odd name: say "not set", as before
  }
}

/** What `${…}` references besides our `${NAME}` resolve to (desktop clients' variables). */
export interface VariableContext {
  /** Values for VS Code's `${input:ID}` (it prompts; we take them from the caller). */
  inputs?: Readonly<Record<string, string>>;
  /** The descriptions a config gives its inputs, for the error when one is missing. */
  inputPrompts?: Readonly<Record<string, string>>;
  /** What `${workspaceFolder}` is (the folder above `.vscode` or `.cursor`). */
  workspaceFolder?: string;
  /** How the caller gives an input, for the error: the library's option or the CLI's flag. */
  inputHint?: (id: string) => string;
  /** The client whose config this is: expand as it does (`client_variables.ts`); else our rules. */
  client?: McpClient;
}

// `${NAME}`, `${env:NAME}`, `${input:ID}` and the named variables of VS Code and Cursor.
const REFERENCE = /\$\{(?:(env|input):)?([A-Za-z_/][A-Za-z0-9_.-]*)\}/g;

/**
 * The variable names a value refers to as `${NAME}` or `${env:NAME}`.
 *
 * @param value The text.
 * @returns The names, in order.
 *
 * @example Usage
 * ```ts
 * import { referencedVariables } from "./server_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(referencedVariables("${A}-${env:B}-${input:c}-${userHome}"), ["A", "B"]);
 * ```
 */
export function referencedVariables(value: string): string[] {
  const names: string[] = [];
  for (const [, kind, name] of value.matchAll(REFERENCE)) {
    if (kind === "env" || (kind === undefined && !NAMED.has(name!))) names.push(name!);
  }
  return names;
}

const NAMED = new Set([
  "workspaceFolder",
  "workspaceFolderBasename",
  "userHome",
  "pathSeparator",
  "/",
]);

function missingVariable(name: string, where: string): InputError {
  // An unset variable and one deno may not read look the same to the lookup.
  return new InputError(
    envReadable(name)
      ? `refers to \${${name}}, but ${name} is not set; export it first`
      : `refers to \${${name}}, but deno may not read ${name}; run deno with --allow-env=${name}`,
    where,
  );
}

/**
 * Replace `${NAME}` references in a value with the caller's variables, and
 * the references Cursor and VS Code write as those clients do: `${env:NAME}`,
 * `${input:ID}` (from `context.inputs`), `${workspaceFolder}`,
 * `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${/}`.
 *
 * @param value The text, e.g. `Bearer ${API_TOKEN}`.
 * @param lookup Reads one variable; `undefined` when unset.
 * @param where What the value is, for the error (`env.TOKEN`, `headers.Authorization`).
 * @param context Input values and the workspace folder.
 * @returns The expanded text.
 * @throws {InputError} Naming the variable or input when it is missing (never a value).
 *
 * @example Usage
 * ```ts
 * import { expandVariables } from "./server_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(expandVariables("Bearer ${T}", (n) => n === "T" ? "x" : undefined, "h"), "Bearer x");
 * assert.equal(expandVariables("${env:T}", (n) => n === "T" ? "x" : undefined, "h"), "x");
 * assert.throws(() => expandVariables("${NOPE}", () => undefined, "env.A"), /NOPE is not set/);
 * ```
 */
export function expandVariables(
  value: string,
  lookup: (name: string) => string | undefined,
  where: string,
  context: VariableContext = {},
): string {
  if (context.client !== undefined) {
    const ours = { ...context, client: undefined };
    return expandForClient(
      value,
      context.client,
      lookup,
      (reference) => expandVariables(reference, lookup, where, ours),
    );
  }
  return value.replace(REFERENCE, (_, kind: string | undefined, name: string) => {
    if (kind === "input") {
      const found = context.inputs?.[name];
      if (found !== undefined) return found;
      const prompt = context.inputPrompts?.[name];
      const hint = context.inputHint?.(name) ?? `give it in the inputs option ({"${name}": …})`;
      throw new InputError(
        `refers to \${input:${name}}, which the client asks for${
          prompt === undefined ? "" : ` ("${prompt}")`
        } when it starts the server; ${hint}`,
        where,
      );
    }
    if (kind === undefined && NAMED.has(name)) {
      if (name === "pathSeparator" || name === "/") return Deno.build.os === "windows" ? "\\" : "/";
      if (name === "userHome") {
        const home = lookup(Deno.build.os === "windows" ? "USERPROFILE" : "HOME");
        if (home === undefined) throw missingVariable("HOME", where);
        return home;
      }
      const folder = context.workspaceFolder;
      if (folder === undefined) {
        throw new InputError(
          `refers to \${${name}}, but the server was not read from a workspace config ` +
            "(.vscode/mcp.json or .cursor/mcp.json); write the path instead",
          where,
        );
      }
      return name === "workspaceFolder"
        ? folder
        : folder.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? folder;
    }
    const found = lookup(name);
    if (found === undefined) throw missingVariable(name, where);
    return found;
  });
}

/**
 * Read a dotenv file's text as VS Code's `envFile` does: `NAME=value` lines,
 * an optional `export `, `#` comments, single or double quotes around the
 * value (`\n` is a newline inside double quotes).
 *
 * @param text The file's text.
 * @param file The file's name, for errors.
 * @returns The variables, in order.
 * @throws {InputError} At `file:line` for a line that is not `NAME=value`.
 *
 * @example Usage
 * ```ts
 * import { parseEnvFile } from "./server_env.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseEnvFile("# db\nexport A=1\nB='x y' # note\nC=\"a\\nb\"\n", ".env"), {
 *   A: "1",
 *   B: "x y",
 *   C: "a\nb",
 * });
 * assert.throws(() => parseEnvFile("oops", ".env"), /\.env:1: expected NAME=value/);
 * ```
 */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) {
      throw new InputError(
        `expected NAME=value (got a line of ${line.length} characters)`,
        `${file}:${i + 1}`,
      );
    }
    const raw = match[2]!;
    let value: string;
    const quote = raw[0];
    if ((quote === '"' || quote === "'") && raw.indexOf(quote, 1) > 0) {
      value = raw.slice(1, raw.indexOf(quote, 1));
      if (quote === '"') value = value.replaceAll("\\n", "\n");
    } else {
      value = raw.replace(/\s+#.*$/, "").trim();
    }
    out[match[1]!] = value;
  }
  return out;
}

/** Options for {@linkcode serverEnvironment}. */
export interface ServerEnvironmentOptions extends VariableContext {
  /**
   * Variables read from the spec's `envFile` (under the spec's `env`).
   * @default {{}}
   */
  envFile?: Readonly<Record<string, string>>;
  /**
   * More variables to set (the CLI's `-e KEY=VALUE`), over everything else.
   * @default {{}}
   */
  extra?: Readonly<Record<string, string>>;
}

/**
 * The environment a local server starts with: {@linkcode BASE_ENV_NAMES} that
 * are set, then the `envFile`'s variables, then the spec's `env` (with
 * `${NAME}` expanded) over them. A variable named like a secret
 * ({@linkcode looksSecret}) is never inherited unless the spec's `env` names it.
 *
 * @param spec The server spec.
 * @param lookup Reads one of our variables; `undefined` when unset or not permitted.
 * @param options The envFile's variables, extra variables, inputs and the workspace folder.
 * @returns The complete environment for the child.
 * @throws {InputError} When a `${NAME}` in the spec's env is unset.
 *
 * @example Usage
 * ```ts
 * import { serverEnvironment } from "./server_env.ts";
 * import assert from "node:assert/strict";
 *
 * const ours: Record<string, string> = { PATH: "/bin", OPENAI_API_KEY: "sk-x", TOKEN: "t" };
 * const env = serverEnvironment({ command: ["srv"], env: { API: "${TOKEN}" } }, (n) => ours[n]);
 * assert.deepEqual(env, { PATH: "/bin", API: "t" });
 * ```
 */
export function serverEnvironment(
  spec: StdioServerSpec,
  lookup: (name: string) => string | undefined,
  options: ServerEnvironmentOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV_NAMES) {
    if (looksSecret(name)) continue;
    const value = lookup(name);
    if (value !== undefined) env[name] = value;
  }
  const context = {
    ...options,
    workspaceFolder: options.workspaceFolder ?? spec.workspaceFolder,
    client: options.client ?? spec.client,
  };
  Object.assign(env, options.envFile ?? {});
  for (const [name, value] of Object.entries(spec.env ?? {})) {
    env[name] = expandVariables(value, lookup, `server.env.${name}`, context);
  }
  Object.assign(env, options.extra ?? {});
  return env;
}

/**
 * Read one of our environment variables without prompting: `undefined` when
 * it is unset or when Deno was not given `--allow-env` for it.
 *
 * @param name The variable.
 * @returns Its value, or `undefined`.
 *
 * @example Usage
 * ```ts ignore
 * import { readEnv } from "./server_env.ts";
 *
 * const path = readEnv("PATH");
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
