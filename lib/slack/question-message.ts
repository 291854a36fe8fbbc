import type { QuestionResponse } from "@/lib/questions/schemas";

// How a question looks in Slack (Block Kit): its words, then its options as buttons. A button's value
// names the question and the option's position; the option's text is looked up again when it is
// clicked, so a value cannot smuggle in an answer the question never offered. Once answered, the
// message is rewritten to say who answered what, and its buttons go.

export const ANSWER_ACTION_PREFIX = "answer_";

type Block = Record<string, unknown>;

export interface SlackMessage {
  text: string;
  blocks: Block[];
}

/** A button's value: `<question id>:<option index>`. */
export function answerValue(questionId: string, index: number) {
  return `${questionId}:${index}`;
}

export function parseAnswerValue(value: unknown): { questionId: string; index: number } | null {
  const match = typeof value === "string" ? /^([0-9a-f-]{36}):([0-3])$/.exec(value) : null;
  return match ? { questionId: match[1], index: Number(match[2]) } : null;
}

export function openQuestionMessage(question: QuestionResponse, boardUrl: string | null): SlackMessage {
  const blocks: Block[] = [{ ...section(heading(question)), block_id: `question:${question.id}` }, ...contextOf(question)];
  const buttons: Block[] = (question.options ?? []).map((option, index) => ({
    type: "button",
    action_id: `${ANSWER_ACTION_PREFIX}${index}`,
    text: { type: "plain_text", text: `${index + 1}. ${option}`.slice(0, 75) },
    value: answerValue(question.id, index),
  }));
  if (boardUrl)
    buttons.push({ type: "button", action_id: "open_board", text: { type: "plain_text", text: "Answer on the board" }, url: boardUrl });
  if (buttons.length) blocks.push({ type: "actions", block_id: `answers:${question.id}`, elements: buttons });
  const how = question.options?.length
    ? "Click an option, or reply in this thread with its number or, for a question of words, with your answer."
    : "Reply in this thread with your answer.";
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: how }] });
  return { text: `An agent asks: ${question.content}`.slice(0, 3000), blocks };
}

export function answeredQuestionMessage(question: QuestionResponse, answeredBy: string, via: string): SlackMessage {
  const said = `:white_check_mark: Answered by *${escape(answeredBy)}* via ${via}: *${escape(question.answer ?? "")}*`;
  return {
    text: `Answered by ${answeredBy} via ${via}: ${question.answer ?? ""}`.slice(0, 3000),
    blocks: [{ ...section(heading(question)), block_id: `question:${question.id}` }, ...contextOf(question), section(said.slice(0, 3000))],
  };
}

function heading(question: QuestionResponse) {
  const task = question.task_title ? ` on *${escape(question.task_title)}*` : "";
  return `:question: An agent asks${task}:\n${escape(question.content)}`.slice(0, 3000);
}

function contextOf(question: QuestionResponse): Block[] {
  return question.context ? [section(`>${escape(question.context).slice(0, 2900).replace(/\n/g, "\n>")}`)] : [];
}

function section(text: string): Block {
  return { type: "section", text: { type: "mrkdwn", text } };
}

// Slack's mrkdwn gives &, < and > meaning (links, mentions); an agent's words must not ping @channel.
function escape(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
