// A scripted OpenAI Chat Completions server on loopback that never finishes: every turn it
// answers with another tool call for the reference memory server (create_entities, then
// read_graph, in turn), reporting 1,000 input and 500 output tokens a call, so that only
// max_turns or the budget ends a run. It counts the calls it answered, which is what a
// provider would bill.
import { serveJson } from "./_model_wire.ts";

/** The price that makes one call of this server cost $0.01 (1,000 × $1 + 500 × $18 per Mtok). */
export const LOOP_PRICES = { "loop-model": { input_per_mtok: 1, output_per_mtok: 18 } };

/** What one answered call costs at {@linkcode LOOP_PRICES}. */
export const LOOP_CALL_USD = 0.01;

/** A running loop server. */
export interface LoopModel {
  /** The base URL for an arm (`/v1` included). */
  url: string;
  /** Calls answered with a reply (billed). */
  billed(): number;
  /** Requests received, refused ones included. */
  received(): number;
  close(): Promise<void>;
}

/**
 * Start the server.
 *
 * @param options `refuseTurn`: answer HTTP 400 (not billed) to the request of this turn (1-based)
 *   of every conversation, which ends the run with an error row.
 */
export function loopModel(options: { refuseTurn?: number } = {}): LoopModel {
  let billed = 0;
  const server = serveJson((body) => {
    const messages = (body.messages ?? []) as Record<string, unknown>[];
    const turn = messages.filter((m) => m.role === "assistant").length + 1;
    if (options.refuseTurn === turn) {
      return Response.json({ error: { message: "bad request", type: "invalid_request_error" } }, {
        status: 400,
      });
    }
    billed++;
    const call = turn % 2 === 1
      ? {
        name: "create_entities",
        args: { entities: [{ name: `E${turn}`, entityType: "thing", observations: ["x"] }] },
      }
      : { name: "read_graph", args: {} };
    return Response.json({
      id: `chatcmpl-${turn}`,
      object: "chat.completion",
      model: String(body.model),
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: `call_${turn}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          }],
        },
        finish_reason: "tool_calls",
      }],
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
    });
  });
  return {
    url: `${server.url}/v1`,
    billed: () => billed,
    received: () => server.requests.length,
    close: () => server.close(),
  };
}
