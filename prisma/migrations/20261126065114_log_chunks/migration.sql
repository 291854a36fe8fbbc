-- An execution's log moves from a row per entry to a row per batch (a chunk): one JSON array text
-- of {at, type, update}, the entries seq first_seq .. first_seq + count - 1. Written by hand from
-- `npm run db:diff -- log_chunks`, with the existing logs carried over in chunks of 200 entries.

-- CreateTable
CREATE TABLE "execution_log_chunks" (
    "execution_id" TEXT NOT NULL,
    "first_seq" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "entries" TEXT NOT NULL,

    CONSTRAINT "execution_log_chunks_pkey" PRIMARY KEY ("execution_id","first_seq")
);

-- The existing logs (seqs run 0, 1, 2, … per execution with no gap, so seq / 200 groups neighbours)
INSERT INTO "execution_log_chunks" ("execution_id", "first_seq", "count", "entries")
SELECT "execution_id", min("seq"), count(*)::int,
       json_agg(json_build_object('at', taskboard_iso("at"), 'type', "type", 'update', "update") ORDER BY "seq")::text
FROM "execution_log_entries"
GROUP BY "execution_id", "seq" / 200;

-- DropForeignKey
ALTER TABLE "execution_log_entries" DROP CONSTRAINT "execution_log_entries_execution_id_fkey";

-- DropTable
DROP TABLE "execution_log_entries";

-- AddForeignKey
ALTER TABLE "execution_log_chunks" ADD CONSTRAINT "execution_log_chunks_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
