import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { badServer } from "./_doctor.ts";
import { catalogDrift } from "../lib/doctor/drift.ts";
import { baselineText, catalogOf } from "../lib/doctor/catalog.ts";

const described = (text: string) => ({ type: "string", description: text });
const closed = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

const V1 = [
  {
    name: "search_orders",
    description: "Search the orders of a customer.",
    inputSchema: {
      type: "object",
      properties: {
        customer: described("The customer id."),
        status: described("Only this status."),
      },
      required: ["customer"],
    },
    annotations: closed,
  },
  {
    name: "refund_order",
    description: "Refund one order in full.",
    inputSchema: {
      type: "object",
      properties: { order: described("The order id.") },
      required: ["order"],
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  {
    name: "get_order",
    description: "Read one order by its id.",
    inputSchema: {
      type: "object",
      properties: { order: described("The order id.") },
      required: ["order"],
    },
    annotations: closed,
  },
];

// The server changed: a parameter removed, a required one added, a hint flipped, a tool added.
const V2 = [
  {
    ...V1[0],
    inputSchema: {
      type: "object",
      properties: { customer: described("The customer id.") },
      required: ["customer"],
    },
  },
  {
    ...V1[1],
    inputSchema: {
      type: "object",
      properties: { order: described("The order id."), reason: described("Why it is refunded.") },
      required: ["order", "reason"],
    },
  },
  { ...V1[2], annotations: { ...closed, readOnlyHint: false } },
  {
    name: "list_customers",
    description: "List every customer of the shop.",
    inputSchema: { type: "object", properties: {} },
    annotations: closed,
  },
];

Deno.test("toolscore doctor --update-baseline then --baseline: exactly the right classes, exit 1 only for breaking", async () => {
  const dir = await tempDir(".doctor_baseline_");
  try {
    const baseline = `${dir}/mcp-baseline.json`;
    const catalog = `${dir}/tools.json`;
    const server = () => badServer(["--catalog", catalog], { readable: catalog }).command;
    await Deno.writeTextFile(catalog, JSON.stringify(V1));
    const written = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--update-baseline",
      baseline,
      "--",
      ...server(),
    ]);
    assert.equal(written.code, 0, written.out);
    assert.equal(written.err, `doctor: wrote the catalog of bad to ${baseline}\n`);
    const text = await Deno.readTextFile(baseline);
    assert.ok(
      text.startsWith(
        '{\n  "baseline_version": 1,\n  "servers": {\n    "bad": {\n      "client_capabilities": [\n        "roots",\n        "sampling",\n        "elicitation"\n      ],\n      "command": ',
      ),
      text,
    );
    assert.equal(text, baselineText(JSON.parse(text).servers)); // keys sorted, two-space indented
    assert.deepEqual(Object.keys(JSON.parse(text).servers.bad.tools), [
      "get_order",
      "refund_order",
      "search_orders",
    ]);

    // Unchanged: passes.
    const same = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      baseline,
      "--",
      ...server(),
    ]);
    assert.equal(same.code, 0, same.out);
    assert.match(
      same.out,
      new RegExp(`^✓ catalog-drift +the catalog matches ${baseline.replaceAll(".", "\\.")}$`, "m"),
    );

    // Changed: two breaking, one safety, one compatible change, with their pointers.
    await Deno.writeTextFile(catalog, JSON.stringify(V2));
    const changed = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      baseline,
      "--json",
      "--",
      ...server(),
    ]);
    assert.equal(changed.code, 1);
    const drift = JSON.parse(changed.out).checks.find((c: { name: string }) =>
      c.name === "catalog-drift"
    );
    assert.equal(drift.status, "fail");
    assert.equal(drift.detail, `against ${baseline}: 2 breaking, 1 safety, 1 compatible`);
    assert.deepEqual(
      drift.findings.map((f: Record<string, string>) =>
        `${f.code} ${f.severity} ${f.class} ${f.path}: ${f.message}`
      ),
      [
        "drift.breaking fail breaking /tools/refund_order/inputSchema/properties/reason: a required parameter reason was added",
        "drift.breaking fail breaking /tools/search_orders/inputSchema/properties/status: the parameter status was removed",
        "drift.safety warn safety /tools/get_order/annotations/readOnlyHint: readOnlyHint moved from true to false",
        "drift.compatible info compatible /tools/list_customers: the tool list_customers was added",
      ],
    );

    // Only the safety and compatible changes: a warning, exit 0 (1 with --fail-on-warn).
    await Deno.writeTextFile(catalog, JSON.stringify([V1[0], V1[1], V2[2], V2[3]]));
    const safety = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      baseline,
      "--",
      ...server(),
    ]);
    assert.equal(safety.code, 0, safety.out);
    assert.match(
      safety.out,
      /^! catalog-drift +against .*: 0 breaking, 1 safety, 1 compatible\n {4}drift\.safety \/tools\/get_order\/annotations\/readOnlyHint: readOnlyHint moved from true to false\n/m,
    );
    const strict = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      baseline,
      "--fail-on-warn",
      "--",
      ...server(),
    ]);
    assert.equal(strict.code, 1);

    // Only compatible: listed, passes.
    await Deno.writeTextFile(catalog, JSON.stringify([...V1, V2[3]]));
    const compatible = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      baseline,
      "--fail-on-warn",
      "--",
      ...server(),
    ]);
    assert.equal(compatible.code, 0, compatible.out);
    assert.match(
      compatible.out,
      /^✓ catalog-drift +against .*: 0 breaking, 0 safety, 1 compatible\n {4}drift\.compatible \/tools\/list_customers: the tool list_customers was added$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore doctor refuses a missing baseline and both baseline flags with exit 2", async () => {
  const missing = await runCollect([
    "doctor",
    "--baseline",
    "testdata/mcp/no-such-baseline.json",
    "--",
    ...badServer([]).command,
  ]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /no-such-baseline\.json: file not found/);
  const both = await runCollect([
    "doctor",
    "--baseline",
    "a.json",
    "--update-baseline",
    "b.json",
    "--",
    "x",
  ]);
  assert.equal(both.code, 2);
  assert.match(both.err, /--baseline and --update-baseline are exclusive/);
});

Deno.test("catalogDrift() classifies schema changes recursively, with JSON pointers", () => {
  const tool = (inputSchema: Record<string, unknown>, annotations?: Record<string, unknown>) =>
    catalogOf({ tools: [{ name: "t", inputSchema, ...(annotations ? { annotations } : {}) }] });
  const before = tool({
    type: "object",
    properties: {
      kind: { type: "string", enum: ["a", "b"] },
      n: { type: "integer", minimum: 0, maximum: 10 },
      name: { type: "string", maxLength: 20 },
      tags: { type: "array", items: { type: "string" } },
      filter: { type: "object", properties: { q: { type: ["string", "null"] } } },
      "a/b": { type: "string" },
    },
  });
  const after = tool({
    type: "object",
    additionalProperties: false,
    properties: {
      kind: { type: "string", enum: ["a", "c"] },
      n: { type: "integer", minimum: 1, maximum: 20 },
      name: { type: "string", maxLength: 10, pattern: "^[a-z]+$" },
      tags: { type: "array", items: { type: "number" } },
      filter: { type: "object", properties: { q: { type: "string" } } },
      "a/b": { type: "string", description: "Slashes are escaped." },
    },
  });
  const changes = catalogDrift(before, after).map((c) => `${c.class} ${c.pointer}: ${c.message}`);
  const at = "/tools/t/inputSchema";
  assert.deepEqual(changes, [
    `breaking ${at}/additionalProperties: additionalProperties: false was added`,
    `breaking ${at}/properties/kind/enum: the enum value "b" was removed`,
    `compatible ${at}/properties/kind/enum: the enum value "c" was added`,
    `breaking ${at}/properties/n/minimum: minimum tightened from 0 to 1`,
    `compatible ${at}/properties/n/maximum: maximum relaxed from 10 to 20`,
    `breaking ${at}/properties/name/maxLength: maxLength tightened from 20 to 10`,
    `breaking ${at}/properties/name/pattern: a new pattern "^[a-z]+$"`,
    `breaking ${at}/properties/tags/items/type: the type changed from string to number`,
    `breaking ${at}/properties/filter/properties/q/type: the type changed from string | null to string`,
    `compatible ${at}/properties/a~1b/description: description changed`,
  ]);
  // Hints: an absent hint has its MCP default (destructiveHint and openWorldHint true).
  const hints = catalogDrift(
    tool({ type: "object" }, { readOnlyHint: false, destructiveHint: false, openWorldHint: false }),
    tool({ type: "object" }, { readOnlyHint: false }),
  );
  assert.deepEqual(hints.map((c) => [c.class, c.message]), [
    ["safety", "destructiveHint moved from false to true"],
    ["safety", "openWorldHint moved from false to true"],
  ]);
  const renamed = catalogDrift(
    catalogOf({ tools: [{ name: "search_flight", inputSchema: { type: "object" } }] }),
    catalogOf({ tools: [{ name: "search_flights", inputSchema: { type: "object" } }] }),
  );
  assert.deepEqual(renamed.map((c) => c.message), [
    "the tool search_flight was removed (renamed? closest new tool: search_flights)",
    "the tool search_flights was added",
  ]);
});
