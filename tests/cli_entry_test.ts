// The ways in: `deno run mod.ts …` behaves exactly as `deno run cli.ts …`, a library import of
// mod.ts starts no CLI, `deno install -g` as the README says gives the same command, and
// `--version` names the runtime and the file formats.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type CliRun, runDeno } from "./_cli.ts";
import { AGENT_RUN_SCHEMA } from "../lib/stats/runs.ts";
import { CONTRACT_VERSION } from "../lib/contract/model.ts";
import { RECEIPT_VERSION } from "../lib/receipts/model.ts";
import { SCHEMA_VERSION } from "../lib/export/schema.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

// Each exit code the CLI documents, stdout and stderr, a JSON document and the demo.
const COMMANDS: [string[], number][] = [
  [["--version"], 0],
  [["--help"], 0],
  [["demo"], 0],
  [["eval", "data/demo/gold.json", "data/demo/good.json", "data/demo/missing_call.json"], 0],
  [["eval", "data/demo/gold.json", "data/demo/good.json", "--json"], 0],
  [
    ["eval", "testdata/eval/gold_search.json", "testdata/eval/search_c.json", "--fail-under", "B"],
    1,
  ],
  [["eval", "testdata/eval/broken.json", "data/demo/good.json"], 2],
  [["eval", "--bogus"], 2],
  [["frobnicate"], 2],
  [["compare", "testdata/runs/agent_runs.jsonl"], 0],
];

Deno.test("deno run mod.ts behaves exactly as deno run cli.ts", async () => {
  for (const permissions of [["-A"], ["--no-prompt", "--allow-read"]]) {
    for (const [args, code] of COMMANDS) {
      const run = (entry: string) =>
        runDeno(["run", ...permissions, `${root}${entry}`, ...args], { cwd: root });
      const viaCli: CliRun = await run("cli.ts");
      const viaMod: CliRun = await run("mod.ts");
      const what = `${permissions.join(" ")} ${args.join(" ")}`;
      assert.equal(viaCli.code, code, `${what}: ${viaCli.err}`);
      assert.ok(viaCli.out.length + viaCli.err.length > 0, `${what} printed something`);
      assert.deepEqual(viaMod, viaCli, what);
    }
  }
});

Deno.test("importing mod.ts as a library starts no CLI, and loads cli.ts only dynamically", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-library-" });
  try {
    // A user's program, handed arguments that the CLI would act on.
    const program = `${dir}/main.ts`;
    await Deno.writeTextFile(
      program,
      `import { evaluate } from "${new URL("../mod.ts", import.meta.url).href}";\n` +
        `const result = evaluate([{ tool: "a" }], [{ tool: "a" }]);\n` +
        `console.log("library", result.grade, Deno.args.join(" "));\n`,
    );
    const result = await runDeno(
      ["run", "--no-prompt", "--config", `${root}deno.json`, "--allow-read", program, "--version"],
      { cwd: dir },
    );
    assert.deepEqual(result, { code: 0, out: "library A --version\n", err: "" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const info = await runDeno(["info", "--json", `${root}mod.ts`], { cwd: root });
  assert.equal(info.code, 0, info.err);
  const graph = JSON.parse(info.out) as {
    modules: { specifier: string; dependencies?: { specifier: string; isDynamic?: boolean }[] }[];
  };
  const modUrl = new URL("../mod.ts", import.meta.url).href;
  const mod = graph.modules.find((m) => m.specifier === modUrl)!;
  const toCli = (mod.dependencies ?? []).filter((d) => d.specifier === "./cli.ts");
  assert.deepEqual(toCli.map((d) => d.isDynamic), [true]);
});

Deno.test("toolscore --version prints the version, then Deno and every file format's version", async () => {
  const { code, out, err } = await runDeno(
    ["run", "--no-prompt", `${root}cli.ts`, "--version"],
    { cwd: root },
  );
  assert.equal(code, 0, err);
  const denoJson = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  const lines = out.trimEnd().split("\n");
  assert.equal(lines[0], `toolscore ${denoJson.version}`);
  assert.equal(
    lines[1],
    `deno ${Deno.version.deno} (v8 ${Deno.version.v8}, typescript ${Deno.version.typescript})`,
  );
  assert.deepEqual(lines.slice(2).map((line) => line.split(/ {2,}/)), [
    ["receipt", `receipt_version ${RECEIPT_VERSION}`],
    ["run record", `schema_version "${SCHEMA_VERSION}"`],
    ["agent run row", `schema "${AGENT_RUN_SCHEMA}"`],
    ["contract", `contract_version ${CONTRACT_VERSION}`],
  ]);
  // The same values the schemas we ship require.
  const schema = (name: string) => Deno.readTextFile(`${root}schemas/${name}`).then(JSON.parse);
  assert.equal((await schema("receipt.schema.json")).properties.receipt_version.const, 1);
  assert.deepEqual(
    (await schema("run-record.schema.json")).properties.schema_version.enum,
    ["1", SCHEMA_VERSION],
  );
  assert.equal((await schema("contract.schema.json")).properties.contract_version.const, 2);
});

Deno.test("the README's local deno install -g line installs a toolscore that runs as cli.ts does", async () => {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const line = readme.split("\n").find((l) =>
    l.startsWith("deno install -g -n toolscore ") && l.trimEnd().endsWith(" mod.ts")
  );
  assert.ok(line, "the README shows a local deno install -g line");
  const installRoot = await Deno.makeTempDir({ prefix: "toolscore-install-" });
  try {
    const args = line.trim().split(/\s+/).slice(1);
    const installed = await runDeno([...args.slice(0, -1), "--root", installRoot, args.at(-1)!], {
      cwd: root,
    });
    assert.equal(installed.code, 0, installed.err);
    const shim = `${installRoot}/bin/toolscore`;
    const text = await Deno.readTextFile(shim);
    for (const flag of args.filter((arg) => arg.startsWith("--allow-"))) {
      assert.ok(text.includes(flag), `the shim grants ${flag}`);
    }
    // The shim runs `deno` from PATH.
    const path = `${fileURLToPath(new URL(".", `file://${Deno.execPath()}`))}:/usr/bin:/bin`;
    for (const [cliArgs] of COMMANDS.slice(0, 6)) {
      const viaShim = await new Deno.Command(shim, {
        args: cliArgs,
        cwd: root,
        env: { NO_COLOR: "1", PATH: path },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const viaCli = await runDeno(["run", "-A", `${root}cli.ts`, ...cliArgs], { cwd: root });
      const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      assert.deepEqual(
        { code: viaShim.code, out: decode(viaShim.stdout), err: decode(viaShim.stderr) },
        viaCli,
        cliArgs.join(" "),
      );
    }
  } finally {
    await Deno.remove(installRoot, { recursive: true });
  }
});
