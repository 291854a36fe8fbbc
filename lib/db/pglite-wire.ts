// The wire protocol's bytes as the embedded database's worker answers them: the rows of a plain
// answer read straight from its DataRow messages (without PGlite's parser), and joining messages.

// Backend messages a plain answer to Bind/Execute/Sync is made of: BindComplete, DataRow,
// CommandComplete, ReadyForQuery, NoData, PortalSuspended, EmptyQueryResponse.
const PLAIN = new Set(["2", "D", "C", "Z", "n", "s", "I"].map((code) => code.charCodeAt(0)));
const DATA_ROW = "D".charCodeAt(0);

/** The data rows of a plain answer, or null when it holds any other message. */
export function plainRows(data: Uint8Array): (string | null)[][] | null {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const rows: (string | null)[][] = [];
  for (let at = 0; at < bytes.length;) {
    const code = bytes[at];
    const end = at + 1 + bytes.readInt32BE(at + 1);
    if (!PLAIN.has(code)) return null;
    if (code === DATA_ROW) {
      const row = new Array<string | null>(bytes.readInt16BE(at + 5));
      let field = at + 7;
      for (let i = 0; i < row.length; i++) {
        const length = bytes.readInt32BE(field);
        field += 4;
        row[i] = length === -1 ? null : bytes.toString("utf8", field, field + length);
        if (length > 0) field += length;
      }
      rows.push(row);
    }
    at = end;
  }
  return rows;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
