import { json, withUser } from "@/lib/api/handler";
import { createUserBody } from "@/lib/users/schemas";
import { createUser } from "@/lib/users/create-user";
import { listUsers } from "@/lib/users/list-users";

export const GET = withUser({ adminOnly: true }, async ({ db }) => json(await listUsers(db)));

export const POST = withUser({ adminOnly: true, body: createUserBody }, async ({ db, body }) => json(await createUser(db, body), 201));
