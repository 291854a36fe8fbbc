import { json, withUser } from "@/lib/api/handler";
import { createRunnerBody } from "@/lib/dispatch/schemas";
import { createRunner } from "@/lib/dispatch/create-runner";
import { listRunners } from "@/lib/dispatch/list-runners";

export const GET = withUser({ adminOnly: true }, async ({ db }) => json(await listRunners(db)));

export const POST = withUser({ adminOnly: true, body: createRunnerBody }, async ({ db, body, caller }) =>
  json(await createRunner(db, body, caller.userId), 201),
);
