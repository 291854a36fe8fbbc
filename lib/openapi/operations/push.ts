import type { OperationSpec } from "@/lib/openapi/types";
import {
  pushAnswerBody,
  pushSubscriptionResponse,
  pushSubscriptionsResponse,
  subscribePushBody,
  unsubscribePushBody,
} from "@/lib/push/schemas";
import { questionResponse } from "@/lib/questions/schemas";

// Browser push (docs/notifications.md, "Browser push"): a person's subscribed browsers (people only:
// agent tokens get 403), and the answers a notification's actions send, whose key is the credential.
export const pushOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/me/push-subscriptions",
    operationId: "listPushSubscriptions",
    summary: "Your browsers subscribed to push, and the server's VAPID public key to subscribe with",
    tags: ["notifications"],
    responses: {
      200: {
        description: "The key and your subscriptions",
        schema: pushSubscriptionsResponse,
      },
    },
  },
  {
    method: "post",
    path: "/api/me/push-subscriptions",
    operationId: "subscribePush",
    summary: "Subscribe this browser: the body is PushSubscription.toJSON(); an https endpoint at a public address",
    tags: ["notifications"],
    body: subscribePushBody,
    responses: {
      201: {
        description: "Stored (an endpoint subscribed again moves to you)",
        schema: pushSubscriptionResponse,
      },
    },
  },
  {
    method: "delete",
    path: "/api/me/push-subscriptions",
    operationId: "unsubscribePush",
    summary: "Forget one of your subscriptions, by its endpoint",
    tags: ["notifications"],
    body: unsubscribePushBody,
    responses: {
      204: { description: "Forgotten" },
      404: { description: "No subscription of yours has this endpoint" },
    },
  },
  {
    method: "post",
    path: "/api/push/answers",
    operationId: "answerFromPush",
    summary: "Answer a question from a push notification's action: the action's key is the credential (no session)",
    tags: ["notifications"],
    auth: false,
    body: pushAnswerBody,
    responses: {
      200: {
        description: "Answered, via push, as the person the key was issued to",
        schema: questionResponse,
      },
      401: {
        description: "The key is not valid, its question was deleted, or it expired: `detail` says which",
      },
      403: {
        description: "The person may not answer (a viewer, no longer a member, disabled) or it was answered already: `detail` in words",
      },
    },
  },
];
