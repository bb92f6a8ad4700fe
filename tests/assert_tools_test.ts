import assert from "node:assert/strict";
import { AssertionError } from "node:assert";
import { assertTools } from "../lib/evaluate/assert_tools.ts";

Deno.test("assertTools() passes on matching calls and accepts any trace format", () => {
  assertTools([{ tool: "search", args: { q: "deno" } }], [{ tool: "search", args: { q: "deno" } }]);
  assertTools([{ tool: "add", args: { a: 2, b: 3 } }], {
    choices: [{
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "add", arguments: '{"a":2,"b":3}' },
        }],
      },
    }],
  });
});

Deno.test("assertTools() throws an AssertionError with a readable diff and the score", () => {
  let caught: unknown;
  try {
    assertTools(
      [{ tool: "get_weather", args: { city: "NYC" } }, { tool: "send_email", args: { to: "u" } }],
      [{ tool: "get_weather", args: { city: "New York" } }, { tool: "search", args: {} }],
      { message: "weather task" },
    );
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AssertionError);
  const message = (caught as AssertionError).message;
  assert.match(message, /^weather task\n/);
  assert.match(message, /score 0\.\d{3} \([A-F]\), needed 1/);
  assert.match(
    message,
    /- expected #1: get_weather\{"city":"NYC"\}\n\+ actual {3}#1: get_weather\{"city":"New York"\}/,
  );
  assert.match(message, /- expected #2: send_email\{"to":"u"\}\n\+ actual {5}\(missing\)/);
  assert.match(message, /argument city expected "NYC", got "New York"/);
  assert.match(message, /step 2: expected send_email, got search/);
});

Deno.test("assertTools() honours minScore", () => {
  const expected = [{ tool: "search", args: {} }];
  const actual = [{ tool: "search", args: { q: "python" } }];
  assert.throws(() => assertTools(expected, actual), AssertionError);
  assertTools(expected, actual, { minScore: 0.7 });
});
