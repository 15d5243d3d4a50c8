/** Every integration manifest, for the app and the backend alike. */
export * from "./sources.js";
export * from "./destinations.js";
