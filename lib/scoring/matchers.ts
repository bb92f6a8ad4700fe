// Moved to matcher_classes.ts; split along concerns in the next commit.
export * from "./matcher_classes.ts";
