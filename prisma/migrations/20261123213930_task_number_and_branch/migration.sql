-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "branch" TEXT,
ADD COLUMN     "number" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "task_count" INTEGER NOT NULL DEFAULT 0;

-- Existing tasks are numbered in creation order, per workspace.
UPDATE "tasks" t SET "number" = n.number
FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id ORDER BY created_at, id) AS number FROM "tasks") n
WHERE t.id = n.id;
UPDATE "workspaces" w SET "task_count" = c.count
FROM (SELECT workspace_id, max("number") AS count FROM "tasks" GROUP BY workspace_id) c
WHERE w.id = c.workspace_id;

-- CreateIndex
CREATE UNIQUE INDEX "tasks_workspace_id_number_key" ON "tasks"("workspace_id", "number");

-- Every new task takes the next number of its workspace, whichever path inserts it. The workspace
-- row's lock orders concurrent creates, so numbers are never shared or skipped by a commit, and a
-- deleted task's number is never given again.
CREATE FUNCTION tasks_assign_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workspaces SET task_count = task_count + 1 WHERE id = NEW.workspace_id RETURNING task_count INTO NEW.number;
  RETURN NEW;
END $$;

CREATE TRIGGER tasks_assign_number BEFORE INSERT ON tasks FOR EACH ROW EXECUTE FUNCTION tasks_assign_number();
