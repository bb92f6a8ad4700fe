/**
 * Every raw trace format, read through one detector.
 *
 * @module
 */

export * from "./detect.ts";
export * from "./custom.ts";
export * from "./reader.ts";
