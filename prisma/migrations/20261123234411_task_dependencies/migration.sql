-- AlterTable
ALTER TABLE "task_board_extras" ADD COLUMN     "blocked_by" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "blocks" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "open_blockers" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "auto_start_unblocked" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "task_dependencies" (
    "task_id" TEXT NOT NULL,
    "blocker_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_dependencies_pkey" PRIMARY KEY ("task_id","blocker_id")
);

-- CreateIndex
CREATE INDEX "task_dependencies_blocker_id_idx" ON "task_dependencies"("blocker_id");

-- AddForeignKey
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_blocker_id_fkey" FOREIGN KEY ("blocker_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand from here (Prisma models neither checks nor triggers).

-- A task never waits for itself; the API answers 422 before this is reached.
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_not_self" CHECK ("task_id" <> "blocker_id");

-- The dependency columns of task_board_extras, refreshed for the given tasks the way
-- task_board_extras_refresh refreshes the others: rows created and locked first, in id order, then
-- computed. `open_blockers` counts blockers whose status is not done.
CREATE FUNCTION "task_board_extras_refresh_dependencies"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "task_board_extras" ("task_id")
  SELECT "id" FROM "tasks" WHERE "id" = ANY(task_ids) ORDER BY "id"
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "task_board_extras" WHERE "task_id" = ANY(task_ids) ORDER BY "task_id" FOR UPDATE;
  UPDATE "task_board_extras" e SET
    "blocked_by" = ARRAY(SELECT d."blocker_id" FROM "task_dependencies" d WHERE d."task_id" = e."task_id" ORDER BY d."created_at", d."blocker_id"),
    "blocks" = ARRAY(SELECT d."task_id" FROM "task_dependencies" d WHERE d."blocker_id" = e."task_id" ORDER BY d."created_at", d."task_id"),
    "open_blockers" = (
      SELECT count(*) FROM "task_dependencies" d JOIN "tasks" b ON b."id" = d."blocker_id"
      WHERE d."task_id" = e."task_id" AND b."status" <> 'done')
  WHERE e."task_id" = ANY(task_ids);
END
$$;

-- A dependency added or removed (by hand, or by the cascade of a deleted task): both of its tasks.
CREATE FUNCTION "task_dependencies_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT "task_id" FROM new_rows UNION SELECT "blocker_id" FROM new_rows);
  ELSE
    touched := ARRAY(SELECT "task_id" FROM old_rows UNION SELECT "blocker_id" FROM old_rows);
  END IF;
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh_dependencies"(touched);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "task_dependencies_insert" AFTER INSERT ON "task_dependencies"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_dependencies_apply"();
CREATE TRIGGER "task_dependencies_delete" AFTER DELETE ON "task_dependencies"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_dependencies_apply"();

-- A task that moves into or out of done changes its dependants' open-blocker count. Most updates
-- touch no such task, and then this is one join of the statement's rows and no write.
CREATE FUNCTION "task_dependencies_blocker_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  touched := ARRAY(
    SELECT DISTINCT d."task_id"
    FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    JOIN "task_dependencies" d ON d."blocker_id" = n."id"
    WHERE (n."status" = 'done') IS DISTINCT FROM (o."status" = 'done'));
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh_dependencies"(touched);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "tasks_dependencies_status" AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_dependencies_blocker_status"();
