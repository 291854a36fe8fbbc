import { json, publicRoute } from "@/lib/api/handler";
import { setupBody } from "@/lib/users/schemas";
import { createFirstAdmin } from "@/lib/users/create-user";

// The one-time "create the first admin" step; refused (409) once any user exists.
export const GET = publicRoute({}, async ({ db }) => json({ needs_setup: (await db.user.count()) === 0 }));

export const POST = publicRoute({ body: setupBody }, async ({ db, body }) =>
  json(await createFirstAdmin(db, body.username, body.password), 201),
);
