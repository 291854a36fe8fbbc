import type { WorkspaceEvent } from "@/lib/events/event-types";
import type { QuestionResponse } from "@/lib/questions/schemas";
import type { Reaction } from "@/lib/reactions/reaction";
import { postQuestionToSlack, showAnswerInSlack } from "@/lib/slack/post-question";

type AnsweredQuestion = QuestionResponse & { answered_via?: string | null };

/**
 * A question asked in a workspace with a Slack channel is posted there, its options as buttons; once
 * answered (anywhere), its message says who answered what and through which channel (docs/slack.md).
 * Both steps look first at what is stored, so an event seen twice posts once.
 */
export const slackQuestions: Reaction = {
  name: "slack-questions",
  description: "Posts agents' questions to the workspace's Slack channel, and shows there who answered them (docs/slack.md).",
  types: ["question.created", "question.answered"],
  async handle(db, event) {
    const { data } = event as WorkspaceEvent<AnsweredQuestion>;
    if (event.type === "question.created") await postQuestionToSlack(db, data);
    else await showAnswerInSlack(db, data, data.answered_via ?? "the board");
  },
};
