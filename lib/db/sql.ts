import type { Pool } from "pg";
import { countStatement } from "@/lib/db/sql-count";

// The statements every request pays for (authenticating the caller) and the board's pages skip
// Prisma and go to the driver as NAMED prepared statements. PostgreSQL then parses and plans each
// once per pooled connection instead of on every request: planning the column statement costs
// about 1.9 ms of server CPU, more than running it (measured with EXPLAIN ANALYZE, see
// docs/PERFORMANCE.md). Everything else keeps using Prisma.
//
// Never call an Sql from inside a Prisma transaction: on PGlite (one connection) it waits for that
// transaction to end, and on PostgreSQL it would not see the transaction's writes.

export interface Statement {
  /** Unique per text: the driver keeps one prepared statement per name on each connection. */
  name: string;
  text: string;
}

export type Sql = <Row>(statement: Statement, params: unknown[]) => Promise<Row[]>;

const names = new Map<string, string>();

/** Declares a statement; declaring one name with two texts is a programming error. */
export function statement(name: string, text: string): Statement {
  const known = names.get(name);
  if (known !== undefined && known !== text) throw new Error(`SQL statement "${name}" declared twice with different texts`);
  names.set(name, text);
  return { name, text };
}

export function postgresSql(pool: Pool): Sql {
  return async <Row>(statement: Statement, params: unknown[]) => {
    countStatement();
    const result = await pool.query({ name: statement.name, text: statement.text, values: params });
    return result.rows as Row[];
  };
}
