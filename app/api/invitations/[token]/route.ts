import { json, publicRoute } from "@/lib/api/handler";
import { tokenParams } from "@/lib/invitations/schemas";
import { previewInvitation } from "@/lib/invitations/read-invitation";

// The link's secret is the credential: whoever holds it may see which workspace it opens, as which role.
export const GET = publicRoute({ params: tokenParams }, async ({ db, params }) => json(await previewInvitation(db, params.token)));
