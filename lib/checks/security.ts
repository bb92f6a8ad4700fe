/**
 * Credentials in tool-call arguments: every string in every call's `args`
 * (at any depth) is scanned for API keys, tokens and private keys, so a run
 * that leaked a secret into a tool call is reported, and so receipts, exports
 * and reports can show a preview instead of the secret.
 *
 * Patterns, most specific first; a span claimed by one finding is not
 * claimed again by a later pattern:
 *
 * | kind | pattern |
 * |---|---|
 * | `private_key` | `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----` |
 * | `anthropic_api_key` | `\bsk-ant-[A-Za-z0-9_-]{20,}` |
 * | `openai_api_key` | `\bsk-(?:proj\|svcacct\|admin)-[A-Za-z0-9_-]{32,}`, `\bsk-[A-Za-z0-9]{32,}` |
 * | `github_token` | `\b(?:ghp\|gho\|ghu\|ghs\|ghr)_[A-Za-z0-9]{36}\b`, `\bgithub_pat_[A-Za-z0-9_]{60,}` |
 * | `aws_access_key_id` | `\b(?:AKIA\|ASIA)[0-9A-Z]{16}\b` |
 * | `google_api_key` | `\bAIza[0-9A-Za-z_-]{35}\b` |
 * | `slack_token` | `\bxox[abprs]-[0-9A-Za-z-]{10,}` |
 * | `stripe_secret_key` | `\b(?:sk\|rk)_live_[0-9A-Za-z]{24,}` |
 * | `jwt` | `eyJ…` `.` `eyJ…` `.` signature (three base64url parts) |
 * | `url_password` | the password of `scheme://user:password@host` (the password only) |
 * | `bearer_token` | the token after `Bearer ` (16 or more token characters, a digit and a letter among them) |
 *
 * Keys glued to word characters (issue 42): the distinctive prefixes
 * (`sk-ant-`, `sk-proj-`, `ghp_`, `AIza`, `xoxb-`, `sk_live_`…) match
 * anywhere, so `key_sk-proj-…` and `tokenghp_…` are found; a plain `sk-` or
 * `AKIA` key must not follow a letter or digit (`task-…`, `xAKIA…` are
 * words), an underscore or dash may, and nothing in the table is ended by a word boundary, so a key
 * followed by `_suffix` is found too. The table above shows the original
 * forms; the code holds the glued ones. A secret of 14 characters or fewer
 * (a short URL password) previews as `…` alone: 6 of its characters would be
 * most of it.
 *
 * OpenAI and Anthropic keys must also look random — the part after the
 * fixed prefix holds a digit, a lower-case and an upper-case letter — so
 * `sk-aaaaaaaa…` in test data is not a finding.
 *
 * Decisions the design leaves open:
 *
 * - A private key's span runs from its `BEGIN` line to the matching
 *   `-----END … PRIVATE KEY-----` (or, when there is none, to the next `"` or
 *   the end of the string), so redaction removes the key material, not only
 *   its header, and never runs across the end of a JSON string.
 * - An argument text that did not parse (`raw_args`) is scanned too, with the
 *   path `raw_args`: it is the same data the agent sent.
 * - A `preview` is the first 4 and last 2 characters of the secret with `…`
 *   between them.
 *
 * @module
 */

import { isJsonObject, joinPath, type ToolCall } from "../scoring/calls.ts";

/** One credential found in a call's arguments. */
export interface SecretFinding {
  /** The call's 0-based position in the trace. */
  index: number;
  /** The call's tool. */
  tool: string;
  /** Where in the arguments: `headers.Authorization`, `files[0].content`, `raw_args`. */
  path: string;
  /** The kind of credential: `openai_api_key`, `private_key`… */
  kind: string;
  /** The first 4 and last 2 characters: `sk-p…9Z`. */
  preview: string;
}

/** `metrics.security_metrics`: the credentials found in a trace's arguments. */
export interface SecurityMetrics {
  /** How many were found. */
  secret_count: number;
  /** Each finding, in call order, then argument order. */
  secrets: SecretFinding[];
}

/** A secret inside one string. */
export interface SecretSpan {
  /** The kind of credential. */
  kind: string;
  /** Start offset in the string. */
  start: number;
  /** End offset (exclusive). */
  end: number;
  /** The first 4 and last 2 characters. */
  preview: string;
}

interface CredentialPattern {
  kind: string;
  /** Global regex; group 1, when present, is the part that must look random. */
  regex: RegExp;
  /** Cheap substrings; the regex only runs when the text contains one. */
  hints: readonly string[];
  /** Require a digit, a lower-case and an upper-case letter in group 1. */
  random?: boolean;
  /** The span runs to the matching END line (private keys). */
  block?: boolean;
  /** Require a digit and a letter in the match (a token, not a word like `resource_metadata`). */
  token?: boolean;
}

const PATTERNS: readonly CredentialPattern[] = [
  {
    kind: "private_key",
    regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g,
    hints: ["PRIVATE KEY"],
    block: true,
  },
  {
    kind: "anthropic_api_key",
    regex: /sk-ant-([A-Za-z0-9_-]{20,})/g,
    hints: ["sk-ant-"],
    random: true,
  },
  {
    kind: "openai_api_key",
    regex: /sk-(?:proj|svcacct|admin)-([A-Za-z0-9_-]{32,})/g,
    hints: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
    random: true,
  },
  {
    kind: "openai_api_key",
    regex: /(?<![A-Za-z0-9])sk-([A-Za-z0-9]{32,})/g,
    hints: ["sk-"],
    random: true,
  },
  {
    kind: "github_token",
    regex: /(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
  },
  { kind: "github_token", regex: /github_pat_[A-Za-z0-9_]{60,}/g, hints: ["github_pat_"] },
  {
    kind: "aws_access_key_id",
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])/g,
    hints: ["AKIA", "ASIA"],
  },
  { kind: "google_api_key", regex: /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z-])/g, hints: ["AIza"] },
  { kind: "slack_token", regex: /xox[abprs]-[0-9A-Za-z-]{10,}/g, hints: ["xox"] },
  { kind: "stripe_secret_key", regex: /(?:sk|rk)_live_[0-9A-Za-z]{24,}/g, hints: ["k_live_"] },
  {
    kind: "jwt",
    regex: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    hints: ["eyJ"],
  },
  {
    // The password only: the user and host stay readable. No quote, backslash or comma, so a
    // span never runs across the end of a JSON string.
    kind: "url_password",
    regex:
      /(?<=[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:/?#@"'\\,<>]{1,256}:)[^\s/?#@"'\\,<>]{1,256}(?=@)/g,
    hints: ["://"],
  },
  {
    kind: "bearer_token",
    regex: /(?<=[Bb]earer[ \t]{1,8})[A-Za-z0-9._~+/-]{16,}=*/g,
    hints: ["earer"],
    token: true,
  },
];

const PRIVATE_KEY_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;

// The shortest string any pattern can match (`a://b:c@`).
const MIN_SECRET_LENGTH = 8;

// One pass that rules out almost every argument string before any pattern runs.
const PREFILTER =
  /PRIVATE KEY|sk-|gh[oprsu]_|github_pat_|AKIA|ASIA|AIza|xox[abprs]-|k_live_|eyJ|:\/\/|earer/;

function looksRandom(text: string): boolean {
  return /[0-9]/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text);
}

function previewOf(secret: string): string {
  if (secret.length <= 14) return "…";
  return `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}

/**
 * Find the credentials in one string.
 *
 * @param text Any text.
 * @returns The secrets found, in the order of their position in the text.
 *
 * @example Usage
 * ```ts
 * import { findSecrets } from "./security.ts";
 * import assert from "node:assert/strict";
 *
 * const [found] = findSecrets("key=AKIAIOSFODNN7EXAMPLE;");
 * assert.equal(found?.kind, "aws_access_key_id");
 * assert.equal(found?.preview, "AKIA…LE");
 * assert.deepEqual(findSecrets("sk-" + "a".repeat(40)), []);
 * ```
 */
export function findSecrets(text: string): SecretSpan[] {
  if (text.length < MIN_SECRET_LENGTH || !PREFILTER.test(text)) return [];
  const spans: SecretSpan[] = [];
  for (const pattern of PATTERNS) {
    if (!pattern.hints.some((hint) => text.includes(hint))) continue;
    const regex = pattern.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const start = match.index;
      let end = start + match[0].length;
      if (pattern.random && !looksRandom(match[1] ?? match[0])) continue;
      if (pattern.token && !(/[0-9]/.test(match[0]) && /[A-Za-z]/.test(match[0]))) continue;
      if (pattern.block) {
        PRIVATE_KEY_END.lastIndex = end;
        const close = PRIVATE_KEY_END.exec(text);
        // Never past a quote: in JSON text (the console's --json) the key's string ends there.
        const quote = text.indexOf('"', end);
        end = close && (quote === -1 || close.index < quote)
          ? close.index + close[0].length
          : quote === -1
          ? text.length
          : quote;
        regex.lastIndex = end;
      }
      if (spans.some((span) => start < span.end && span.start < end)) continue;
      spans.push({ kind: pattern.kind, start, end, preview: previewOf(text.slice(start, end)) });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

// Whether any string in a value could hold a secret: the common case (none)
// costs one walk and no allocation.
function hasCandidate(value: unknown): boolean {
  if (typeof value === "string") {
    return value.length >= MIN_SECRET_LENGTH && PREFILTER.test(value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasCandidate(value[i])) return true;
    return false;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key in record) if (hasCandidate(record[key])) return true;
  }
  return false;
}

// The path is kept as a key stack and only joined when a secret is found:
// most strings hold none, and joining paths costs more than the scan.
function scanValue(
  value: unknown,
  keys: (string | number)[],
  found: (path: string, span: SecretSpan) => void,
): void {
  if (typeof value === "string") {
    if (value.length < MIN_SECRET_LENGTH) return;
    const spans = findSecrets(value);
    if (spans.length === 0) return;
    const path = keys.reduce<string>((at, key) => joinPath(at, key), "");
    for (const span of spans) found(path, span);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      keys.push(i);
      scanValue(value[i], keys, found);
      keys.pop();
    }
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      keys.push(key);
      scanValue(record[key], keys, found);
      keys.pop();
    }
  }
}

/**
 * Scan every string in every call's arguments (and unparsed argument text)
 * for credentials.
 *
 * @param calls The calls of a trace.
 * @returns `metrics.security_metrics`: the count and each finding with its
 * call index, tool, path inside the arguments, kind and preview.
 *
 * @example Usage
 * ```ts
 * import { scanCredentials } from "./security.ts";
 * import assert from "node:assert/strict";
 *
 * const key = "sk-proj-" + "Ab3".repeat(12);
 * const metrics = scanCredentials([
 *   { tool: "search", args: { q: "weather" } },
 *   { tool: "fetch", args: { headers: { Authorization: `Bearer ${key}` } } },
 * ]);
 * assert.equal(metrics.secret_count, 1);
 * assert.deepEqual(metrics.secrets[0], {
 *   index: 1,
 *   tool: "fetch",
 *   path: "headers.Authorization",
 *   kind: "openai_api_key",
 *   preview: "sk-p…b3",
 * });
 * ```
 */
export function scanCredentials(calls: readonly ToolCall[]): SecurityMetrics {
  const secrets: SecretFinding[] = [];
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    const inArgs = call.args ? hasCandidate(call.args) : false;
    if (!inArgs && typeof call.rawArgs !== "string") continue; // the common case: nothing to scan
    const found = (path: string, span: SecretSpan) => {
      secrets.push({ index, tool: call.tool, path, kind: span.kind, preview: span.preview });
    };
    if (inArgs) scanValue(call.args, [], found);
    if (typeof call.rawArgs === "string") scanValue(call.rawArgs, ["raw_args"], found);
  }
  return { secret_count: secrets.length, secrets };
}

/**
 * Replace every detected secret in a string with its preview.
 *
 * @param text Any text.
 * @returns The text with each secret span replaced by its preview.
 *
 * @example Usage
 * ```ts
 * import { redactText } from "./security.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(redactText("id AKIAIOSFODNN7EXAMPLE ok"), "id AKIA…LE ok");
 * ```
 */
export function redactText(text: string): string {
  const spans = findSecrets(text);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + span.preview;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * A deep copy of a value with every detected secret in every string replaced
 * by its preview. Arrays and plain objects are copied; other objects
 * (matchers, dates) are kept as they are. Used by receipts and exports, which
 * must never hold a detected secret in clear.
 *
 * @param value Any value: a call, a list of calls, a result document.
 * @returns The redacted copy.
 *
 * @example Usage
 * ```ts
 * import { redactSecrets } from "./security.ts";
 * import assert from "node:assert/strict";
 *
 * const call = { tool: "s3", args: { key_id: "AKIAIOSFODNN7EXAMPLE", n: 1 } };
 * assert.deepEqual(redactSecrets(call), { tool: "s3", args: { key_id: "AKIA…LE", n: 1 } });
 * assert.equal(call.args.key_id, "AKIAIOSFODNN7EXAMPLE");
 * ```
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    // Keys too: a credential used as an argument name is as much in clear (issue 42).
    for (const key of Object.keys(value)) {
      Object.defineProperty(out, redactText(key), {
        value: redactValue(value[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
