import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { findSecrets, redactSecrets, redactText, scanCredentials } from "../lib/checks/security.ts";

// Realistic-looking keys, built at run time so no literal key sits in the source.
const OPENAI = "sk-proj-" + "Xy7kQ2mN9pL4".repeat(4);
const OPENAI_LEGACY = "sk-" + "T3BlbkFJ9aZ".repeat(4);
const ANTHROPIC = "sk-ant-api03-" + "Qw8ErTy2UiOp".repeat(3);
const GITHUB = "ghp_" + "aB3dE6gH9jK2".repeat(3);
const GITHUB_PAT = "github_pat_" + "11AbCdEfGh_".repeat(6);
const AWS = "AKIA" + "IOSFODNN7EXAMPL2";
const GOOGLE = "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY".slice(0, 35);
const SLACK = "xoxb-" + "1234567890-abcdEFGH";
const STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc";
const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";

Deno.test("findSecrets() recognizes every kind in the table", () => {
  const cases: [string, string][] = [
    [OPENAI, "openai_api_key"],
    [OPENAI_LEGACY, "openai_api_key"],
    [ANTHROPIC, "anthropic_api_key"],
    [GITHUB, "github_token"],
    [GITHUB_PAT, "github_token"],
    [AWS, "aws_access_key_id"],
    [GOOGLE, "google_api_key"],
    [SLACK, "slack_token"],
    [STRIPE, "stripe_secret_key"],
    [PEM, "private_key"],
  ];
  for (const [secret, kind] of cases) {
    const spans = findSecrets(`before ${secret} after`);
    deepEqual(spans.map((s) => s.kind), [kind], secret);
    equal(spans[0]?.start, 7);
    equal(spans[0]?.end, 7 + secret.length, secret);
  }
});

Deno.test("findSecrets() ignores sk-aaaa… test data that does not look random", () => {
  deepEqual(findSecrets("sk-" + "a".repeat(48)), []);
  deepEqual(findSecrets("sk-ant-" + "a".repeat(40)), []);
  deepEqual(findSecrets("sk-proj-" + "abc123".repeat(8)), []); // no upper case
  deepEqual(findSecrets("sk-" + "ABCdef".repeat(8)), []); // no digit
});

Deno.test("findSecrets() claims an overlapping span once, most specific first", () => {
  // An Anthropic key is never also reported as an OpenAI key.
  const spans = findSecrets(`${ANTHROPIC} ${OPENAI}`);
  deepEqual(spans.map((s) => s.kind), ["anthropic_api_key", "openai_api_key"]);
  // A key inside a private key block is part of the block.
  const block = `-----BEGIN PRIVATE KEY-----\n${AWS}\n-----END PRIVATE KEY-----`;
  deepEqual(findSecrets(block).map((s) => s.kind), ["private_key"]);
});

Deno.test("findSecrets() respects word boundaries and exact lengths", () => {
  deepEqual(findSecrets(`x${AWS}`), []);
  deepEqual(findSecrets(`${AWS}X`), []);
  deepEqual(findSecrets(`${GITHUB}a`), []);
  deepEqual(findSecrets("xoxb-123"), []);
});

Deno.test("findSecrets() runs a private key span to its END line, or to the end", () => {
  const text = `key:\n${PEM}\ntrailing`;
  const [span] = findSecrets(text);
  equal(text.slice(span?.start, span?.end), PEM);
  const open = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA";
  equal(findSecrets(`x ${open}`)[0]?.end, open.length + 2);
});

Deno.test("scanCredentials() finds an API key inside a nested argument with its path", () => {
  const metrics = scanCredentials([
    { tool: "search", args: { q: "deno" } },
    {
      tool: "upload",
      args: {
        headers: { Authorization: `Bearer ${OPENAI}`, "X-Api-Key": ANTHROPIC },
        files: [{ name: "a.txt", content: `token=${GITHUB}` }],
      },
    },
  ]);
  equal(metrics.secret_count, 3);
  deepEqual(metrics.secrets, [
    {
      index: 1,
      tool: "upload",
      path: "headers.Authorization",
      kind: "openai_api_key",
      preview: `sk-p…${OPENAI.slice(-2)}`,
    },
    {
      index: 1,
      tool: "upload",
      path: 'headers["X-Api-Key"]',
      kind: "anthropic_api_key",
      preview: `sk-a…${ANTHROPIC.slice(-2)}`,
    },
    {
      index: 1,
      tool: "upload",
      path: "files[0].content",
      kind: "github_token",
      preview: `ghp_…${GITHUB.slice(-2)}`,
    },
  ]);
});

Deno.test("scanCredentials() does not flag sk-aaaa… test data or clean traces", () => {
  const metrics = scanCredentials([
    { tool: "login", args: { api_key: "sk-" + "a".repeat(48), nested: [{ k: "sk-test" }] } },
    { tool: "noop" },
    { tool: "noop", args: null },
  ]);
  deepEqual(metrics, { secret_count: 0, secrets: [] });
});

Deno.test("scanCredentials() scans unparsed argument text as raw_args", () => {
  const metrics = scanCredentials([
    { tool: "x", args: {}, rawArgs: `{"key": "${AWS}"`, argsError: "unterminated" },
  ]);
  deepEqual(metrics.secrets.map((s) => [s.path, s.kind]), [["raw_args", "aws_access_key_id"]]);
});

Deno.test("redactSecrets() copies deeply and replaces every secret span by its preview", () => {
  const calls = [{
    tool: "deploy",
    args: { env: [`A=${AWS}`, `B=${STRIPE} and ${SLACK}`], pem: PEM, n: 3, ok: true, none: null },
  }];
  const redacted = redactSecrets(calls);
  deepEqual(redacted, [{
    tool: "deploy",
    args: {
      env: ["A=AKIA…L2", `B=sk_l…${STRIPE.slice(-2)} and xoxb…GH`],
      pem: "----…--",
      n: 3,
      ok: true,
      none: null,
    },
  }]);
  equal(calls[0]?.args.env[0], `A=${AWS}`);
  ok(!JSON.stringify(redacted).includes(AWS));
  deepEqual(scanCredentials(redacted).secret_count, 0);
});

Deno.test("redactText() leaves text without secrets unchanged", () => {
  equal(redactText("hello sk-short"), "hello sk-short");
});

Deno.test("redactSecrets() property: values without secrets are copied unchanged", () => {
  fc.assert(fc.property(fc.jsonValue(), (value) => {
    // Random JSON almost never holds a key; when it does, redaction must change it.
    const same = JSON.stringify(redactSecrets(value)) === JSON.stringify(value);
    const hasSecret = scanCredentials([{ tool: "t", args: { v: value } }]).secret_count > 0;
    return same === !hasSecret;
  }));
});

Deno.test("redactSecrets() property: a key placed anywhere in text is found and removed", () => {
  const secret = fc.constantFrom(OPENAI, ANTHROPIC, GITHUB, AWS, GOOGLE, SLACK, STRIPE);
  const filler = fc.string({ unit: fc.constantFrom(" ", "a", "=", ":", "\n", "é") });
  fc.assert(fc.property(filler, secret, filler, (before, key, after) => {
    const text = `${before} ${key} ${after}`;
    const found = scanCredentials([{ tool: "t", args: { text } }]);
    return found.secret_count === 1 && !redactText(text).includes(key);
  }));
});
