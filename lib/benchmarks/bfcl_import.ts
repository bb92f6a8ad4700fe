/**
 * The BFCL importer (issue 43): BFCL v3/v4 question files and their
 * `possible_answer` files (ShishirPatil/gorilla,
 * `berkeley-function-call-leaderboard/bfcl_eval/data/`, Apache-2.0) become
 * one contract per entry, so that a model's BFCL outputs score as BFCL's
 * checker scores them — and with toolscore's explanations beside.
 *
 * Both files are JSON Lines despite the `.json` name. Each line is read with
 * `parseJsonLossless(…, {keep: "float-text"})`: BFCL's checker tells an int
 * from a float by the literal (`5` and `5.0`), so the contracts keep it
 * (`$floats`, see `lib/scoring/bfcl_param.ts`).
 *
 * An entry's contract: `source: {benchmark: "bfcl", id, category,
 * gorilla_commit}` (`underscore_to_dot: true` when asked), `matching:
 * "bfcl-greedy"`, and
 *
 * - AST categories (`simple_*`, `multiple`, `parallel`, `parallel_multiple`,
 *   `live_simple`, `live_multiple`, `live_parallel`,
 *   `live_parallel_multiple`): `pass: "exact"`, one required call per
 *   possible answer, in file order, each parameter a `$one_of` with
 *   `$normalize: "bfcl"` (its acceptable values, the doc's type and whether
 *   the doc requires it; `$language` for Java and JavaScript). Parameters
 *   the doc requires but the answer lacks are in the call too, marked
 *   `$unexpected` (omitting one is a missing required parameter, sending one
 *   is unexpected — BFCL fails both). As `ast_checker` does, a simple
 *   category's call is the first function of the doc, and `multiple` and
 *   parallel answers find their doc by name.
 * - `irrelevance`, `live_irrelevance`: no required call, `pass: "exact"`
 *   (any call fails).
 * - `live_relevance`: no required call, `pass: "any-call"` (at least one call).
 *
 * `--underscore-to-dot` (BFCL's `underscore_to_dot` model setting, for
 * models whose API forbids `.` in function names): expected names have
 * every `.` replaced by `_`, as BFCL's `convert_func_name` does.
 *
 * Out of scope, refused with a message: `multi_turn_*` (BFCL runs those
 * against its own simulated APIs), the executable categories (`exec_*`,
 * `rest`, `sql`, `chatable`, unused since v3) and the v4 agentic categories
 * (`web_search`, `memory`, `format_sensitivity`).
 *
 * Entries whose answer names a function the doc lacks are imported with the
 * answer's name and no doc (`$doc` absent: every parameter sent is
 * unexpected); BFCL's checker raises on them.
 *
 * @module
 */

import { numberText, parseJsonLossless } from "../base/lossless_json.ts";
import { InputError } from "../base/errors.ts";
import { clipEcho } from "../base/clip_input.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { bfclFamily } from "../evaluate/bfcl_greedy.ts";

/** Options for {@linkcode contractsFromBfcl}. */
export interface ContractsFromBfclOptions {
  /**
   * Compare `.` in function names as `_` (BFCL's `underscore_to_dot`).
   * @default {false}
   */
  underscoreToDot?: boolean;
  /**
   * The gorilla commit the files come from, recorded in `source`.
   * @default {undefined} (recorded as `null`: unknown)
   */
  gorillaCommit?: string;
  /**
   * The questions file's name, for errors.
   * @default {"questions"}
   */
  questionsName?: string;
  /**
   * The answers file's name, for errors.
   * @default {"answers"}
   */
  answersName?: string;
}

/** One imported entry. */
export interface BfclContract {
  /** The entry id (`simple_python_0`). */
  id: string;
  /** Its category (`simple_python`). */
  category: string;
  /** The contract, ready to write as JSON (kept literals write back as `5.0`). */
  contract: JsonObject;
}

const OUT_OF_SCOPE = [
  /^multi_turn/,
  /^web_search/,
  /^memory/,
  /^format_sensitivity/,
  /^exec_/,
  /^rest$/,
  /^sql$/,
  /^chatable$/,
];
const MAX_ID = 200;

/**
 * The category of a BFCL entry id: the id without its trailing number
 * (`live_simple_3-2-0` → `live_simple`; v3's `simple_0` → `simple`).
 *
 * @param id The entry id.
 * @returns The category, or `undefined` when the id has no number.
 *
 * @example Usage
 * ```ts
 * import { bfclCategory } from "./bfcl_import.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bfclCategory("live_parallel_multiple_3-2-0"), "live_parallel_multiple");
 * assert.equal(bfclCategory("simple_python_12"), "simple_python");
 * ```
 */
export function bfclCategory(id: string): string | undefined {
  return /^(.+?)_\d+(?:-\d+)*$/.exec(id)?.[1];
}

function languageOf(category: string): "python" | "java" | "javascript" {
  if (category.includes("javascript")) return "javascript";
  if (category.includes("java")) return "java";
  return "python";
}

interface Line {
  value: JsonObject;
  line: number;
}

function jsonLines(text: string, file: string): Line[] {
  const out: Line[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = parseJsonLossless(raw, { keep: "float-text" });
    } catch (error) {
      throw new InputError(
        `not JSON (${error instanceof Error ? error.message : String(error)}); BFCL files are ` +
          `JSON Lines, one entry per line`,
        `${file}:${i + 1}`,
      );
    }
    if (!isJsonObject(value) || typeof value.id !== "string") {
      throw new InputError(`expected an entry object with a string "id"`, `${file}:${i + 1}`);
    }
    if (value.id.length > MAX_ID) {
      throw new InputError(
        `id is ${value.id.length} characters long; BFCL ids are like simple_python_0`,
        `${file}:${i + 1}`,
      );
    }
    out.push({ value, line: i + 1 });
  });
  return out;
}

function toolName(name: string, options: ContractsFromBfclOptions): string {
  return options.underscoreToDot ? name.replaceAll(".", "_") : name;
}

function bad(file: string, line: number, message: string): InputError {
  return new InputError(message, `${file}:${line}`);
}

// Positions of whole-valued float literals: top level and items of lists.
function floatPositions(values: readonly unknown[]): string[] {
  const out: string[] = [];
  const isFloatText = (v: unknown) => /[.eE]/.test(numberText(v) ?? "");
  values.forEach((value, i) => {
    if (isFloatText(value)) out.push(String(i));
    if (Array.isArray(value)) {
      value.forEach((item, j) => isFloatText(item) && out.push(`${i}.${j}`));
    }
  });
  return out;
}

function callOf(
  doc: JsonObject | undefined,
  name: string,
  answer: JsonObject,
  language: string,
  where: { file: string; line: number },
  options: ContractsFromBfclOptions,
): JsonObject {
  const parameters = doc !== undefined && isJsonObject(doc.parameters) ? doc.parameters : {};
  const properties = isJsonObject(parameters.properties) ? parameters.properties : {};
  const required = Array.isArray(parameters.required)
    ? parameters.required.filter((r): r is string => typeof r === "string")
    : [];
  const args: JsonObject = {};
  const docOf = (param: string): JsonObject | undefined => {
    const described = properties[param];
    if (!isJsonObject(described)) return undefined;
    const out: JsonObject = { type: typeof described.type === "string" ? described.type : "" };
    if (isJsonObject(described.items) && typeof described.items.type === "string") {
      out.items = described.items.type;
    }
    if (required.includes(param)) out.required = true;
    return out;
  };
  const put = (key: string, value: JsonObject) =>
    Object.defineProperty(args, key.startsWith("$") ? `$${key}` : key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const param of Object.keys(answer)) {
    const values = answer[param];
    if (!Array.isArray(values)) {
      throw bad(
        where.file,
        where.line,
        `the acceptable values of ${clipEcho(JSON.stringify(param))} must be a list`,
      );
    }
    const matcher: JsonObject = { $one_of: values, $normalize: "bfcl" };
    const described = doc === undefined ? undefined : docOf(param);
    if (described !== undefined) matcher.$doc = described;
    if (language !== "python") matcher.$language = language;
    const floats = floatPositions(values);
    if (floats.length > 0) matcher.$floats = floats;
    put(param, matcher);
  }
  for (const param of required) {
    if (Object.hasOwn(answer, param)) continue;
    const matcher: JsonObject = {
      $one_of: [],
      $normalize: "bfcl",
      $doc: { ...(docOf(param) ?? { type: "" }), required: true },
      $unexpected: true,
    };
    if (language !== "python") matcher.$language = language;
    put(param, matcher);
  }
  return { tool: toolName(name, options), args };
}

/**
 * Import BFCL entries as contracts.
 *
 * @param questions The question file's text (JSON Lines).
 * @param answers The `possible_answer` file's text (needed for the AST
 * categories; the relevance categories have none).
 * @param options The model setting, the gorilla commit, file names for errors.
 * @returns One contract per entry, in file order.
 * @throws {InputError} On a line that is not an entry (naming `file:line`), an
 * out-of-scope category, or a missing answer.
 *
 * @example Usage
 * ```ts
 * import { contractsFromBfcl } from "./bfcl_import.ts";
 * import assert from "node:assert/strict";
 *
 * const q = JSON.stringify({ id: "simple_python_0", function: [{ name: "math.hypot",
 *   parameters: { type: "dict", properties: { x: { type: "float" } }, required: ["x"] } }] });
 * const a = '{"id": "simple_python_0", "ground_truth": [{"math.hypot": {"x": [5.0]}}]}';
 * const [entry] = contractsFromBfcl(q, a, { underscoreToDot: true });
 * assert.equal(entry!.category, "simple_python");
 * assert.match(JSON.stringify(entry!.contract), /"tool":"math_hypot".*"\$one_of":\[5\.0\]/);
 * ```
 */
export function contractsFromBfcl(
  questions: string,
  answers?: string,
  options: ContractsFromBfclOptions = {},
): BfclContract[] {
  const qFile = options.questionsName ?? "questions";
  const aFile = options.answersName ?? "answers";
  const answerLines = new Map<string, Line>();
  if (answers !== undefined) {
    for (const line of jsonLines(answers, aFile)) {
      if (answerLines.has(line.value.id as string)) {
        throw bad(aFile, line.line, `id ${clipEcho(String(line.value.id))} appears twice`);
      }
      answerLines.set(line.value.id as string, line);
    }
  }
  const out: BfclContract[] = [];
  const seen = new Set<string>();
  for (const { value: entry, line } of jsonLines(questions, qFile)) {
    const id = entry.id as string;
    if (seen.has(id)) throw bad(qFile, line, `id ${clipEcho(id)} appears twice`);
    seen.add(id);
    const category = bfclCategory(id);
    if (category === undefined) {
      throw bad(qFile, line, `id ${clipEcho(id)} has no category (expected e.g. simple_python_0)`);
    }
    if (OUT_OF_SCOPE.some((pattern) => pattern.test(category))) {
      throw bad(
        qFile,
        line,
        `category ${category} is out of scope: toolscore imports BFCL's single-turn AST and ` +
          `relevance categories (simple_*, multiple, parallel, parallel_multiple, live_*, ` +
          `irrelevance), not multi_turn_* (run against BFCL's simulated APIs), the executable ` +
          `ones (exec_*, rest, sql, chatable) or the v4 agentic ones (web_search, memory, ` +
          `format_sensitivity)`,
      );
    }
    const functions = Array.isArray(entry.function) ? entry.function.filter(isJsonObject) : [];
    const family = bfclFamily(category);
    const source: JsonObject = {
      benchmark: "bfcl",
      id,
      category,
      gorilla_commit: options.gorillaCommit ?? null,
    };
    if (options.underscoreToDot) source.underscore_to_dot = true;
    const contract: JsonObject = {
      contract_version: 2,
      source,
      pass: family === "relevance" ? "any-call" : "exact",
      matching: "bfcl-greedy",
      required: [],
    };
    if (family !== "relevance" && family !== "irrelevance") {
      const answer = answerLines.get(id);
      if (answer === undefined) {
        throw bad(
          qFile,
          line,
          answers === undefined
            ? `${category} needs its possible_answer file; give ANSWERS.json after QUESTIONS.json`
            : `no possible answer with id ${clipEcho(id)} in ${aFile}`,
        );
      }
      const truth = answer.value.ground_truth;
      if (
        !Array.isArray(truth) || !truth.every((t) => isJsonObject(t) && Object.keys(t).length === 1)
      ) {
        throw bad(
          aFile,
          answer.line,
          `ground_truth must be a list of {function_name: {param: [values]}}`,
        );
      }
      const where = { file: aFile, line: answer.line };
      contract.required = (truth as JsonObject[]).map((item, index) => {
        const answerName = Object.keys(item)[0]!;
        const params = item[answerName];
        if (!isJsonObject(params)) {
          throw bad(aFile, answer.line, `ground_truth[${index}].${answerName} must be an object`);
        }
        const doc = family === "simple"
          ? functions[0]
          : functions.find((f) => f.name === answerName);
        const name = doc !== undefined && typeof doc.name === "string" ? doc.name : answerName;
        return callOf(doc, name, params, languageOf(category), where, options);
      });
    }
    out.push({ id, category, contract });
  }
  return out;
}
