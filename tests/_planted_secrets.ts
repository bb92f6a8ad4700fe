// The credential kinds planted by the redaction tests (issue 42, item 6), shared by
// hostile_round2_test.ts and secrets_every_format_test.ts.
// Each credential kind, with a needle from its middle: a preview (first 4, last 2) never holds
// the needle, a secret in clear (or with Markdown escapes between its letters) does.
export const R = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0dF";
export const PLANTED: readonly { kind: string; secret: string; needle: string }[] = [
  { kind: "anthropic", secret: `sk-ant-${R}`, needle: "E6gH9jK2" },
  { kind: "openai glued", secret: `key_sk-proj-${R}x`, needle: "mN5pQ8sT" },
  { kind: "openai", secret: `sk-${R}Qz`, needle: "pQ8sT1vW" },
  { kind: "github", secret: `ghp_${R.slice(0, 30)}AbCd12`, needle: "H9jK2mN5" },
  { kind: "aws glued", secret: "id_AKIAIOSFODNN7EXAMPLE", needle: "SFODNN7E" },
  { kind: "google", secret: `AIza${R}Xy9`, needle: "K2mN5pQ8" },
  { kind: "slack", secret: "xoxb-1234567890-aZ9bY8cX7dW6", needle: "567890-a" },
  { kind: "stripe", secret: `sk_live_${R}`, needle: "gH9jK2mN" },
  {
    kind: "jwt",
    secret:
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    needle: "NryP4J3j",
  },
  {
    kind: "url password",
    secret: "https://alice:s3cretPassw0rd@db.example.com/x",
    needle: "cretPass",
  },
  { kind: "bearer", secret: "Bearer abcDEF123456ghiJKL789", needle: "F123456g" },
];
