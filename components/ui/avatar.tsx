// A person's or an agent's initials in a circle, in a colour of its own: the same id always gets the
// same colour, on every card and screen, so a glance finds "my" cards. The name is the accessible
// label; the initials are decoration.

// Backgrounds with white text at WCAG AA contrast (4.5:1 or more) in both themes.
const COLOURS = [
  "bg-blue-700",
  "bg-emerald-700",
  "bg-violet-700",
  "bg-rose-700",
  "bg-amber-700",
  "bg-cyan-700",
  "bg-fuchsia-700",
  "bg-teal-700",
  "bg-indigo-700",
  "bg-orange-700",
] as const;

/** Up to two letters: the first of the first two words ("Ada Lovelace" → AL), else the first two ("claude-code" → CC, "bob" → BO). */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return (words[0][0] + words[1][0]).toUpperCase();
}

/** A stable index into COLOURS for an id (FNV-1a over its characters). */
export function colourIndex(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % COLOURS.length;
}

export function Avatar({
  id,
  name,
  kind = "user",
  size = "sm",
  decorative = false,
}: {
  id: string;
  name: string;
  /** An agent's avatar is a rounded square, a person's a circle: told apart without colour. */
  kind?: "user" | "agent";
  size?: "sm" | "md";
  /** True when a visible name stands next to it: then the label would be read twice. */
  decorative?: boolean;
}) {
  const label = kind === "agent" ? `${name} (agent)` : name;
  return (
    <span
      role={decorative ? undefined : "img"}
      aria-label={decorative ? undefined : label}
      aria-hidden={decorative ? true : undefined}
      title={label}
      className={`inline-flex shrink-0 items-center justify-center font-semibold text-white select-none ${COLOURS[colourIndex(id)]} ${
        kind === "agent" ? "rounded-md" : "rounded-full"
      } ${size === "sm" ? "h-6 w-6 text-[10px]" : "h-8 w-8 text-xs"}`}
    >
      {initials(name)}
    </span>
  );
}
