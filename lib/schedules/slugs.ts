import { conflict } from "@/lib/platform/errors";

// A schedule's slug: derived from its name unless given, unique in its workspace (a taken one is 409).

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "schedule";
}

export function freeSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function slugTaken(error: unknown, slug: string): unknown {
  return (error as { code?: string }).code === "P2002" ? conflict(`A schedule with slug '${slug}' already exists`) : error;
}
