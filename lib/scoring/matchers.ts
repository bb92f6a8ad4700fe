/**
 * Matchers: expected-side values that decide for themselves whether an
 * actual value matches (`ANY`, `Regex`, `Approx`, `Contains`, `OneOf`,
 * `IsType`, `Eq`), the `$` operators that spell them in JSON files, and the
 * value comparison every argument metric uses.
 *
 * In a JSON value read by {@linkcode matcherFromJson}, an object is an
 * operator when any of its keys starts with `$`:
 *
 * | JSON | matcher |
 * |---|---|
 * | `{"$any": true}` | {@linkcode ANY}: present, any value |
 * | `{"$regex": "p", "$flags": "i"}` | {@linkcode Regex}: search anywhere (anchor with `^…$`) |
 * | `{"$contains": v}` | {@linkcode Contains}: substring, list item or object key |
 * | `{"$one_of": [v, …]}` | {@linkcode OneOf}: any of; items may be operators |
 * | `{"$approx": n, "$rel": r, "$abs": a}` | {@linkcode Approx}: `|x − n| ≤ max(r·|n|, a)` |
 * | `{"$type": "string"}` or a list of type names | {@linkcode IsType} |
 * | `{"$eq": v}` | {@linkcode Eq}: `v` literally, even when its keys start with `$` |
 *
 * Decisions the design leaves open:
 *
 * - `Regex` matches strings. A list is matched as its items joined by
 *   spaces (strings as they are, other items as JSON text). Numbers,
 *   booleans, null and objects never match a pattern.
 * - `Regex` patterns run on RE2 (`re2js`), so matching is linear in the
 *   text and no pattern can hang a run (issue 20; the design page said
 *   JavaScript RegExp). The dialect (`lib/base/user_regex.ts`): RE2 syntax,
 *   plus `(?<name>…)`, Python's `(?P<name>…)` and the JavaScript escapes
 *   `\uXXXX`, `\cX`, `[^]`. Refused with the JSON path: backreferences
 *   (`\1`, `\k<name>`, `(?P=name)`), lookaround, and every flag but `i`, `m`,
 *   `s` (`u`/`v` are implied; `g`/`y` would make matching depend on earlier
 *   matches). Unlike RegExp, `\d \w \s \b` are ASCII only: `\s` does not
 *   match a no-break space (write `[\s\x{a0}]` or `\p{Z}`).
 * - `$type` names are the JSON ones: `string`, `number`, `integer` (finite,
 *   no fraction), `boolean`, `null`, `array`, `object`. A boolean is never a
 *   number.
 * - In lenient comparison a boolean never equals a number (`true` ≠ `1`):
 *   only strings are loosened (surrounding whitespace is ignored).
 * - {@linkcode ANY} matches any value that is present (not `undefined`).
 * - Integers a double cannot hold (64-bit ids), read as their digits, compare
 *   digit for digit in both modes (`value_compare.ts`, issue 42); `$type`
 *   judges them by their digits (`integer` when there is no fraction),
 *   `$approx` by their nearest double. There are no range operators.
 *
 * @module
 */

export type { Matcher } from "./matcher.ts";
export { isMatcher } from "./matcher.ts";
export {
  ANY,
  Approx,
  type ApproxOptions,
  Contains,
  Eq,
  OneOf,
  Regex,
  type RegexOptions,
} from "./matcher_classes.ts";
export { IsType, type JsonTypeName } from "./type_matcher.ts";
export { expectedArgsFromJson, matcherFromJson } from "./matcher_json.ts";
export { valuesMatch, type ValuesMatchOptions } from "./value_compare.ts";
