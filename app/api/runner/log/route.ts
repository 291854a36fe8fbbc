import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { logBody } from "@/lib/runner-protocol";
import { appendRunnerLog } from "@/lib/dispatch/append-runner-log";

export const POST = withRunner({ body: logBody }, async ({ db, runner, body }) => json(await appendRunnerLog(db, runner, body)));
