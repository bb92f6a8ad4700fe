/**
 * Internal: the static imports of the heavy packages, put where `_lazy.ts`
 * finds them (`_heavy_slot.ts`). Import this module (as `mod.ts` does, or through
 * `loadHeavy()`) to make them available.
 *
 * @module
 */

import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as yaml from "js-yaml";
import * as jsonc from "jsonc-parser";
import * as fflate from "fflate";
import { lezer } from "./_lezer.ts";
import { heavySlot } from "./_heavy_slot.ts";

heavySlot.modules = { Ajv, Ajv2020, jsonc, yaml, fflate, lezer };
