/**
 * The BFCL parameter matcher: `$one_of` with `$normalize: "bfcl"`. It holds
 * what BFCL's checker knows of one parameter — the possible answer's
 * acceptable values and the function doc's description — and judges a value
 * as `ast_checker.py` does (`bfcl_checker.ts`).
 *
 * In a contract:
 *
 * ```json
 * {"$one_of": [5.0, ""], "$normalize": "bfcl",
 *  "$doc": {"type": "float", "required": false}, "$language": "python", "$floats": ["0"]}
 * ```
 *
 * - `$one_of`: the acceptable values, compared after BFCL's
 *   `standardize_string` (top-level strings, string items of lists, string
 *   values of dicts). `""` means the parameter may be omitted — unless the
 *   doc lists it as `required` — and also matches the string `""`. The list
 *   may be empty (BFCL's data has such items: nothing passes).
 * - `$doc`: `{type, items?, required?}` from the function doc; absent when
 *   the doc lacks the parameter (sending it is then unexpected).
 * - `$unexpected: true`: the possible answer lacks the parameter (it is in
 *   the contract only because the doc requires it): sending it is unexpected,
 *   omitting it is a missing required parameter.
 * - `$language`: `"python"` (the default), `"java"` or `"javascript"`: whose
 *   type rules apply (Java and JavaScript values arrive as source text).
 * - `$floats`: the positions (`"i"`, or `"i.j"` inside a list) of whole
 *   numbers that the answer file wrote as floats (`5.0`), so that a contract
 *   read with a plain `JSON.parse` keeps BFCL's int-versus-float rules.
 *
 * The values are data: no operator is read inside them. The verdict is
 * BFCL's (under `matching: "bfcl-greedy"`, see `lib/evaluate/bfcl_greedy.ts`);
 * toolscore's score beside it still counts an omitted optional parameter as
 * an expected key not sent, so a passing call may score under 1.
 *
 * @module
 */

import { describeJson, isJsonObject } from "./calls.ts";
import { InputError } from "../base/errors.ts";
import type { Matcher } from "./matcher.ts";
import {
  type BfclCheck,
  type BfclDocParam,
  type BfclLanguage,
  checkBfclValue,
} from "./bfcl_checker.ts";
import { BfclCrashError, pyFloat } from "./bfcl_values.ts";
import { numberText } from "../base/lossless_json.ts";

/** A parameter of the function doc, with whether the doc requires it. */
export interface BfclDoc extends BfclDocParam {
  /** Whether the doc's `required` list names it. */
  readonly required?: boolean;
}

/** Options for {@linkcode BfclParam}. */
export interface BfclParamOptions {
  /**
   * The parameter as the function doc describes it.
   * @default {undefined} (the doc lacks it)
   */
  doc?: BfclDoc;
  /**
   * Whose type rules apply.
   * @default {"python"}
   */
  language?: BfclLanguage;
  /**
   * The possible answer lacks the parameter (only the doc's `required` list names it).
   * @default {false}
   */
  unexpected?: boolean;
}

const LANGUAGES: readonly BfclLanguage[] = ["python", "java", "javascript"];

/**
 * One parameter as BFCL's checker judges it.
 *
 * @example Usage
 * ```ts
 * import { BfclParam } from "./bfcl_param.ts";
 * import assert from "node:assert/strict";
 *
 * const unit = new BfclParam(["units", ""], { doc: { type: "string" } });
 * assert.equal(unit.matches("Units"), true);
 * assert.equal(unit.matches(undefined), true);
 * assert.equal(unit.check("unit", "cm").errorType, "value_error:string");
 * ```
 */
export class BfclParam implements Matcher {
  /** The acceptable values (whole floats as kept `5.0` literals). */
  readonly values: readonly unknown[];
  /** The doc's description, or `undefined` when the doc lacks the parameter. */
  readonly doc: BfclDoc | undefined;
  /** Whose type rules apply. */
  readonly language: BfclLanguage;
  /** Whether the possible answer lacks the parameter. */
  readonly unexpected: boolean;

  /**
   * Create the matcher.
   *
   * @param values The acceptable values (kept literals tell floats).
   * @param options The doc's description, the language, whether the answer lacks it.
   */
  constructor(values: readonly unknown[], options: BfclParamOptions = {}) {
    this.values = values;
    this.doc = options.doc;
    this.language = options.language ?? "python";
    this.unexpected = options.unexpected ?? false;
  }

  /**
   * Whether leaving the parameter out passes: not required by the doc, and
   * `""` acceptable (or the answer lacks it).
   *
   * @returns `true` when it may be omitted.
   */
  get omittable(): boolean {
    return this.doc?.required !== true && (this.unexpected || this.values.includes(""));
  }

  /**
   * BFCL's verdict on a value sent for the parameter.
   *
   * @param param The parameter's name, for messages.
   * @param value The value sent.
   * @returns The verdict; sending a parameter the doc or the answer lacks is
   * `simple_function_checker:unexpected_param`.
   * @throws {BfclCrashError} Where BFCL's checker raises.
   */
  check(param: string, value: unknown): BfclCheck {
    if (this.doc === undefined || this.unexpected) {
      return {
        valid: false,
        errorType: "simple_function_checker:unexpected_param",
        error: `unexpected parameter ${JSON.stringify(param)}`,
      };
    }
    return checkBfclValue(param, value, this.values, this.doc, this.language);
  }

  matches(actual: unknown, _strict?: boolean): boolean {
    if (actual === undefined) return this.omittable;
    try {
      return this.check("", actual).valid;
    } catch (error) {
      if (error instanceof BfclCrashError) return false;
      throw error;
    }
  }

  toJSON(): Record<string, unknown> {
    const floats: string[] = [];
    this.values.forEach((value, i) => {
      if (isWholeFloat(value)) floats.push(String(i));
      if (Array.isArray(value)) {
        value.forEach((item, j) => {
          if (isWholeFloat(item)) floats.push(`${i}.${j}`);
        });
      }
    });
    const out: Record<string, unknown> = { $one_of: [...this.values], $normalize: "bfcl" };
    if (this.doc !== undefined) out.$doc = { ...this.doc };
    if (this.language !== "python") out.$language = this.language;
    if (this.unexpected) out.$unexpected = true;
    if (floats.length > 0) out.$floats = floats;
    return out;
  }

  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

function isWholeFloat(value: unknown): boolean {
  const text = numberText(value);
  return text !== undefined && /[.eE]/.test(text);
}

/**
 * Read the BFCL matcher from its operator object (`$one_of` with
 * `$normalize: "bfcl"` and its modifiers).
 *
 * @param value The operator object.
 * @param values The `$one_of` list as read (matchers not applied).
 * @param path Where it sits, for errors.
 * @returns The matcher.
 * @throws {InputError} On a bad modifier.
 *
 * @example Usage
 * ```ts
 * import { bfclParamFromJson } from "./bfcl_param.ts";
 * import assert from "node:assert/strict";
 *
 * const param = bfclParamFromJson({ $one_of: [5], $normalize: "bfcl", $doc: { type: "integer" }, $floats: ["0"] }, [5], "args.n");
 * assert.equal(param.matches(5), true); // 5 == 5.0, and a float answer makes an int "a variable"
 * assert.equal(JSON.stringify(param.values), "[5.0]");
 * assert.throws(() => bfclParamFromJson({ $one_of: [], $normalize: "bfcl", $language: "go" }, [], "args.n"), /\$language/);
 * ```
 */
export function bfclParamFromJson(
  value: Record<string, unknown>,
  values: readonly unknown[],
  path: string,
): BfclParam {
  const where = (key: string) => path ? `${path}.${key}` : key;
  const language = value.$language ?? "python";
  if (!LANGUAGES.includes(language as BfclLanguage)) {
    throw new InputError(
      `must be one of ${LANGUAGES.map((l) => JSON.stringify(l)).join(", ")}, got ${
        describeJson(language)
      }`,
      where("$language"),
    );
  }
  let doc: BfclDoc | undefined;
  if (value.$doc !== undefined) {
    const raw = value.$doc;
    if (
      !isJsonObject(raw) || typeof raw.type !== "string" ||
      (raw.items !== undefined && typeof raw.items !== "string") ||
      (raw.required !== undefined && typeof raw.required !== "boolean")
    ) {
      throw new InputError(
        `must be {type: string, items?: string, required?: boolean}, got ${describeJson(raw)}`,
        where("$doc"),
      );
    }
    doc = {
      type: raw.type,
      items: raw.items as string | undefined,
      required: raw.required as boolean | undefined,
    };
    if (doc.items === undefined) delete (doc as { items?: string }).items;
    if (doc.required === undefined) delete (doc as { required?: boolean }).required;
  }
  if (value.$unexpected !== undefined && typeof value.$unexpected !== "boolean") {
    throw new InputError(
      `must be true or false, got ${describeJson(value.$unexpected)}`,
      where("$unexpected"),
    );
  }
  const floats = value.$floats ?? [];
  if (
    !Array.isArray(floats) || !floats.every((f) => typeof f === "string" && /^\d+(\.\d+)?$/.test(f))
  ) {
    throw new InputError(
      `must be a list of positions like "0" or "1.2", got ${describeJson(floats)}`,
      where("$floats"),
    );
  }
  const kept = values.map((item, i) => {
    if (floats.includes(String(i)) && typeof item === "number") return pyFloat(item);
    if (!Array.isArray(item)) return item;
    return item.map((inner, j) =>
      floats.includes(`${i}.${j}`) && typeof inner === "number" ? pyFloat(inner) : inner
    );
  });
  return new BfclParam(kept, {
    doc,
    language: language as BfclLanguage,
    unexpected: value.$unexpected === true,
  });
}
