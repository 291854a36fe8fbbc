import { parse, protocol, types, type messages } from "@electric-sql/pglite";
import { concat } from "@/lib/db/pglite-wire";
import type { PGliteWorker } from "@/lib/db/pglite-worker-client";
import { countStatement } from "@/lib/db/sql-count";
import type { Sql, Statement } from "@/lib/db/sql";

type RowDescription = messages.RowDescriptionMessage;
type Column = { name: string; type: number; parser: ((text: string, typeId?: number) => unknown) | undefined };

// PGlite is one session, so a statement is prepared once per process and kept. Its query() would
// send Parse and Describe for every call and plan the statement again each time: the caller's
// authentication cost 6.7 ms a request on PGlite, 3.8 of them planning (docs/PERFORMANCE.md, sixth
// pass). Here a call is Bind, Execute and Sync, in one message to the database, sent outside any
// transaction (never inside someone else's) and behind the calls sent before it.
export function pgliteSql(db: Pick<PGliteWorker, "execAlone" | "execRows" | "serializers" | "parsers">): Sql {
  const prepared = new Map<string, { types: number[]; columns: Column[] }>();
  const describe = async (name: string, parseFirst: Uint8Array[]) => {
    const messages = await db.execAlone(concat(...parseFirst, protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()));
    const fields = messages.find((m): m is RowDescription => m.name === "rowDescription")?.fields ?? [];
    const columns = fields.map((field) => ({ name: field.name, type: field.dataTypeID, parser: db.parsers[field.dataTypeID] }));
    return { types: parse.parseDescribeStatementResults(messages), columns };
  };
  const prepare = async (statement: Statement) => {
    try {
      return await describe(statement.name, [protocol.serialize.parse({ name: statement.name, text: statement.text })]);
    } catch (error) {
      // Prepared earlier in this session by another Sql over the same database, or by a call of
      // this one that was sent first.
      if ((error as { code?: string }).code !== "42P05") throw error;
      return await describe(statement.name, []);
    }
  };
  return async <Row>(statement: Statement, params: unknown[]) => {
    countStatement();
    let known = prepared.get(statement.name);
    if (!known) {
      known = await prepare(statement);
      prepared.set(statement.name, known);
    }
    const paramTypes = known.types;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialize = db.serializers[paramTypes[i]];
      return serialize ? serialize(param) : String(param);
    });
    const rows = await db.execRows(
      concat(
        protocol.serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ),
    );
    // As parse.parseResults would, without copying every parser into a new object for each call.
    return rows.map((row) => {
      const record: Record<string, unknown> = {};
      known.columns.forEach(({ name, type, parser }, i) => (record[name] = row[i] === null || !parser ? row[i] : parser(row[i]!, type)));
      return record;
    }) as Row[];
  };
}

// Element types whose arrays keep a parser: PGlite's own base parsers' types, and the other types
// a column or expression here can have (text-like ones pass through as strings, but their arrays
// still become arrays).
const NAME = 19; // not among PGlite's named types
const ELEMENT_TYPES = [
  types.BOOL,
  types.BYTEA,
  types.CHAR,
  NAME,
  types.INT8,
  types.INT2,
  types.INT4,
  types.TEXT,
  types.OID,
  types.JSON,
  types.JSONB,
  types.XML,
  types.FLOAT4,
  types.FLOAT8,
  types.MONEY,
  types.NUMERIC,
  types.UUID,
  types.BPCHAR,
  types.VARCHAR,
  types.DATE,
  types.TIME,
  types.TIMETZ,
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.BIT,
  types.VARBIT,
];

/**
 * Keeps PGlite's result parsers to the types this schema can return. PGlite registers one for the
 * array of every type in pg_type (316 in all), and copies them all into a new object for every
 * query's result (parseResults: `{ ...defaultParsers, ...options.parsers }`), about 0.2 ms each
 * time: the largest single item of the server's own JavaScript in the log bench (docs/PERFORMANCE.md,
 * sixth pass). A type without a parser arrives as its text, as before for any type PGlite did not know.
 */
export async function trimParsers(db: Pick<PGliteWorker, "query" | "parsers">): Promise<void> {
  const { rows } = await db.query<{ typarray: number }>(`SELECT typarray FROM pg_type WHERE oid = ANY($1::oid[]) AND typarray <> 0`, [
    ELEMENT_TYPES,
  ]);
  const keep = new Set([...Object.keys(types.parsers), ...rows.map((row) => String(row.typarray))]);
  db.parsers = Object.fromEntries(Object.entries(db.parsers).filter(([oid]) => keep.has(oid)));
}
