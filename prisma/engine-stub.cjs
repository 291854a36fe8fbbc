#!/usr/bin/env node
// Prisma's CLI insists that a native schema-engine binary exists before generate/validate/format,
// and would download one otherwise (impossible offline). Those commands never execute it, so this
// stub stands in. Migrations are created and applied by scripts/db-diff.mjs and lib/db/migrate.ts.
if (process.argv.includes("--version")) {
  console.log("schema-engine-cli stub (taskboard: migrations are handled by scripts/db-diff.mjs)");
  process.exit(0);
}
console.error(
  "This is a stub schema engine (no network for Prisma's native engine). " +
    "Use `npm run db:diff -- <name>` to create a migration and `npm run db:migrate` to apply them.",
);
process.exit(1);
