/**
 * Internal: where `_heavy.ts` puts the heavy packages and `_lazy.ts` finds
 * them. A module of its own so that neither of those two imports the other
 * (`_lazy.ts` loads `_heavy.ts` dynamically).
 *
 * @module
 */

import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

/** What `_heavy.ts` registers. */
export interface HeavyModules {
  /** ajv's default (draft-07) validator class. */
  Ajv: typeof Ajv;
  /** ajv's JSON Schema 2020-12 validator class. */
  Ajv2020: typeof Ajv2020;
  /** jsonc-parser. */
  jsonc: typeof import("jsonc-parser");
  /** js-yaml. */
  yaml: typeof import("js-yaml");
  /** fflate (gzip and zip, synchronous: cassette bodies, Inspect's zipped `.eval` logs). */
  fflate: typeof import("fflate");
  /** The Python, Java and JavaScript parsers (BFCL call strings: `lib/formats/bfcl_*.ts`). */
  lezer: {
    python: typeof import("@lezer/python").parser;
    java: typeof import("@lezer/java").parser;
    javascript: typeof import("@lezer/javascript").parser;
  };
}

/** The loaded packages, once `_heavy.ts` (or `require`) has provided them. */
export const heavySlot: { modules?: HeavyModules } = {};
