/**
 * What the tests need beyond Deno, as installed by `scripts/test_setup.sh` (which
 * `deno task test` runs first): each helper returns the path, or `undefined` after printing
 * one line saying why the tests that need it skip.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

// With the trailing slash: the helpers append names directly.
const DEPS = fileURLToPath(new URL("../tools/test-deps/node_modules/", import.meta.url));
const warned = new Set<string>();

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function missing(what: string): undefined {
  if (!warned.has(what)) {
    warned.add(what);
    console.warn(`skip: ${what} is not installed (run scripts/test_setup.sh)`);
  }
  return undefined;
}

/**
 * The folder of an npm package from `tools/test-deps`.
 *
 * @param name The package name, e.g. `@modelcontextprotocol/server-memory`.
 * @returns Its folder, or `undefined` when it is not installed.
 */
export function npmPackage(name: string): string | undefined {
  const dir = `${DEPS}${name}`;
  return exists(`${dir}/package.json`) ? dir : missing(`npm package ${name}`);
}

/**
 * An executable of `tools/test-deps/node_modules/.bin`.
 *
 * @param name The command, e.g. `mcp-server-everything`.
 * @returns Its path, or `undefined` when it is not installed.
 */
export function npmBin(name: string): string | undefined {
  const path = `${DEPS}.bin/${name}`;
  return exists(path) ? path : missing(`npm command ${name}`);
}

/**
 * A system program (Debian's chromium, xmllint).
 *
 * @param path Its absolute path, e.g. `/usr/bin/chromium`.
 * @returns The path, or `undefined` when it is not there.
 */
export function systemBin(path: string): string | undefined {
  return exists(path) ? path : missing(path);
}
