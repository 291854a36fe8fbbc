// Where an answer came from (questions.answered_via). No zod here: the browser imports this file.
// `board` is a person in the browser, `api` a program with their API key or access token, `mcp`
// a tool call; push, email and slack are the notification channels that take answers (issue #38).
export const ANSWER_CHANNELS = ["board", "push", "email", "slack", "api", "mcp"] as const;
export type AnswerChannel = (typeof ANSWER_CHANNELS)[number];
