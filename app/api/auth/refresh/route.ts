import { json, publicRoute } from "@/lib/api/handler";
import { refreshBody } from "@/lib/auth/schemas";
import { rotateRefreshToken } from "@/lib/auth/tokens";

export const POST = publicRoute({ body: refreshBody }, async ({ db, body }) => json(await rotateRefreshToken(db, body.refresh_token)));
