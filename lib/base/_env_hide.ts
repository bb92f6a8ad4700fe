/**
 * Internal: hides `process.env` as a side effect of being evaluated, so that
 * `_lezer.ts` can import it before lezer's packages (see `_env_quiet.ts`).
 *
 * @module
 */

import { hideEnv } from "./_env_quiet.ts";

hideEnv();
