/**
 * How the doctor's messages name the settings a user can change. The
 * library speaks of its options (these defaults); the CLI passes its flags.
 *
 * @module
 */

/** The names of the settings, as the caller's user knows them. */
export interface DoctorTerms {
  /** Not starting the server. */
  noServer: string;
  /** The agent spec. */
  spec: string;
  /** A contract file to check. */
  contract: string;
  /** Naming a key that must be set. */
  key: string;
  /** Allowing unknown prices. */
  allowUnknownPrice: string;
  /** Writing a baseline. */
  updateBaseline: string;
  /** The per-request timeout. */
  timeout: string;
  /** The overall deadline. */
  deadline: string;
  /** Passing one more variable to a local server. */
  env: string;
  /** Giving a `${input:ID}` value. */
  input: (id: string) => string;
  /** Allowing probes of tools that may have side effects. */
  allowSideEffects: string;
}

/** The library's terms: its options. */
export const LIBRARY_TERMS: Readonly<DoctorTerms> = Object.freeze({
  noServer: "startServer: false",
  spec: "the specPath option",
  contract: "the contractPath option",
  key: "the keys option",
  allowUnknownPrice: "allowUnknownPrice: true",
  updateBaseline: "writeBaseline()",
  timeout: "the timeout option",
  deadline: "the deadline option",
  env: "the env option",
  input: (id: string) => `give it in the inputs option ({"${id}": "…"})`,
  allowSideEffects: "allowSideEffects: true",
});
