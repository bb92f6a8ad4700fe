// Issue 31: a key with `"`, `\`, `&` and non-ASCII characters, echoed by a scripted model into
// tool arguments and written to disk by the reference memory server, appears nowhere under the
// output folder, on stdout or on stderr, in any form: raw, JSON-escaped, URL-encoded, base64.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer, serveJson } from "./_model_wire.ts";
import {
  CONTRACTS,
  filesUnder,
  fixtureServer,
  readRows,
  waitNoProcesses,
  writeSpec,
} from "./_agent.ts";
import fc from "fast-check";
import { Redactor } from "../lib/agent/keys.ts";
import { scrubFolder } from "../lib/agent/scrub_work.ts";

function base64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}

// The forms the issue lists, computed here without the code under test.
function forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const std = base64(bytes);
  const url = std.replaceAll("+", "-").replaceAll("/", "_");
  const out = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
    encodeURIComponent(secret),
    std,
    std.replace(/=+$/, ""),
    url,
    url.replace(/=+$/, ""),
  ];
  // Inside longer data at byte offsets 1 and 2: the characters that hold only the secret's bits.
  for (const offset of [1, 2]) {
    const inner = base64(new Uint8Array([...new Uint8Array(offset).fill(0x41), ...bytes]));
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    out.push(
      inner.slice(start, end),
      inner.slice(start, end).replaceAll("+", "-").replaceAll("/", "_"),
    );
  }
  return out.filter((form) => form.length >= 8);
}

function latin1(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
}

function assertNowhere(label: string, haystack: string, secrets: string[]) {
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      assert.ok(
        !haystack.includes(latin1(new TextEncoder().encode(form))),
        `${label} holds ${form}`,
      );
    }
  }
}

Deno.test("agent run: a key echoed into tool arguments and the memory server's file is hidden everywhere", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_redaction");
  const armKey = `sk-"quo\\te&amp-${crypto.randomUUID().slice(0, 8)}`;
  const planted = `plänted-"\\&-秘密-${crypto.randomUUID().slice(0, 8)}`;
  // A scripted model that echoes the key it was sent, and the planted value, everywhere it can.
  const model = serveJson((body, request) => {
    const key = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const messages = body.messages as Record<string, unknown>[];
    const turn = messages.filter((m) => m.role === "assistant").length;
    const calls = [
      [{
        name: "create_entities",
        args: {
          entities: [{
            name: `creds ${key}`,
            entityType: "secret",
            observations: [key, planted, btoa(key), encodeURIComponent(planted)],
          }],
        },
      }],
      [{ name: "read_graph", args: {} }],
    ][turn];
    const message = calls === undefined
      ? { role: "assistant", content: `I stored ${key} and ${planted}.` }
      : {
        role: "assistant",
        content: `echo ${JSON.stringify(key)}`,
        tool_calls: calls.map((call, i) => ({
          id: `call_${turn}_${i}`,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      };
    return Response.json({
      id: `c${turn}`,
      model: "gpt-echo",
      choices: [{ index: 0, message, finish_reason: calls ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
  });
  // An endpoint that answers 401 with the key in its body: the error row and message hide it.
  const refusing = serveJson((_, request) =>
    new Response(`{"error":"bad key ${request.headers.get("authorization")}"}`, { status: 401 })
  );
  Deno.env.set("TOOLSCORE_REDACT_KEY", armKey);
  Deno.env.set("TOOLSCORE_PLANTED", planted);
  try {
    const spec = await writeSpec(dir, {
      server: {
        command: [bin],
        env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
        timeout_s: 30,
      },
      keys: ["TOOLSCORE_PLANTED"],
      arms: [
        {
          id: "echo",
          provider: "openai",
          model: "gpt-echo",
          base_url: `${model.url}/v1`,
          api_key_env: "TOOLSCORE_REDACT_KEY",
        },
        {
          id: "refused",
          provider: "openai",
          model: "gpt-echo",
          base_url: `${refusing.url}/v1`,
          api_key_env: "TOOLSCORE_REDACT_KEY",
        },
      ],
      tasks: [{
        id: "remember",
        prompt: "Remember the credentials",
        contract: `${CONTRACTS}contract_memory.json`,
      }],
      repeats: 2,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out]);
    const json = await runCollect(["agent", "run", spec, "-o", out, "--json", "--retry-errors"]);
    assert.equal(run.code, 4, run.err);
    const rows = await readRows(out);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows.filter((r) => r.arm_id === "echo").map((r) => r.outcome), [
      "pass",
      "pass",
    ]);
    assert.ok(rows.filter((r) => r.arm_id === "refused").every((r) => r.status === "error"));
    // The memory server did write the graph, and it is redacted in place, still JSON.
    const memory = await Deno.readTextFile(`${dir}/runs/echo/remember-0.work/memory.jsonl`);
    assert.match(memory, /\*\*\*/);
    for (const line of memory.trim().split("\n")) JSON.parse(line);
    const files = await filesUnder(dir);
    assert.ok(files.length >= 8, files.join("\n"));
    for (const file of files) {
      if (file.endsWith("agent.json")) continue; // the spec names variables, never values
      assertNowhere(file, latin1(await Deno.readFile(file)), [armKey, planted]);
    }
    for (
      const [label, text] of Object.entries({
        run_out: run.out,
        run_err: run.err,
        json_out: json.out,
        json_err: json.err,
      })
    ) {
      assertNowhere(label, text, [armKey, planted]);
    }
    // The final table shows the error, redacted.
    assert.match(run.out, /2× .*bad key Bearer \*\*\*/);
    for (const row of rows.filter((r) => r.arm_id === "refused")) {
      assert.match(String(row.error), /bad key Bearer \*\*\*/);
    }
  } finally {
    Deno.env.delete("TOOLSCORE_REDACT_KEY");
    Deno.env.delete("TOOLSCORE_PLANTED");
    await model.close();
    await refusing.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scrubFolder() redacts text files in place, deletes a binary file holding a secret, leaves the rest", async () => {
  const dir = await Deno.makeTempDir();
  const secret = 'tok-ß"\\&-0123456789';
  try {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/sub/a.json`, JSON.stringify({ v: secret, w: btoa("xy") }));
    await Deno.writeFile(
      `${dir}/b.bin`,
      new Uint8Array([0, 255, ...new TextEncoder().encode(encodeURIComponent(secret)), 0]),
    );
    await Deno.writeFile(`${dir}/c.bin`, new Uint8Array([0, 255, 1, 2]));
    const result = await scrubFolder(dir, new Redactor([secret]));
    assert.deepEqual(result.redacted, ["sub/a.json"]);
    assert.deepEqual(result.deleted.map((d) => d.path), ["b.bin"]);
    assert.equal(
      await Deno.readTextFile(`${dir}/sub/a.json`),
      JSON.stringify({ v: "***", w: "eHk=" }),
    );
    assert.equal((await Deno.readFile(`${dir}/c.bin`)).length, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Redactor hides base64 of a secret at any byte offset inside longer data", () => {
  const secret = 'key-with-é-"-\\-&-42';
  const redactor = new Redactor([secret]);
  for (const prefix of ["", "a", "ab", "abc"]) {
    const encoded = base64(new TextEncoder().encode(`${prefix}${secret}!tail`));
    const hidden = redactor.text(encoded);
    assert.notEqual(hidden, encoded);
    assertNowhere(`prefix ${JSON.stringify(prefix)}`, hidden, [secret]);
  }
});

Deno.test("agent run hides a secret in its error and in the TOOLSCORE_DEBUG stack", async () => {
  const dir = await tempDir("agent_redaction_debug");
  const secret = `dbg-"\\&-ü-${crypto.randomUUID().slice(0, 8)}`;
  Deno.env.set("TOOLSCORE_PLANTED", secret);
  Deno.env.set("TOOLSCORE_DEBUG", "1");
  try {
    const spec = await writeSpec(dir, {
      server: { command: ["true"] },
      keys: ["TOOLSCORE_PLANTED"],
      arms: [{ id: "a", provider: "openai", model: "m", base_url: "http://127.0.0.1:9/v1" }],
    });
    // An output under a file cannot be made: the error names the path, which holds the secret.
    await Deno.writeTextFile(`${dir}/file`, "");
    const run = await runCollect(["agent", "run", spec, "-o", `${dir}/file/${secret}/runs.jsonl`]);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /\*\*\*/);
    assert.match(run.err, /\n\s+at /); // the stack was printed
    assertNowhere("stderr", run.err + run.out, [secret]);
  } finally {
    Deno.env.delete("TOOLSCORE_PLANTED");
    Deno.env.delete("TOOLSCORE_DEBUG");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Redactor property: a secret inside any text, JSON or base64 of it, at any offset, is gone", () => {
  const secretArb = fc.string({ unit: "grapheme", minLength: 8, maxLength: 24 })
    .filter((s) => !s.includes("*") && new TextEncoder().encode(s).length >= 8);
  fc.assert(
    fc.property(
      secretArb,
      fc.string({ maxLength: 12 }),
      fc.string({ maxLength: 12 }),
      (s, p, q) => {
        const redactor = new Redactor([s]);
        assert.ok(!redactor.text(`${p}${s}${q}`).includes(s));
        const json = JSON.stringify(`${p}${s}${q}`);
        assert.ok(!redactor.text(json).includes(JSON.stringify(s).slice(1, -1)));
        assert.ok(
          !redactor.text(encodeURIComponent(`${p}${s}${q}`)).includes(encodeURIComponent(s)),
        );
        // The base64 characters that hold only the secret's bits, for the offset it sits at.
        const before = new TextEncoder().encode(p);
        const bytes = new TextEncoder().encode(s);
        const whole = base64(new Uint8Array([...before, ...bytes, ...new TextEncoder().encode(q)]));
        const start = Math.ceil((8 * before.length) / 6);
        const end = Math.floor((8 * (before.length + bytes.length)) / 6);
        const run = whole.slice(start, end);
        assert.ok(!redactor.text(whole).includes(run), `${whole} still holds ${run}`);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("agent run deletes a binary file holding a secret from the work folder and names it in the row's notes", async () => {
  const dir = await tempDir("agent_redaction_binary");
  const secret = `bin-secret-${crypto.randomUUID().slice(0, 12)}`;
  const model = openaiServer();
  const marker = `agent-binary-${crypto.randomUUID()}`;
  Deno.env.set("TOOLSCORE_PLANTED", secret);
  try {
    const fixture = fixtureServer(marker);
    const command = fixture.command as string[];
    const spec = await writeSpec(dir, {
      // The real fixture server, after a shell wrote a binary file with the secret in the run's
      // folder (the value reaches it through an env entry whose name looks secret).
      server: {
        ...fixture,
        command: [
          "sh",
          "-c",
          `printf '\\000\\377%s\\000' "$BLOB_SECRET" > "$RUN_DIR/blob.bin"; printf 'plain %s\\n' "$BLOB_SECRET" > "$RUN_DIR/note.txt"; exec "$@"`,
          "sh",
          ...command,
        ],
        env: { BLOB_SECRET: "${TOOLSCORE_PLANTED}", RUN_DIR: "${TOOLSCORE_RUN_DIR}" },
      },
      arms: [{ id: "a", provider: "openai", model: "gpt-good", base_url: model.url }],
      tasks: [{
        id: "weather",
        prompt: "Weather in Paris, and add 2 and 3",
        contract: `${CONTRACTS}contract_weather.json`,
      }],
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out]);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(await waitNoProcesses(marker), []);
    const [row] = await readRows(out);
    assert.ok(
      (row!.notes as string[]).includes(
        "deleted blob.bin from the work folder: a binary file that held a secret",
      ),
      JSON.stringify(row!.notes),
    );
    const work = `${dir}/runs/a/weather-0.work`;
    assert.deepEqual([...Deno.readDirSync(work)].map((e) => e.name), ["note.txt"]);
    assert.equal(await Deno.readTextFile(`${work}/note.txt`), "plain ***\n");
  } finally {
    Deno.env.delete("TOOLSCORE_PLANTED");
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
