/**
 * What `toolscore --version` prints: the toolscore version on the first line
 * (scripts read it), then the Deno runtime and the version of every file
 * format toolscore writes, as each file spells it.
 *
 * @module
 */

import { maxOf } from "../base/arrays.ts";
import { CONTRACT_VERSION } from "../contract/model.ts";
import { SCHEMA_VERSION } from "../export/schema.ts";
import { RECEIPT_VERSION } from "../receipts/model.ts";
import { AGENT_RUN_SCHEMA } from "../stats/runs.ts";

/**
 * The `--version` text: `toolscore 0.1.0`, the Deno version, and one line per
 * file format with the field and value that mark it.
 *
 * @param version The toolscore version (`VERSION`, from `deno.json`).
 * @param deno The runtime's versions.
 * @returns The lines, each ending in a newline.
 *
 * @example Usage
 * ```ts
 * import { versionText } from "./version.ts";
 * import assert from "node:assert/strict";
 *
 * const text = versionText("0.1.0", { deno: "2.9.6", v8: "15.0", typescript: "6.0.3" });
 * assert.match(text, /^toolscore 0\.1\.0\ndeno 2\.9\.6 \(v8 15\.0, typescript 6\.0\.3\)\n/);
 * assert.match(text, /^contract +contract_version 2$/m);
 * ```
 */
export function versionText(version: string, deno: typeof Deno.version = Deno.version): string {
  const formats: [string, string][] = [
    ["receipt", `receipt_version ${RECEIPT_VERSION}`],
    ["run record", `schema_version ${JSON.stringify(SCHEMA_VERSION)}`],
    ["agent run row", `schema ${JSON.stringify(AGENT_RUN_SCHEMA)}`],
    ["contract", `contract_version ${CONTRACT_VERSION}`],
  ];
  const width = maxOf(formats.map(([name]) => name.length));
  return [
    `toolscore ${version}`,
    `deno ${deno.deno} (v8 ${deno.v8}, typescript ${deno.typescript})`,
    ...formats.map(([name, value]) => `${name.padEnd(width)}  ${value}`),
    "",
  ].join("\n");
}
