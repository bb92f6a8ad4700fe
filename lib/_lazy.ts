/**
 * Internal: heavy npm packages and Node built-ins, loaded on first use rather
 * than when a module that may need them is imported. ajv alone takes about
 * 40 ms to load and the Node compatibility layer 10 to 25 ms, which every
 * `toolscore eval` paid although only tool schemas, receipts, side-effect
 * checks and JSONC or YAML files need them. `require` and
 * `process.getBuiltinModule` load synchronously, so the functions that use
 * them stay synchronous; the packages stay in the import map and the lock
 * file like any other dependency.
 *
 * @module
 */

let nodeRequire: ((id: string) => unknown) | undefined;

function require(id: string): unknown {
  nodeRequire ??= process.getBuiltinModule("node:module").createRequire(import.meta.url);
  return nodeRequire(id);
}

let path: typeof import("node:path") | undefined;

/**
 * Node's `path` module.
 *
 * @returns The module.
 */
export function nodePath(): typeof import("node:path") {
  return path ??= process.getBuiltinModule("node:path");
}

type Ajv2020Module = typeof import("ajv/dist/2020.js");
type AjvModule = typeof import("ajv");
type JsoncModule = typeof import("jsonc-parser");
type YamlModule = typeof import("js-yaml");

let ajv2020: Ajv2020Module | undefined;
let ajv: AjvModule | undefined;
let jsonc: JsoncModule | undefined;
let yaml: YamlModule | undefined;

/**
 * ajv's JSON Schema 2020-12 build.
 *
 * @returns The module.
 */
export function ajv2020Module(): Ajv2020Module {
  return ajv2020 ??= require("ajv/dist/2020.js") as Ajv2020Module;
}

/**
 * ajv's default (draft-07) build.
 *
 * @returns The module.
 */
export function ajvModule(): AjvModule {
  return ajv ??= require("ajv") as AjvModule;
}

/**
 * jsonc-parser.
 *
 * @returns The module.
 */
export function jsoncModule(): JsoncModule {
  return jsonc ??= require("jsonc-parser") as JsoncModule;
}

/**
 * js-yaml.
 *
 * @returns The module.
 */
export function yamlModule(): YamlModule {
  return yaml ??= require("js-yaml") as YamlModule;
}
