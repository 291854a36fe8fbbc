import path from "node:path";
import { defineConfig } from "prisma/config";

// See prisma/engine-stub.cjs: without this the CLI tries to download a native engine.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, "prisma", "engine-stub.cjs");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
