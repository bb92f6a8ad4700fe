import { deepEqual, equal, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { loadForbidden, Regex } from "../mod.ts";
import { checkForbidden, forbiddenRulesFromJson } from "../lib/checks/forbidden.ts";

// Inside the repository (tests run with --allow-read=.); *.tmp is ignored by git.
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".", suffix: ".tmp" };

Deno.test("checkForbidden() reports a call of a forbidden tool with index, rule and reason", () => {
  const rules = forbiddenRulesFromJson([
    { tool: "delete_user", reason: "never delete" },
    { tool: "cancel_booking" },
  ]);
  const metrics = checkForbidden([
    { tool: "search", args: { q: "x" } },
    { tool: "cancel_booking", args: { id: "B1" } },
    { tool: "delete_user", args: { id: 7 } },
  ], rules);
  deepEqual(metrics, {
    violation_count: 2,
    rule_count: 2,
    violations: [
      { index: 1, tool: "cancel_booking", args: { id: "B1" }, rule: 1, reason: null },
      { index: 2, tool: "delete_user", args: { id: 7 }, rule: 0, reason: "never delete" },
    ],
  });
});

Deno.test("checkForbidden() applies a rule only when every listed arg matches, leniently", () => {
  const rules = forbiddenRulesFromJson([
    { tool: "transfer", args: { currency: "USD", amount: { $approx: 1000, $abs: 500 } } },
  ]);
  const calls = [
    { tool: "transfer", args: { currency: " USD ", amount: 1200, memo: "x" } },
    { tool: "transfer", args: { currency: "USD", amount: 5000 } },
    { tool: "transfer", args: { amount: 1000 } },
    { tool: "transfer", args: {}, rawArgs: "{", argsError: "bad json" },
  ];
  deepEqual(checkForbidden(calls, rules).violations.map((v) => v.index), [0]);
});

Deno.test("checkForbidden() lets the first matching rule win per call", () => {
  const rules = forbiddenRulesFromJson([
    { tool: "sql", args: { q: { $regex: "drop", $flags: "i" } }, reason: "drop" },
    { tool: "sql", reason: "any sql" },
  ]);
  const metrics = checkForbidden([
    { tool: "sql", args: { q: "DROP TABLE t" } },
    { tool: "sql", args: { q: "select 1" } },
  ], rules);
  deepEqual(metrics.violations.map((v) => [v.index, v.rule, v.reason]), [
    [0, 0, "drop"],
    [1, 1, "any sql"],
  ]);
  equal(metrics.violation_count, 2);
});

Deno.test("checkForbidden() with no rules or no calls reports nothing", () => {
  deepEqual(checkForbidden([{ tool: "a" }], []), {
    violation_count: 0,
    rule_count: 0,
    violations: [],
  });
  deepEqual(checkForbidden([], forbiddenRulesFromJson([{ tool: "a" }])), {
    violation_count: 0,
    rule_count: 1,
    violations: [],
  });
});

Deno.test("forbiddenRulesFromJson() turns operators into matchers", () => {
  const [rule] = forbiddenRulesFromJson([{ tool: "x", args: { q: { $regex: "^a" } } }]);
  equal(rule?.args?.q instanceof Regex, true);
});

Deno.test("forbiddenRulesFromJson() accepts an object with a forbidden list", () => {
  deepEqual(forbiddenRulesFromJson({ forbidden: [{ tool: "rm" }] }), [{ tool: "rm" }]);
});

Deno.test("forbiddenRulesFromJson() rejects bad rules, naming the path", () => {
  throws(() => forbiddenRulesFromJson({ tool: "rm" }), /expected a list of forbidden rules/);
  throws(
    () => forbiddenRulesFromJson(["rm"], "forbidden"),
    /^InputError: forbidden\[0\]: expected a rule object/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "" }], "forbidden"),
    /forbidden\[0\]\.tool: must be a non-empty string/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "rm", why: "x" }], "forbidden"),
    /forbidden\[0\]\.why: unknown key why \(a forbidden rule has tool, args, reason\)/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "rm", args: [] }]),
    /\[0\]\.args: must be an object/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "rm", args: { $any: true } }]),
    /\[0\]\.args: \$any cannot stand for the whole arguments object/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "rm", reason: 3 }]),
    /\[0\]\.reason: must be a string/,
  );
  throws(
    () => forbiddenRulesFromJson([{ tool: "rm", args: { p: { $regexp: "x" } } }], "forbidden"),
    /forbidden\[0\]\.args\.p: unknown operator \$regexp \(did you mean \$regex\?\)/,
  );
});

Deno.test("loadForbidden() reads JSON and YAML files alike and names the file on errors", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const json = join(dir, "rules.json");
    const yaml = join(dir, "rules.yaml");
    const bad = join(dir, "bad.yaml");
    await Deno.writeTextFile(
      json,
      JSON.stringify([{ tool: "rm", args: { path: { $regex: "^/" } }, reason: "root" }]),
    );
    await Deno.writeTextFile(yaml, "- tool: rm\n  args:\n    path: {$regex: ^/}\n  reason: root\n");
    await Deno.writeTextFile(bad, "- tool: rm\n  args: {path: {$regexp: x}}\n");
    const fromJson = await loadForbidden(json);
    const fromYaml = await loadForbidden(yaml);
    equal(JSON.stringify(fromYaml), JSON.stringify(fromJson));
    deepEqual(
      checkForbidden([{ tool: "rm", args: { path: "/etc" } }], fromYaml).violation_count,
      1,
    );
    await rejects(
      loadForbidden(bad),
      (error: Error) =>
        error.message === `${bad}: [0].args.path: unknown operator $regexp (did you mean $regex?)`,
    );
    await rejects(loadForbidden(join(dir, "none.json")), /file not found/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkForbidden() reports a violation's args with credentials replaced by previews", () => {
  const key = "AKIA" + "IOSFODNN7EXAMPL2";
  const metrics = checkForbidden(
    [{ tool: "aws", args: { cmd: "delete", env: { AWS_ACCESS_KEY_ID: key } } }],
    forbiddenRulesFromJson([{ tool: "aws", args: { cmd: "delete" } }]),
  );
  deepEqual(metrics.violations[0]?.args, { cmd: "delete", env: { AWS_ACCESS_KEY_ID: "AKIA…L2" } });
});
