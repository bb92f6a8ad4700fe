// Issue 39: doctor --probe calls what a probe file lists, and doctor acts as a real client
// (roots, sampling, elicitation), against the reference server-everything from npm.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { fixture, tempDir } from "./_mcp.ts";
import { inspectServer } from "../lib/doctor/check_server.ts";
import { probesFromJson } from "../lib/doctor/probe_file.ts";
import { parseClientCapabilities } from "../lib/mcp/client_capabilities.ts";
import { readBaseline } from "../lib/doctor/catalog.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { InputError } from "../lib/base/errors.ts";

const EVERYTHING = npmBin("mcp-server-everything");

async function withProbes(
  probes: unknown,
  run: (file: string, dir: string) => Promise<void>,
  name = "probes.json",
): Promise<void> {
  const dir = await tempDir("probe");
  try {
    const file = `${dir}/${name}`;
    await Deno.writeTextFile(file, typeof probes === "string" ? probes : JSON.stringify(probes));
    await run(file, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function doctor(file: string, ...more: string[]) {
  return runCollect([
    "doctor",
    "--linger",
    "0.1",
    "--json",
    "--probe",
    file,
    ...more,
    "--",
    EVERYTHING!,
  ]);
}

interface CheckJson {
  name: string;
  status: string;
  detail: string;
  findings: { code: string; path: string }[];
  duration_s?: number;
  excerpt?: string;
}

function probeChecks(out: string): CheckJson[] {
  const report = JSON.parse(out) as { checks: CheckJson[] };
  return report.checks.filter((check) => check.name.startsWith("probe:"));
}

Deno.test("doctor --probe passes a matching echo probe on server-everything (exit 0)", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes(
    "- tool: echo\n  args: { message: hello }\n  expect_text: 'Echo: hello'\n" +
      "- tool: echo\n  args: { message: again }\n  expect_text: { $regex: '^Echo: ag' }\n",
    async (file) => {
      const run = await doctor(file);
      assert.equal(run.code, 0, run.out + run.err);
      const [first, second] = probeChecks(run.out);
      assert.equal(first!.name, "probe:echo");
      assert.equal(first!.status, "pass", first!.detail);
      assert.equal(first!.excerpt, "Echo: hello");
      assert.ok(typeof first!.duration_s === "number" && first!.duration_s >= 0);
      assert.equal(second!.name, "probe:echo#2");
      assert.equal(second!.status, "pass", second!.detail);
      // The report, probes included, validates against the schema we ship.
      const schema = JSON.parse(await Deno.readTextFile("schemas/doctor-report.schema.json"));
      const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
      assert.ok(validate(JSON.parse(run.out)), JSON.stringify(validate.errors));
    },
    "probes.yaml",
  );
});

Deno.test("doctor --probe fails on a mismatch with probe.mismatch (exit 1)", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes(
    [{ tool: "echo", args: { message: "hello" }, expect_text: "Echo: goodbye" }],
    async (file) => {
      const run = await doctor(file);
      assert.equal(run.code, 1, run.out + run.err);
      const [check] = probeChecks(run.out);
      assert.equal(check!.status, "fail");
      assert.deepEqual(check!.findings.map((f) => [f.code, f.path]), [
        ["probe.mismatch", "/tools/echo"],
      ]);
      assert.match(check!.detail, /the text does not match "Echo: goodbye": Echo: hello/);
    },
  );
});

Deno.test("doctor --probe refuses a tool without readOnlyHint unless side_effects or --allow-side-effects", async () => {
  if (EVERYTHING === undefined) return;
  // trigger-sampling-request has no annotations; doctor answers its sampling request with an error.
  const probe = { tool: "trigger-sampling-request", args: { prompt: "hi" }, expect_error: true };
  await withProbes([probe], async (file) => {
    const refused = await doctor(file);
    assert.equal(refused.code, 1);
    const [check] = probeChecks(refused.out);
    assert.equal(check!.findings[0]!.code, "probe.side-effects");
    assert.match(check!.detail, /^refused: trigger-sampling-request is not annotated readOnlyHint/);
    assert.equal(check!.excerpt, undefined, "a refused probe calls nothing");

    const allowed = await doctor(file, "--allow-side-effects");
    const [called] = probeChecks(allowed.out);
    assert.equal(called!.status, "pass", called!.detail);
    assert.match(called!.excerpt!, /doctor does not sample/);
    assert.equal(allowed.code, 0, allowed.out);
  });
  await withProbes([{ ...probe, side_effects: true }], async (file) => {
    const run = await doctor(file);
    assert.equal(probeChecks(run.out)[0]!.status, "pass");
  });
});

Deno.test("doctor --probe checks expect_structured and the outputSchema of get-structured-content", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes([
    {
      tool: "get-structured-content",
      args: { location: "Chicago" },
      expect_structured: { temperature: 36, conditions: { $regex: "rain" }, humidity: 82 },
    },
    {
      tool: "get-structured-content",
      args: { location: "New York" },
      expect_structured: { temperature: 36, conditions: { $any: true }, humidity: 82 },
    },
    { tool: "get-structured-content", args: { location: "Paris" } },
  ], async (file) => {
    const run = await doctor(file);
    assert.equal(run.code, 1);
    const [match, mismatch, invalid] = probeChecks(run.out);
    assert.equal(match!.status, "pass", match!.detail);
    assert.equal(mismatch!.findings[0]!.code, "probe.mismatch");
    assert.match(mismatch!.detail, /"temperature":33/);
    assert.equal(invalid!.findings[0]!.code, "probe.invalid-args");
    assert.match(
      invalid!.detail,
      /^not called: args do not fit get-structured-content's inputSchema/,
    );
  });
});

Deno.test("doctor --probe reads a resource and gets a prompt, and names an unknown tool", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes([
    { resource: "demo://resource/static/document/architecture.md", expect_text: { $regex: "\\w" } },
    { prompt: "args-prompt", args: { city: "Paris" }, expect_text: { $regex: "Paris" } },
    { prompt: "args-prompt" },
    { tool: "ecko" },
  ], async (file) => {
    const run = await doctor(file);
    const [resource, prompt, missing, unknown] = probeChecks(run.out);
    assert.equal(resource!.name, "probe:resource:demo://resource/static/document/architecture.md");
    assert.equal(resource!.status, "pass", resource!.detail);
    assert.equal(prompt!.name, "probe:prompt:args-prompt");
    assert.equal(prompt!.status, "pass", prompt!.detail);
    assert.equal(missing!.findings[0]!.code, "probe.invalid-args");
    assert.match(missing!.detail, /the prompt needs city/);
    assert.match(unknown!.detail, /the server lists no tool "ecko" \(did you mean echo\?\)/);
  });
});

Deno.test("doctor --probe: a probe past its timeout_s fails with probe.timeout and the next one still runs", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes([
    { tool: "trigger-long-running-operation", args: { duration: 5, steps: 5 }, timeout_s: 0.5 },
    { tool: "echo", args: { message: "after" }, expect_text: "Echo: after" },
  ], async (file) => {
    const run = await doctor(file);
    assert.equal(run.code, 1);
    const [slow, next] = probeChecks(run.out);
    assert.equal(slow!.findings[0]!.code, "probe.timeout", slow!.detail);
    assert.ok(slow!.duration_s! < 3, `took ${slow!.duration_s} s`);
    assert.equal(next!.status, "pass", next!.detail);
  });
});

Deno.test("doctor --probe-deadline bounds all probes; elicitation is declined", async () => {
  if (EVERYTHING === undefined) return;
  await withProbes([
    {
      tool: "trigger-elicitation-request",
      side_effects: true,
      expect_text: { $contains: "decline" },
    },
    { tool: "trigger-long-running-operation", args: { duration: 5, steps: 5 } },
    { tool: "echo", args: { message: "late" } },
  ], async (file) => {
    const run = await doctor(file, "--probe-deadline", "1");
    assert.equal(run.code, 1);
    const [elicit, slow, late] = probeChecks(run.out);
    assert.equal(elicit!.status, "pass", elicit!.detail);
    assert.equal(slow!.findings[0]!.code, "probe.deadline", slow!.detail);
    assert.equal(late!.findings[0]!.code, "probe.deadline");
    assert.equal(late!.detail, "not run: the probes' deadline passed");
  });
});

Deno.test("doctor declares roots, sampling and elicitation: server-everything shows its gated tools", async () => {
  if (EVERYTHING === undefined) return;
  const gated = ["get-roots-list", "trigger-elicitation-request", "trigger-sampling-request"];
  const full = await inspectServer({ command: [EVERYTHING] }, { linger: 0.1 });
  const bare = await inspectServer({ command: [EVERYTHING] }, {
    linger: 0.1,
    clientCapabilities: [],
  });
  for (const name of gated) assert.ok(full.toolNames!.includes(name), name);
  for (const name of gated) assert.ok(!bare.toolNames!.includes(name), name);
  assert.ok(full.toolNames!.length > bare.toolNames!.length);
});

Deno.test("doctor --probe of get-roots-list returns the workspace folder of a VS Code config", async () => {
  if (EVERYTHING === undefined) return;
  const dir = await tempDir("roots");
  try {
    await Deno.mkdir(`${dir}/.vscode`);
    const config = `${dir}/.vscode/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({ servers: { everything: { command: EVERYTHING } } }),
    );
    const probes = `${dir}/probes.json`;
    await Deno.writeTextFile(
      probes,
      JSON.stringify({ everything: [{ tool: "get-roots-list", expect_text: { $contains: dir } }] }),
    );
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--json",
      "--mcp-config",
      config,
      "--all",
      "--probe",
      probes,
    ]);
    const report = JSON.parse(run.out) as { servers: { checks: CheckJson[] }[] };
    const check = report.servers[0]!.checks.find((c) => c.name === "probe:get-roots-list")!;
    assert.equal(check.status, "pass", check.detail);
    assert.match(check.excerpt!, new RegExp(`URI: file://${dir.replaceAll("/", "\\/")}`));

    const none = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--json",
      "--mcp-config",
      config,
      "--client-capabilities",
      "none",
      "--probe",
      probes,
    ]);
    const [refused] = probeChecks(none.out);
    assert.match(refused!.detail, /the server lists no tool "get-roots-list"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor --update-baseline records the client capabilities it was taken with", async () => {
  if (EVERYTHING === undefined) return;
  const dir = await tempDir("caps");
  try {
    const file = `${dir}/baseline.json`;
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--client-capabilities",
      "roots",
      "--update-baseline",
      file,
      "--",
      EVERYTHING,
    ]);
    assert.equal(run.code, 0, run.out + run.err);
    const [entry] = Object.values(await readBaseline(file));
    assert.deepEqual(entry!.client_capabilities, ["roots"]);
    assert.ok(Object.hasOwn(entry!.tools, "get-roots-list"));
    assert.ok(!Object.hasOwn(entry!.tools, "trigger-sampling-request"));

    const later = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--baseline",
      file,
      "--",
      EVERYTHING,
    ]);
    const drift = later.out.split("\n").find((line) => line.includes("catalog-drift"))!;
    assert.match(
      drift,
      /taken with client capabilities roots, checked with roots,sampling,elicitation/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probesFromJson() names the place of a bad probe", () => {
  const bad: [unknown, RegExp][] = [
    [
      [{ tool: "a", resource: "b" }],
      /p\.json: \[0\]: give exactly one of tool, resource or prompt/,
    ],
    [[{ tool: "a", args: [] }], /p\.json: \[0\]\.args: args must be an object/],
    [
      [{ tool: "a", expect_text: { a: 1 } }],
      /\[0\]\.expect_text: expect_text must be a string or a \$ matcher/,
    ],
    [
      [{ tool: "a", expect_text: { $regexx: "a" } }],
      /\[0\]\.expect_text: unknown operator \$regexx/,
    ],
    [[{ tool: "a", timeout_s: 0 }], /\[0\]\.timeout_s: timeout_s must be a number/],
    [[{ resource: "r", expect_structured: {} }], /only a tool answers structuredContent/],
    [[{ prompt: "p", args: { n: 1 } }], /\[0\]\.args\.n: prompt arguments are strings/],
    [{ tool: "a" }, /p\.json: expected a list of probes/],
  ];
  for (const [value, message] of bad) assert.throws(() => probesFromJson(value, "p.json"), message);
});

Deno.test("doctor --probe: bad files and flags are usage errors (exit 2) before any server starts", async () => {
  await withProbes("- tool: echo\n  expect: x\n", async (file) => {
    const run = await runCollect(["doctor", "--probe", file, "--", ...fixture().command]);
    assert.equal(run.code, 2);
    assert.match(run.err, /probes\.yaml: \[0\]: unknown key "expect"/);
    assert.ok(!run.err.includes("    at "), "no stack trace");
  }, "probes.yaml");
  const none = await runCollect(["doctor", "--no-server", "--probe", "x.json"]);
  assert.equal(none.code, 2);
  assert.match(none.err, /--probe needs a server/);
  const lone = await runCollect(["doctor", "--allow-side-effects", "--", ...fixture().command]);
  assert.equal(lone.code, 2);
  assert.match(lone.err, /--allow-side-effects goes with --probe FILE/);
  const caps = await runCollect(["doctor", "--client-capabilities", "tasks", "--no-server"]);
  assert.equal(caps.code, 2);
  assert.match(caps.err, /--client-capabilities: unknown capability "tasks"/);
  assert.deepEqual(parseClientCapabilities("elicitation,roots"), ["roots", "elicitation"]);
});

Deno.test("probesFromJson() reads any well-formed probe and refuses anything else with an InputError", () => {
  const name = fc.string({ minLength: 1, maxLength: 12 });
  const probe = fc.record({
    kind: fc.constantFrom("tool", "resource", "prompt"),
    target: name,
    text: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    error: fc.boolean(),
    timeout: fc.option(fc.double({ min: 0.001, max: 86_400, noNaN: true }), { nil: undefined }),
  });
  fc.assert(fc.property(fc.array(probe, { maxLength: 5 }), (specs) => {
    const file = specs.map((p) => ({
      [p.kind]: p.target,
      ...(p.text === undefined ? {} : { expect_text: p.text }),
      expect_error: p.error,
      ...(p.timeout === undefined ? {} : { timeout_s: p.timeout }),
    }));
    const read = probesFromJson(file, "p.json");
    assert.deepEqual(
      read.map((p) => [p.kind, p.target, p.expectError, p.timeoutS]),
      specs.map((p) => [p.kind, p.target, p.error, p.timeout]),
    );
  }));
  // Any JSON at all: probes or an InputError, never another error.
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
    try {
      probesFromJson(value, "p.json");
    } catch (error) {
      assert.ok(error instanceof InputError, String(error));
    }
  }));
});
