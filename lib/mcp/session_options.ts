/**
 * The options of `McpSession.open` (kept apart from `client.ts`
 * for its size).
 *
 * @module
 */

import type { StdioTransportOptions } from "./session_transport.ts";
import type { SessionTerms } from "./client_failure.ts";
import type { ClientCapabilityName } from "./client_capabilities.ts";

/** Options for `McpSession.open`. */
export interface McpSessionOptions extends Pick<StdioTransportOptions, "shutdownGraceMs"> {
  /**
   * Seconds each request may take; wins over the spec's `timeout_s`.
   * @default {undefined} (the spec's `timeout_s`, else 30)
   */
  timeoutS?: number;
  /**
   * Seconds the whole session may take, however many requests (a server that
   * pages `tools/list` forever is stopped).
   * @default {undefined} (no deadline)
   */
  deadlineS?: number;
  /**
   * Reads one of our environment variables (for the child's base environment and `${NAME}`).
   * @default {readEnv} (`undefined` without permission, never a prompt)
   */
  lookup?: (name: string) => string | undefined;
  /**
   * Values for `${input:ID}` references (VS Code prompts for them).
   * @default {{}}
   */
  inputs?: Readonly<Record<string, string>>;
  /**
   * More variables for a local server, over its spec's `env`.
   * @default {{}}
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Milliseconds between closing stdin, SIGTERM and SIGKILL on shutdown.
   * @default {1500}
   */
  killGraceMs?: number;
  /**
   * How messages name the settings (the library's options, or the CLI's flags).
   * @default {undefined} (the options' names)
   */
  terms?: SessionTerms;
  /**
   * The capabilities to declare as a client (and answer: roots, sampling, elicitation).
   * @default {[]}
   */
  clientCapabilities?: readonly ClientCapabilityName[];
}
