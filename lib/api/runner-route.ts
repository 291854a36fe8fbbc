import type { Runner } from "@/lib/generated/prisma/client";
import { connection } from "@/lib/db/client";
import { parseInputs, respond, type PublicContext, type Schemas } from "@/lib/api/handler";
import { authenticateRunner } from "@/lib/dispatch/authenticate-runner";

// The wrapper of the runner protocol's routes (/api/runner/…): a runner token (401 otherwise, and
// for every other kind of credential), then validation (422), then the handler. Events the handler
// records are the system's, as they were when the server ran agents itself.

export interface RunnerContext<S extends Schemas> extends PublicContext<S> {
  runner: Runner;
}

export function withRunner<S extends Schemas>(schemas: S, handler: (ctx: RunnerContext<S>) => Promise<Response>) {
  return respond(
    async (request, rawParams, requestId) => {
      const { db, sql } = await connection();
      const runner = await authenticateRunner(request, db);
      const inputs = await parseInputs(schemas, request, rawParams);
      return handler({ request, db, sql, requestId, runner, ...inputs });
    },
    { background: true },
  );
}
