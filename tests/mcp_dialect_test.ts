// Issue 37: client configs read as their clients read them — the dialect by file name, JSONC,
// lenient keys, each client's variables — checked against a real (scripted) server that writes
// the arguments, working directory and environment it got.
import assert from "node:assert/strict";
import fc from "fast-check";
import { resolve } from "node:path";
import { clientOfConfig, MCP_CLIENTS } from "../lib/mcp/client_dialect.ts";
import { expandForClient, literalReferences } from "../lib/mcp/client_variables.ts";
import { parseProcStat } from "../lib/mcp/process_sweep.ts";
import { serverSpecFromJson } from "../lib/mcp/spec_from_json.ts";
import { readConfigServers } from "../lib/cli/doctor_config.ts";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { BAD_SERVER } from "./_doctor.ts";

const CIRCLECI = "testdata/mcp/configs/circleci/.vscode/mcp.json";

Deno.test("clientOfConfig() picks the dialect by file name, and VS Code by a top-level servers", () => {
  const cases: [string, string | undefined][] = [
    ["/home/me/Library/Application Support/Claude/claude_desktop_config.json", "claude-desktop"],
    ["proj/.mcp.json", "claude-code"],
    ["proj/.cursor/mcp.json", "cursor"],
    [".vscode/mcp.json", "vscode"],
    ["/home/me/.gemini/settings.json", "gemini-cli"],
    ["globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", "cline"],
    ["servers.json", undefined],
    ["proj/mcp.json", undefined],
    ["proj/settings.json", undefined],
  ];
  for (const [path, client] of cases) assert.equal(clientOfConfig(path), client, path);
  assert.equal(clientOfConfig("servers.json", { servers: {} }), "vscode");
});

Deno.test("readConfigServers() reads the CircleCI README's VS Code block (JSONC) verbatim", async () => {
  const text = await Deno.readTextFile(CIRCLECI);
  assert.match(text, /^\{\n {2}\/\/ /); // it starts with a `//` comment
  const [entry, ...rest] = await readConfigServers(CIRCLECI);
  assert.equal(rest.length, 0);
  assert.equal(entry!.name, "circleci-mcp-server");
  assert.deepEqual(entry!.spec, {
    name: "circleci-mcp-server",
    command: ["npx", "-y", "@circleci/mcp-server-circleci@latest"],
    env: {
      CIRCLECI_TOKEN: "${input:circleci-token}",
      CIRCLECI_BASE_URL: "${input:circleci-base-url}",
    },
    workspaceFolder: resolve("testdata/mcp/configs/circleci"),
    client: "vscode",
    configNotes: [],
    inputPrompts: {
      "circleci-token": "CircleCI API Token",
      "circleci-base-url": "CircleCI Base URL",
    },
  });
  const run = await runCollect(["doctor", "--no-server", "--mcp-config", CIRCLECI]);
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /^✓ config +read as VS Code reads it$/m);
  // Read as Claude Code reads .mcp.json, the same text is refused where the comment is.
  await assert.rejects(
    () => readConfigServers(CIRCLECI, { client: "claude-code" }),
    /mcp\.json:2:3: invalid JSON \(InvalidCommentToken\)/,
  );
});

Deno.test("toolscore doctor --mcp-config reads a VS Code file with comments and a trailing comma", async () => {
  const dir = await tempDir(".dialect_jsonc_");
  try {
    await Deno.mkdir(`${dir}/.cursor`);
    await Deno.writeTextFile(
      `${dir}/.cursor/mcp.json`,
      '{\n  // a comment\n  "mcpServers": {"s": {"command": "srv", "args": ["a",],},},\n}\n',
    );
    const [entry] = await readConfigServers(`${dir}/.cursor/mcp.json`);
    assert.deepEqual(entry!.spec && "command" in entry!.spec && entry!.spec.command, ["srv", "a"]);
    assert.equal(entry!.spec?.client, "cursor");
    const run = await runCollect([
      "doctor",
      "--no-server",
      "--mcp-config",
      `${dir}/.cursor/mcp.json`,
    ]);
    assert.equal(run.code, 0, run.err);
    // Another name with a top-level `servers` is VS Code's, comments and all; without it, JSON.
    await Deno.writeTextFile(`${dir}/team.json`, '{"servers": {"s": {"command": "srv"}}, // x\n}');
    const [team] = await readConfigServers(`${dir}/team.json`);
    assert.equal(team!.spec?.client, "vscode");
    await Deno.writeTextFile(
      `${dir}/other.json`,
      '{"mcpServers": {"s": {"command": "srv"}}, // x\n}',
    );
    await assert.rejects(
      () => readConfigServers(`${dir}/other.json`),
      /other\.json:1:\d+: invalid JSON \(/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const LENIENT: [string, unknown][] = [
  ["timeout", 60],
  ["trust", true],
  ["includeTools", ["a"]],
  ["excludeTools", ["b"]],
  ["dev", { watch: "src/**/*.ts" }],
  ["sandboxEnabled", true],
  ["sandbox", { network: false }],
];

for (const [key, value] of LENIENT) {
  Deno.test(`serverSpecFromJson() notes a client's ${key} and does not honour it; a spec's server: refuses it`, () => {
    const entry = { command: "srv", [key]: value };
    const spec = serverSpecFromJson({ mcpServers: { s: entry } }, {
      path: "",
      client: "gemini-cli",
    });
    assert.deepEqual(spec.configNotes?.map((note) => [note.status, note.path]), [
      ["note", `mcpServers.s.${key}`],
    ]);
    assert.match(
      spec.configNotes![0]!.message,
      new RegExp(`^${key} is Gemini CLI's setting; doctor reads it and does not honour it`),
    );
    assert.equal(spec.timeoutS, undefined); // a timeout is never converted into ours
    assert.throws(
      () => serverSpecFromJson({ name: "s", ...entry }, { path: "server" }),
      new RegExp(`server\\.${key}: unknown key`),
    );
  });
}

Deno.test("serverSpecFromJson() reads Gemini CLI's httpUrl as Streamable HTTP and its url as SSE", () => {
  const http = serverSpecFromJson({ httpUrl: "http://127.0.0.1:1/mcp", timeout: 5000 }, {
    client: "gemini-cli",
  });
  assert.deepEqual([("url" in http) && http.url, "transport" in http && http.transport], [
    "http://127.0.0.1:1/mcp",
    "streamable-http",
  ]);
  const sse = serverSpecFromJson({ url: "http://127.0.0.1:1/events" }, { client: "gemini-cli" });
  assert.equal("transport" in sse && sse.transport, "sse");
  assert.throws(() => serverSpecFromJson({ httpUrl: "http://x/mcp" }), /httpUrl: unknown key/);
});

Deno.test("toolscore doctor --all: one bad entry fails alone, the others are checked", async () => {
  const dir = await tempDir(".dialect_all_");
  try {
    const config = `${dir}/cline_mcp_settings.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          good: { command: Deno.execPath(), args: ["run", "--no-prompt", BAD_SERVER], timeout: 60 },
          broken: { command: "srv", args: [1] },
        },
      }),
    );
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--all",
      "--json",
      "--mcp-config",
      config,
    ]);
    assert.equal(run.code, 1, run.err);
    const report = JSON.parse(run.out) as {
      servers: {
        name: string;
        worst: string;
        checks: { name: string; status: string; detail: string }[];
      }[];
    };
    const byServer = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    assert.equal(byServer.good!.checks.find((c) => c.name === "server-start")?.status, "pass");
    const config0 = byServer.good!.checks.find((c) => c.name === "config")!;
    assert.equal(config0.status, "pass");
    assert.match(
      config0.detail,
      /^read as Cline reads it; note: mcpServers\.good\.timeout: timeout is Cline's setting/,
    );
    assert.deepEqual(byServer.broken!.checks.map((c) => [c.name, c.status]), [["config", "fail"]]);
    assert.match(
      byServer.broken!.checks[0]!.detail,
      /cline_mcp_settings\.json: mcpServers\.broken\.args\[0\]: expected a string/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

interface Dump {
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

// Write `file` (relative to a scratch folder) with one server that dumps what it got; run doctor
// on it (with these flags) and return the dump and the config check.
async function dialectRun(
  file: string,
  entry: (dump: string, server: string[]) => Record<string, unknown>,
  flags: string[] = [],
  top: Record<string, unknown> = {},
  key = "mcpServers",
): Promise<{ dump: Dump; config: { status: string; detail: string } | undefined; code: number }> {
  const dir = await tempDir(".dialect_vars_");
  try {
    const path = `${dir}/${file}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    const dump = `${dir}/dump.json`;
    const server = [
      "run",
      "--no-prompt",
      `--allow-write=${dump}`,
      "--allow-env",
      "--allow-read",
      resolve(BAD_SERVER),
      "--dump",
      dump,
    ];
    await Deno.writeTextFile(
      path,
      JSON.stringify({ ...top, [key]: { s: entry(dump, server) } }, null, 2),
    );
    // A relative config path, as a user types it.
    const relative = path.slice(Deno.cwd().length + 1);
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--json",
      "--mcp-config",
      relative,
      ...flags,
    ]);
    const report = JSON.parse(run.out) as {
      checks: { name: string; status: string; detail: string }[];
    };
    return {
      dump: JSON.parse(await Deno.readTextFile(dump)),
      config: report.checks.find((c) => c.name === "config"),
      code: run.code,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.env.set("TS37_SET", "s3t");
Deno.env.delete("TS37_UNSET");

Deno.test("Claude Code (.mcp.json): ${VAR} and ${VAR:-default} expand in args and env", async () => {
  const { dump, config } = await dialectRun(".mcp.json", (_, server) => ({
    command: Deno.execPath(),
    args: [...server, "${TS37_SET}", "${TS37_UNSET:-fallback}"],
    env: { A: "${TS37_SET}", B: "x-${TS37_UNSET:-dflt}-y" },
  }));
  assert.deepEqual(dump.args.slice(-2), ["s3t", "fallback"]);
  assert.equal(dump.env.A, "s3t");
  assert.equal(dump.env.B, "x-dflt-y");
  assert.equal(config?.status, "pass");
});

Deno.test("Claude Code (.mcp.json): an unset ${VAR} without a default fails server-start", async () => {
  const dir = await tempDir(".dialect_unset_");
  try {
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      JSON.stringify({ mcpServers: { s: { command: "srv", env: { K: "${TS37_UNSET}" } } } }),
    );
    const run = await runCollect(["doctor", "--mcp-config", `${dir}/.mcp.json`]);
    assert.equal(run.code, 1);
    assert.match(
      run.out,
      /✗ server-start +server\.env\.K: refers to \$\{TS37_UNSET\}, but TS37_UNSET is not set/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Claude Desktop: ${VAR} reaches the server as written, with a warning", async () => {
  const { dump, config } = await dialectRun("claude_desktop_config.json", (_, server) => ({
    command: Deno.execPath(),
    args: server,
    env: { TOKEN: "${TS37_SET}" },
  }));
  assert.equal(dump.env.TOKEN, "${TS37_SET}");
  assert.equal(config?.status, "warn");
  assert.match(
    config!.detail,
    /warn: mcpServers\.s\.env\.TOKEN: Claude Desktop passes \$\{TS37_SET\} to the server as written \(it expands no variables\); write the value itself/,
  );
});

Deno.test("Cline: nothing expands, with a warning", async () => {
  const { dump, config } = await dialectRun("cline_mcp_settings.json", (_, server) => ({
    command: Deno.execPath(),
    args: server,
    env: { TOKEN: "${env:TS37_SET}" },
  }));
  assert.equal(dump.env.TOKEN, "${env:TS37_SET}");
  assert.equal(config?.status, "warn");
});

Deno.test("VS Code: ${workspaceFolder} is absolute (the folder above .vscode/) from a relative path and with cwd", async () => {
  let folder = "";
  const { dump, config } = await dialectRun(
    ".vscode/mcp.json",
    (dumpFile, server) => {
      folder = dumpFile.slice(0, dumpFile.lastIndexOf("/"));
      Deno.mkdirSync(`${folder}/sub`);
      return {
        type: "stdio",
        command: Deno.execPath(),
        args: [
          ...server,
          "${workspaceFolder}/data",
          "${workspaceRoot}",
          "${cwd}",
          "${workspaceFolderBasename}",
        ],
        cwd: "${workspaceFolder}/sub",
        env: { HOME_DIR: "${userHome}", FROM_ENV: "${env:TS37_SET}", PLAIN: "${TS37_SET}" },
      };
    },
    [],
    {},
    "servers",
  );
  // The scratch folder is gone by now; its name is still known.
  assert.ok(folder.startsWith("/"), folder);
  assert.deepEqual(dump.args.slice(-4), [
    `${folder}/data`,
    folder,
    Deno.cwd(),
    folder.split("/").pop(),
  ]);
  assert.equal(dump.cwd, `${folder}/sub`);
  assert.equal(dump.env.HOME_DIR, Deno.env.get("HOME"));
  assert.equal(dump.env.FROM_ENV, "s3t");
  assert.equal(dump.env.PLAIN, "${TS37_SET}"); // VS Code knows no such variable: as written
  assert.equal(config?.status, "warn");
  assert.match(
    config!.detail,
    /VS Code passes \$\{TS37_SET\} to the server as written \(it expands \$\{env:NAME\}, not \$\{TS37_SET\}\); write \$\{env:TS37_SET\}/,
  );
});

Deno.test("Cursor: ${env:NAME}, ${userHome} and ${workspaceFolder} expand", async () => {
  const { dump, config } = await dialectRun(".cursor/mcp.json", (_, server) => ({
    command: Deno.execPath(),
    args: [...server, "${userHome}", "${pathSeparator}"],
    env: { T: "${env:TS37_SET}" },
  }));
  assert.deepEqual(dump.args.slice(-2), [Deno.env.get("HOME"), "/"]);
  assert.equal(dump.env.T, "s3t");
  assert.equal(config?.status, "pass");
});

Deno.test("Gemini CLI (.gemini/settings.json): $VAR and ${VAR} expand; trust is noted", async () => {
  const { dump, config } = await dialectRun(".gemini/settings.json", (_, server) => ({
    command: Deno.execPath(),
    args: [...server, "$TS37_SET", "${TS37_SET}"],
    env: { T: "pre-$TS37_SET" },
    trust: true,
  }));
  assert.deepEqual(dump.args.slice(-2), ["s3t", "s3t"]);
  assert.equal(dump.env.T, "pre-s3t");
  assert.equal(config?.status, "pass");
  assert.match(config!.detail, /note: mcpServers\.s\.trust/);
});

Deno.test("--client overrides the file name; other files keep today's rules", async () => {
  const desktop = await dialectRun("servers.json", (_, server) => ({
    command: Deno.execPath(),
    args: server,
    env: { T: "${TS37_SET}" },
  }), ["--client", "claude-desktop"]);
  assert.equal(desktop.dump.env.T, "${TS37_SET}");
  assert.equal(desktop.config?.status, "warn");
  const ours = await dialectRun("servers.json", (_, server) => ({
    command: Deno.execPath(),
    args: server,
    env: { T: "${TS37_SET}" },
  }));
  assert.equal(ours.dump.env.T, "s3t");
  assert.equal(ours.config, undefined);
  const bad = await runCollect(["doctor", "--client", "vim", "--mcp-config", "x.json"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.err,
    /--client vim: unknown client; use one of claude-desktop, claude-code, cursor, vscode, gemini-cli, cline/,
  );
});

Deno.test("expandForClient() leaves text without a reference unchanged, and Claude Desktop's always", () => {
  const lookup = (name: string) => `<${name}>`;
  const base = (reference: string) => `[${reference}]`;
  fc.assert(
    fc.property(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(...MCP_CLIENTS),
      (text, client) => {
        assert.equal(expandForClient(text, "claude-desktop", lookup, base), text);
        assert.equal(expandForClient(text, "cline", lookup, base), text);
        if (!text.includes("$")) assert.equal(expandForClient(text, client, lookup, base), text);
      },
    ),
  );
  // Every reference Claude Desktop leaves as written is named in a warning.
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,8}$/), { maxLength: 5 }),
      (names) => {
        const text = names.map((name) => `x\${${name}}`).join(" ");
        assert.deepEqual(
          literalReferences(text, "claude-desktop"),
          names.map((name) => `\${${name}}`),
        );
      },
    ),
  );
});

Deno.test("parseProcStat() reads the fields after the command name, whatever the name holds", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 15 }).filter((name) => !name.includes("\n")),
      fc.nat(),
      fc.nat(),
      fc.nat(),
      (comm, ppid, pgrp, session) => {
        const line = `4242 (${comm}) S ${ppid} ${pgrp} ${session} 34816 4242 4194304 100 0`;
        assert.deepEqual(parseProcStat(line), { state: "S", ppid, pgrp, session });
      },
    ),
  );
  assert.equal(parseProcStat("garbage"), null);
});
