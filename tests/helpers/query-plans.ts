import type { Db } from "@/lib/db/client";

/** A node of PostgreSQL's `EXPLAIN (FORMAT JSON)`, the fields the plan tests read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** A statement's parameter as an SQL literal, for `EXECUTE` (strings, numbers, text arrays, null). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(sqlLiteral).join(", ")}]::text[]`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * The generic plan of a named statement's text, as the server's connections run it
 * (`plan_cache_mode` forced, as lib/db/client.ts does): `values` are its parameters as SQL literals.
 * With `analyze`, the plan as executed, with its row counts.
 */
export async function genericPlan(db: Db, text: string, values: string[], { analyze = false } = {}): Promise<PlanNode> {
  const [row] = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
    await tx.$executeRawUnsafe(`PREPARE plan_probe AS ${text}`);
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
      `EXPLAIN (${analyze ? "ANALYZE, " : ""}FORMAT JSON) EXECUTE plan_probe(${values.join(", ")})`,
    );
    await tx.$executeRawUnsafe("DEALLOCATE plan_probe");
    return rows;
  });
  const plan = typeof row["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row["QUERY PLAN"];
  return (plan as { Plan: PlanNode }[])[0].Plan;
}
