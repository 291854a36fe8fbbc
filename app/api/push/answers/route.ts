import { json, publicRoute } from "@/lib/api/handler";
import { answerFromPush } from "@/lib/push/answer-from-push";
import { pushAnswerBody } from "@/lib/push/schemas";

// A push notification's option action (docs/notifications.md, "Browser push"): no session, the key is the credential.
export const POST = publicRoute({ body: pushAnswerBody }, async ({ db, body }) => json(await answerFromPush(db, body.key, body.answer)));
