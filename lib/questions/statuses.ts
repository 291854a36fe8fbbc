// A question's statuses, listed once (zod-free: the browser imports it too).

export const QUESTION_STATUSES = ["open", "answered"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];
export const QUESTION_STATUS = { open: "open", answered: "answered" } as const satisfies { [K in QuestionStatus]: K };
