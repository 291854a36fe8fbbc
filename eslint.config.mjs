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
    files: ["tests/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Every push to a workspace's repository goes through one door that refuses any branch but the
    // task's own (docs/SECURITY.md, rule P1).
    files: ["**/*.ts", "**/*.tsx"],
    // The two doors: the server's (checks the branch against the task) and the runner's (pushes only
    // the branch of its job, which the server checked the same way before handing the job out).
    ignores: [
      "lib/git/remote/push-task-branch.ts",
      "lib/runner-process/job-workdir.ts",
      "lib/git/task-worktree.test.ts",
      "lib/git/task-branch-git.test.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@/lib/git/task-branch-git",
              importNames: ["pushRef"],
              message:
                "Push with pushTaskBranch (lib/git/remote/push-task-branch.ts): it checks the branch is the task's own (a runner pushes only its job's branch, lib/runner-process/job-workdir.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // Libraries a server needs only once it mails, reads mail, pushes or posts to Slack: imported where
    // first used (`await import(…)`), so that a server without them configured never loads them at
    // start (docs/PERFORMANCE.md, "A server's start"). Their types may be imported anywhere.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: ["nodemailer", "imapflow", "mailparser", "web-push", "@slack/web-api"].map((name) => ({
            name,
            allowTypeImports: true,
            message: `Load ${name} where it is first used, with await import("${name}"): a server that does not use it should not load it at start.`,
          })),
        },
      ],
    },
  },
  globalIgnores([".next/**", "node_modules/**", "lib/generated/**", "tests/artifacts/**", "data/**", "next-env.d.ts"]),
]);
