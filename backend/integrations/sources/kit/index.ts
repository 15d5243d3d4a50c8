/** What the source plug-ins share. */
export * from "./config.js";
export * from "./errors.js";
export * from "./hash.js";
export * from "./http.js";
export * from "./ids.js";
export * from "./people.js";
export * from "./vtt.js";
export * from "./verification.js";
