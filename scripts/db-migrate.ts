// `npm run db:migrate`: apply pending migrations to PostgreSQL (DATABASE_URL). The embedded
// database is migrated by the server itself, which must be the only process to open it.
import { migratePostgres } from "@/lib/db/client";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("Set DATABASE_URL=postgres://… (the embedded database is migrated by `npm start` itself).");
  process.exit(2);
}
const applied = await migratePostgres(url);
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Up to date: no migration to apply.");
process.exit(0);
