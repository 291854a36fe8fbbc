// `npm run bench`'s board-weight rows (scripts/bench/bench.mjs).

/**
 * The board's weight (issue #36 part 4): the bytes per card of GET …/board, and every card of a
 * 4,000-card workspace fetched in compact column pages of 500, one request after another and the
 * five columns at once; the median of WHOLE_BOARD_ROUNDS rounds after one warm-up.
 */
export async function wholeBoard({ db, url, headers, workspace, perColumn: CARDS, page: CARD_PAGE, rounds: WHOLE_BOARD_ROUNDS }) {
  const board = await (await fetch(`${url}/api/workspaces/${workspace}/board`, { headers })).text();
  const cardsOnBoard = JSON.parse(board).columns.reduce((sum, column) => sum + column.items.length, 0);
  const columns = ["backlog", "todo", "in_progress", "in_review", "done"];
  const fetchColumn = async (key) => {
    let count = 0;
    let bytes = 0;
    for (let offset = 0; ; offset += CARD_PAGE) {
      const response = await fetch(
        `${url}/api/workspaces/${workspace}/board/column/${key}?view=compact&limit=${CARD_PAGE}&offset=${offset}`,
        {
          headers,
        },
      );
      const text = await response.text();
      if (response.status !== 200) throw new Error(`column ${key}: ${response.status} ${text}`);
      const page = JSON.parse(text);
      count += page.items.length;
      bytes += Buffer.byteLength(text);
      if (!page.has_more) return { count, bytes };
    }
  };
  const timed = async (each) => {
    const times = [];
    let fetched;
    for (let round = 0; round <= WHOLE_BOARD_ROUNDS; round++) {
      const t0 = performance.now();
      fetched = await each();
      if (round > 0) times.push(performance.now() - t0); // round 0 warms up
    }
    times.sort((a, b) => a - b);
    const count = fetched.reduce((sum, column) => sum + column.count, 0);
    if (count !== CARDS * 5) throw new Error(`fetched ${count} cards, expected ${CARDS * 5}`);
    return { median: times[Math.floor(times.length / 2)], p99: times.at(-1), bytes: fetched.reduce((sum, c) => sum + c.bytes, 0) };
  };
  const sequential = await timed(async () => {
    const out = [];
    for (const key of columns) out.push(await fetchColumn(key));
    return out;
  });
  const parallel = await timed(() => Promise.all(columns.map(fetchColumn)));
  const row = (name, measured, extra) => ({
    db,
    name,
    statements: "-",
    bytes: measured.bytes,
    rps: 1000 / measured.median,
    mean: Math.round(measured.median),
    p50: Math.round(measured.median),
    p99: Math.round(measured.p99),
    non2xx: 0,
    aloneP50: Math.round(measured.median),
    aloneP99: Math.round(measured.p99),
    items: CARDS * 5,
    ...extra,
  });
  const perCard = Math.round(Buffer.byteLength(board) / cardsOnBoard);
  console.log(
    `${db.padEnd(18)} 4,000 cards: GET board ${perCard} B per card; all cards ${Math.round(sequential.median)} ms one page after another, ${Math.round(parallel.median)} ms five columns at once`,
  );
  return [
    row("4,000 cards: every card, compact pages of 500 one after another (ms per round)", sequential, { perCard }),
    row("4,000 cards: every card, the five columns at once (ms per round)", parallel, { perCard }),
  ];
}
