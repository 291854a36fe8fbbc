import { json, publicRoute } from "@/lib/api/handler";
import { setupBody } from "@/lib/users/schemas";
import { createFirstAdmin } from "@/lib/users/create-user";
import { needsSetup } from "@/lib/users/needs-setup";

// The one-time "create the first admin" step; refused (409) once any user exists.
export const GET = publicRoute({}, async ({ db }) => json({ needs_setup: await needsSetup(db) }));

export const POST = publicRoute({ body: setupBody }, async ({ db, body }) =>
  json(await createFirstAdmin(db, body.username, body.password), 201),
);
