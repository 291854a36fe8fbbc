import { parse, protocol, type PGlite } from "@electric-sql/pglite";
import { countStatement } from "@/lib/db/sql-count";
import type { Sql, Statement } from "@/lib/db/sql";

type Messages = Parameters<typeof parse.parseResults>[0];

// PGlite is one session, so a statement is prepared once per process and kept. Its query() would
// send Parse and Describe for every call and plan the statement again each time: the caller's
// authentication cost 6.7 ms a request on PGlite, 3.8 of them planning (docs/PERFORMANCE.md, sixth
// pass). Here a call is Bind, Execute and Sync, in one message to the database.
export function pgliteSql(db: PGlite): Sql {
  const prepared = new Map<string, { types: number[]; rowDescription: Messages }>();
  const run = async (statement: Statement, params: unknown[]) => {
    let known = prepared.get(statement.name);
    if (!known) {
      const described = await db.execProtocol(
        concat(
          protocol.serialize.parse({ name: statement.name, text: statement.text }),
          protocol.serialize.describe({ type: "S", name: statement.name }),
          protocol.serialize.sync(),
        ),
        { syncToFs: false },
      );
      known = {
        types: parse.parseDescribeStatementResults(described.messages),
        rowDescription: described.messages.filter((message) => message.name === "rowDescription"),
      };
      prepared.set(statement.name, known);
    }
    const types = known.types;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialize = db.serializers[types[i]];
      return serialize ? serialize(param) : String(param);
    });
    const { messages } = await db.execProtocol(
      concat(
        protocol.serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ),
    );
    return parse.parseResults([...known.rowDescription, ...messages], db.parsers)[0].rows;
  };
  // The mutexes query() takes: none of this runs inside a transaction or beside another statement.
  return async <Row>(statement: Statement, params: unknown[]) => {
    countStatement();
    await db.waitReady;
    return (await db._runExclusiveTransaction(() => db._runExclusiveQuery(() => run(statement, params)))) as Row[];
  };
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
