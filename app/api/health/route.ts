import { json, publicRoute } from "@/lib/api/handler";
import { connection } from "@/lib/db/client";

export const GET = publicRoute({}, async () => json({ status: "ok", database: (await connection()).kind }));
