/**
 * Speed of the credential scan that runs on every evaluate(): a 20-call
 * trace with ordinary arguments (the common case: the prefilter rules every
 * string out) and one with a key in every call.
 *
 * @module
 */

import type { ToolCall } from "../lib/scoring/calls.ts";
import { redactSecrets, scanCredentials } from "../lib/checks/security.ts";

const clean: ToolCall[] = Array.from({ length: 20 }, (_, i) => ({
  tool: `tool_${i % 5}`,
  args: {
    query: `what is the weather in city number ${i} tomorrow morning`,
    limit: 10,
    filters: { lang: "en", tags: ["news", "sk-learn", "ghost"] },
    url: `https://example.com/api/v1/items/${i}?expand=true`,
  },
}));

const key = "sk-proj-" + "Xy7kQ2mN9pL4".repeat(4);
const leaky: ToolCall[] = clean.map((call) => ({
  ...call,
  args: { ...call.args, headers: { Authorization: `Bearer ${key}` } },
}));

Deno.bench("scanCredentials() of a clean 20-call trace", { group: "scan", baseline: true }, () => {
  scanCredentials(clean);
});

Deno.bench(
  "scanCredentials() of a 20-call trace with a key in every call",
  { group: "scan" },
  () => {
    scanCredentials(leaky);
  },
);

Deno.bench("redactSecrets() of a 20-call trace with a key in every call", () => {
  redactSecrets(leaky);
});
