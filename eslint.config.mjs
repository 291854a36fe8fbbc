import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// Next's rules (react, react-hooks, jsx-a11y, import, @next/next) and typescript-eslint's; formatting
// is Prettier's job, so rules that would fight it are off.
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    // Tests read JSON answers of every shape; typing each one would only restate the schemas under test.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  globalIgnores([".next/**", "node_modules/**", "lib/generated/**", "tests/artifacts/**", "data/**", "next-env.d.ts"]),
]);
