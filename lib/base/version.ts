/**
 * The toolscore version, read from `deno.json` (a JSON module, so it needs no
 * read permission and works from JSR and from a bundle).
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };

/**
 * The toolscore version, from `deno.json`.
 *
 * @example Usage
 * ```ts
 * import { VERSION } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.match(VERSION, /^\d+\.\d+\.\d+/);
 * ```
 */
export const VERSION: string = denoJson.version;
