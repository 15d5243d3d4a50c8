import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["build/", "build-*/", "test-results*/", "node_modules/", ".data/", ".scratch/", "test-results/", "playwright-report/", "backend/db/migrations/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
      // A provider's error is caught and a new one made with a sentence for the user, on purpose without the caught
      // one attached: its text may hold a secret before backend/lib/redact.ts scrubs what is stored and logged.
      "preserve-caught-error": "off",
    },
  },
  // The backend's layers (docs/decisions/2026-12-02-service-layer.md): the two HTTP edges call the use cases in
  // backend/services and never each other; a use case knows no HTTP edge and no HTTP framework.
  {
    files: ["backend/http/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/api/*"], message: "The session backend never imports the public API (backend/api): both call backend/services." }] }] },
  },
  {
    files: ["backend/api/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/http/*"], message: "The public API never imports the session backend (backend/http): both call backend/services." }] }] },
  },
  {
    files: ["backend/services/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/http/*", "**/api/*", "hono", "hono/*", "@hono/*"], message: "A use case knows no HTTP edge: take the input, return a record, throw a ServiceError." }] },
      ],
    },
  },
  // Which workspace a query reads or writes is decided in one place: backend/db/scope.ts.
  {
    files: ["backend/db/**"],
    ignores: ["backend/db/scope.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // A filter on a table's owner (eq(sources.ownerId, …)); a join on it (eq(x.workspaceId, sources.ownerId)) is not one.
          selector: "CallExpression[callee.name='eq'][arguments.0.property.name='ownerId']",
          message: "Scope a query to its workspace with inWorkspace or workspaceRecord (backend/db/scope.ts).",
        },
      ],
    },
  },
);
