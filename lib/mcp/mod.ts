/**
 * MCP servers: which server ({@linkcode McpServerSpec}), how to start it
 * with a minimal environment, the stdio transport over `Deno.Command`, and a
 * session with the official SDK's `Client`.
 *
 * The root module exports only the spec and the error; the transport and the
 * session stay here so that the SDK's types never become part of the public API.
 *
 * @module
 */

export * from "./server_spec.ts";
export * from "./spec_from_json.ts";
export * from "./client_dialect.ts";
export * from "./client_variables.ts";
export * from "./command_line.ts";
export * from "./spec_from_command.ts";
export * from "./server_env.ts";
export * from "./tool_names.ts";
export * from "./server_error.ts";
export * from "./transport.ts";
export * from "./process_sweep.ts";
export * from "./process_group.ts";
export * from "./recording_transport.ts";
export * from "./client_failure.ts";
export * from "./client.ts";
export * from "./client_capabilities.ts";
