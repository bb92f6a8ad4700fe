/**
 * Every shape a secret value takes in text that a tool, a server or a
 * provider may write, so that redaction cannot be sidestepped by an
 * encoding: the raw value; JSON-escaped (as `JSON.stringify` writes it,
 * with non-ASCII as `\uXXXX` too, and escaped twice, as in JSON held in a
 * JSON string); URL-encoded (`encodeURIComponent`, with lower-case hex, and
 * form-encoded as `URLSearchParams` writes it); standard and URL-safe
 * base64 of the value alone, padded or not, and the runs of base64 that
 * stay the same wherever the value sits in longer data (its bytes starting
 * at an offset of 0, 1 or 2 modulo 3). A form shorter than
 * {@linkcode MIN_FORM_LENGTH} characters is not searched (it would hide
 * common text).
 *
 * @module
 */

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replaceAll("+", "-").replaceAll("/", "_");
}

/** Forms shorter than this are not searched. */
export const MIN_FORM_LENGTH = 8;

function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function asciiJson(value: string): string {
  return jsonEscaped(value).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

// The base64 characters that depend on the value's bytes alone when they start `offset` bytes
// into a 3-byte group (the characters at the edges mix in the neighbours' bits).
function stableRun(bytes: Uint8Array, offset: number, url: boolean): string {
  const padded = new Uint8Array(offset + bytes.length);
  padded.set(bytes, offset);
  const text = (url ? encodeBase64Url(padded) : encodeBase64(padded)).replace(/=+$/, "");
  const start = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + bytes.length)) / 6);
  return end > start ? text.slice(start, end) : "";
}

/**
 * The forms of one secret that redaction searches for, longest first.
 *
 * @param secret The value.
 * @returns Its distinct forms of at least {@linkcode MIN_FORM_LENGTH} characters.
 *
 * @example Usage
 * ```ts
 * import { secretForms } from "./secret_forms.ts";
 * import assert from "node:assert/strict";
 *
 * const forms = secretForms('k"e\\y&é-123456');
 * assert.ok(forms.includes('k"e\\y&é-123456'));
 * assert.ok(forms.includes('k\\"e\\\\y&é-123456'));
 * assert.ok(forms.includes(encodeURIComponent('k"e\\y&é-123456')));
 * assert.ok(forms.includes(btoa(String.fromCharCode(...new TextEncoder().encode('k"e\\y&é-123456')))));
 * assert.deepEqual(secretForms("abcd"), ["YWJjZA=="]);
 * ```
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([
    secret,
    jsonEscaped(secret),
    asciiJson(secret),
    jsonEscaped(jsonEscaped(secret)),
    jsonEscaped(asciiJson(secret)),
  ]);
  try {
    const url = encodeURIComponent(secret);
    forms.add(url);
    forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    forms.add(new URLSearchParams({ v: secret }).toString().slice(2));
  } catch {
    // A lone surrogate has no URL form.
  }
  const bytes = new TextEncoder().encode(secret);
  const standard = encodeBase64(bytes);
  const urlSafe = encodeBase64Url(bytes);
  forms.add(standard);
  forms.add(standard.replace(/=+$/, ""));
  forms.add(urlSafe);
  forms.add(urlSafe.replace(/=+$/, ""));
  for (const offset of [0, 1, 2]) {
    forms.add(stableRun(bytes, offset, false));
    forms.add(stableRun(bytes, offset, true));
  }
  return [...forms].filter((form) => form.length >= MIN_FORM_LENGTH)
    .sort((a, b) => b.length - a.length);
}
