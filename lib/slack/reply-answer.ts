/**
 * What a reply means: an option's number (`2`) or name (any case) picks it; other words are the answer
 * to a question of words. An agent's permission request takes one of its options, nothing else.
 */
export function replyAnswer(text: string, options: string[], optionsOnly: boolean): string | { refusal: string } {
  const words = text.replace(/<@[A-Z0-9]+>/g, "").trim();
  const number = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(words);
  if (number && Number(number[1]) >= 1 && Number(number[1]) <= options.length) return options[Number(number[1]) - 1];
  const named = options.find((option) => option.toLowerCase() === words.toLowerCase());
  if (named) return named;
  if (words && (!optionsOnly || options.length === 0)) return words.slice(0, 10_000);
  const list = options.map((option, index) => `${index + 1}. ${option}`).join(", ");
  return {
    refusal: words ? `Reply with the number or name of one of the options: ${list}.` : "Your reply was empty: nothing was answered.",
  };
}
