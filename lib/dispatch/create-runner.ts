import type { Db } from "@/lib/db/client";
import { hashSecret, newRunnerSecret } from "@/lib/auth/tokens";
import type { createRunnerBody } from "@/lib/dispatch/schemas";
import type { z } from "zod";
import { serializeRunner } from "@/lib/dispatch/serialize";

// Registering, listing and deleting runners is for administrators only (the routes check).

export async function createRunner(db: Db, input: z.output<typeof createRunnerBody>, userId: string) {
  const token = newRunnerSecret();
  const row = await db.runner.create({
    data: {
      name: input.name,
      capacity: input.capacity,
      labels: input.labels,
      dedicated: input.dedicated,
      tokenHash: hashSecret(token),
      createdBy: userId,
    },
  });
  return { ...serializeRunner(row, 0), token };
}
