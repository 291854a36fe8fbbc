import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

// The `state` that travels through GitHub's installation page and back to the setup callback. It binds
// the installation to the workspace and user that started it, so a callback URL cannot be replayed by
// someone else or into another workspace. Signed, not encrypted: it holds only ids the user already knows.

export const INSTALL_STATE_TTL_MS = 60 * 60_000;

const statePayload = z.object({
  w: z.string().min(1),
  u: z.string().min(1),
  exp: z.int(),
  n: z.string(),
});

export type InstallStateRefusal = "malformed" | "bad_signature" | "expired" | "wrong_user" | "wrong_workspace";

export type InstallStateCheck = { ok: true; workspaceId: string; userId: string } | { ok: false; reason: InstallStateRefusal };

export function signInstallState(input: { workspaceId: string; userId: string }, secret: string, now = Date.now()): string {
  const payload: z.infer<typeof statePayload> = {
    w: input.workspaceId,
    u: input.userId,
    exp: now + INSTALL_STATE_TTL_MS,
    n: randomBytes(9).toString("base64url"),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(body, secret)}`;
}

/**
 * Checks a state from the setup callback. `expected.userId` is the signed-in user at the callback;
 * `expected.workspaceId`, when the caller knows it, must match too. On success the workspace to connect.
 */
export function verifyInstallState(
  state: string,
  secret: string,
  expected: { userId: string; workspaceId?: string },
  now = Date.now(),
): InstallStateCheck {
  const [body, signature, extra] = state.split(".");
  if (!body || !signature || extra !== undefined) return { ok: false, reason: "malformed" };
  const wanted = Buffer.from(mac(body, secret));
  const given = Buffer.from(signature);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, reason: "bad_signature" };
  const payload = statePayload.safeParse(parseJson(Buffer.from(body, "base64url").toString("utf8")));
  if (!payload.success) return { ok: false, reason: "malformed" };
  if (payload.data.exp <= now) return { ok: false, reason: "expired" };
  if (payload.data.u !== expected.userId) return { ok: false, reason: "wrong_user" };
  if (expected.workspaceId !== undefined && payload.data.w !== expected.workspaceId) return { ok: false, reason: "wrong_workspace" };
  return { ok: true, workspaceId: payload.data.w, userId: payload.data.u };
}

// A key of its own, derived from the server secret, so a state can never pass for another signed value.
function mac(body: string, secret: string): string {
  const key = createHmac("sha256", secret).update("taskboard/github-install-state").digest();
  return createHmac("sha256", key).update(body).digest("base64url");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
