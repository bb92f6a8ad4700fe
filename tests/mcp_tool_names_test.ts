import assert from "node:assert/strict";
import fc from "fast-check";
import {
  providerToolNames,
  TOOL_NAME_PROVIDERS,
  toolNameProblems,
  type ToolNameProvider,
} from "../lib/mcp/tool_names.ts";

const RULES: Record<ToolNameProvider, RegExp> = {
  openai: /^[A-Za-z0-9_-]{1,64}$/,
  anthropic: /^[A-Za-z0-9_-]{1,64}$/,
  gemini: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
};

Deno.test("toolNameProblems() applies each provider's published rule", () => {
  assert.deepEqual(toolNameProblems("search_flights"), []);
  assert.deepEqual(toolNameProblems("get-weather_2"), []);
  assert.deepEqual(toolNameProblems("files.read"), [
    { provider: "openai", problem: 'it contains "." (allowed: letters, digits, _ and -)' },
    { provider: "anthropic", problem: 'it contains "." (allowed: letters, digits, _ and -)' },
  ]);
  assert.deepEqual(toolNameProblems("2fa_check").map((p) => [p.provider, p.problem]), [
    [
      "gemini",
      "it does not start with a letter or _ (allowed: letters, digits, _ . : and -, starting with a letter or _)",
    ],
  ]);
  assert.deepEqual(toolNameProblems("a".repeat(65)).map((p) => p.provider), [
    "openai",
    "anthropic",
    "gemini",
  ]);
  assert.match(
    toolNameProblems("a".repeat(65))[0]!.problem,
    /^it has 65 characters \(at most 64\)/,
  );
  assert.deepEqual(toolNameProblems("").map((p) => p.problem.split(" (")[0]), [
    "it is empty",
    "it is empty",
    "it is empty",
  ]);
  assert.equal(toolNameProblems("ns:tool").length, 2); // Gemini allows ':'
});

Deno.test("providerToolNames() keeps valid names, and maps the rest injectively to valid names", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.constantFrom("files.read", "files_read", "a b", "_x", "9lives"),
        ),
        { maxLength: 12 },
      ),
      fc.constantFrom(...TOOL_NAME_PROVIDERS),
      (names, provider) => {
        const map = providerToolNames(names, provider);
        assert.deepEqual([...map.keys()], [...new Set(names)]);
        const values = [...map.values()];
        assert.equal(new Set(values).size, values.length, "not injective");
        for (const [name, mapped] of map) {
          assert.match(
            mapped,
            RULES[provider],
            `${JSON.stringify(name)} → ${JSON.stringify(mapped)}`,
          );
          if (RULES[provider].test(name)) assert.equal(mapped, name);
        }
        // Deterministic, and independent of the order of the names.
        assert.deepEqual(
          providerToolNames([...names].reverse(), provider),
          new Map([...map].reverse()),
        );
      },
    ),
  );
});

Deno.test("providerToolNames() gives readable names", () => {
  const map = providerToolNames(
    ["files.read", "files_read", "web search", "x".repeat(70)],
    "openai",
  );
  assert.equal(map.get("files_read"), "files_read");
  assert.match(map.get("files.read")!, /^files_read_[0-9a-z]{7}$/);
  assert.equal(map.get("web search"), "web_search");
  assert.equal(map.get("x".repeat(70))!.length, 64);
  assert.equal(providerToolNames(["9lives"], "gemini").get("9lives"), "_9lives");
  assert.equal(providerToolNames(["ns:tool"], "gemini").get("ns:tool"), "ns:tool");
});
