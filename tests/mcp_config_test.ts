import assert from "node:assert/strict";
import fc from "fast-check";
import { isLegacySse } from "../lib/mcp/server_spec.ts";
import { serverSpecFromJson, workspaceFolderOf } from "../lib/mcp/spec_from_json.ts";
import { expandVariables, parseEnvFile, serverEnvironment } from "../lib/mcp/server_env.ts";
import { shellLine, shellQuote, splitCommandLine } from "../lib/mcp/command_line.ts";

Deno.test("serverSpecFromJson() reads a VS Code config: inputs, envFile, the workspace folder", () => {
  const spec = serverSpecFromJson({
    inputs: [{ type: "promptString", id: "api-key", description: "Your API key", password: true }],
    servers: {
      files: {
        type: "stdio",
        command: "node",
        args: ["${workspaceFolder}/server.js"],
        envFile: "${workspaceFolder}/.env",
        env: { KEY: "${input:api-key}" },
      },
    },
  }, { configPath: "/home/me/app/.vscode/mcp.json" });
  assert.deepEqual(spec, {
    name: "files",
    command: ["node", "${workspaceFolder}/server.js"],
    env: { KEY: "${input:api-key}" },
    envFile: "${workspaceFolder}/.env",
    workspaceFolder: "/home/me/app",
    inputPrompts: { "api-key": "Your API key" },
  });
  assert.equal(workspaceFolderOf("/p/.cursor/mcp.json"), "/p");
  assert.equal(workspaceFolderOf("mcp.json"), ".");
});

Deno.test("expandVariables() reads ${env:NAME}, ${input:ID}, ${workspaceFolder} and ${userHome} as the clients do", () => {
  const ours: Record<string, string> = { HOME: "/home/me", TOKEN: "t0k" };
  const lookup = (name: string) => ours[name];
  const context = { inputs: { "api-key": "sk-1" }, workspaceFolder: "/w/app" };
  assert.equal(
    expandVariables(
      "${workspaceFolder}|${workspaceFolderBasename}|${userHome}|${env:TOKEN}|${TOKEN}|${input:api-key}",
      lookup,
      "x",
      context,
    ),
    "/w/app|app|/home/me|t0k|t0k|sk-1",
  );
  assert.throws(
    () =>
      expandVariables("${input:other}", lookup, "server.env.K", {
        inputPrompts: { other: "Other" },
      }),
    /^InputError: server\.env\.K: refers to \$\{input:other\}, which the client asks for \("Other"\) when it starts the server; give it in the inputs option \(\{"other": …\}\)$/,
  );
  assert.throws(
    () => expandVariables("${workspaceFolder}/x", lookup, "server.command[1]"),
    /server\.command\[1\]: refers to \$\{workspaceFolder\}, but the server was not read from a workspace config/,
  );
  assert.throws(() => expandVariables("${env:NOPE_X}", lookup, "h"), /NOPE_X is not set/);
});

Deno.test("parseEnvFile() reads dotenv lines and serverEnvironment() puts env over envFile", () => {
  const file = parseEnvFile(
    "# c\nA=1\nexport B = two words \nC=\"x\\ny\"\nD='$NOT' # note\n\n",
    ".env",
  );
  assert.deepEqual(file, { A: "1", B: "two words", C: "x\ny", D: "$NOT" });
  assert.throws(
    () => parseEnvFile("A=1\njust words\n", "conf/.env"),
    /conf\/\.env:2: expected NAME=value/,
  );
  const env = serverEnvironment({ command: ["s"], env: { A: "spec" } }, () => undefined, {
    envFile: file,
    extra: { E: "cli" },
  });
  assert.deepEqual(env, { A: "spec", B: "two words", C: "x\ny", D: "$NOT", E: "cli" });
});

Deno.test("isLegacySse() follows type: sse and a URL ending in /sse", () => {
  assert.equal(
    isLegacySse(serverSpecFromJson({ type: "sse", url: "https://x.test/events" })),
    true,
  );
  assert.equal(isLegacySse(serverSpecFromJson({ url: "https://x.test/sse" })), true);
  assert.equal(isLegacySse(serverSpecFromJson({ type: "http", url: "https://x.test/sse" })), false);
  assert.equal(isLegacySse(serverSpecFromJson({ url: "https://x.test/mcp" })), false);
});

Deno.test("shellLine() quotes so that a POSIX shell reads the tokens back unchanged", () => {
  assert.equal(shellQuote("$HOME"), "'$HOME'");
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 6 }),
      (tokens) => {
        assert.deepEqual(splitCommandLine(shellLine(tokens)), tokens);
      },
    ),
  );
});
