import { z } from "zod";
import { withUser } from "@/lib/api/handler";
import { decideConsent } from "@/lib/oauth/consent";

// The consent page's answer (components/oauth/consent-form.tsx). The browser's session cookie is
// the caller, and withUser's same-origin check for cookies keeps other sites from answering.
export const dynamic = "force-dynamic";

export const POST = withUser({ body: z.object({ decision: z.enum(["allow", "deny"]) }) }, async ({ request, caller, body }) => {
  try {
    return Response.json({ location: await decideConsent(request, caller, body.decision === "allow") });
  } catch {
    return Response.json(
      { detail: "This sign-in request has expired or belongs to another browser. Start again from the application." },
      { status: 400 },
    );
  }
});
