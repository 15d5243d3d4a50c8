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
);
