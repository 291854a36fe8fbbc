-- CreateTable
CREATE TABLE "workspace_runner_choices" (
    "workspace_id" TEXT NOT NULL,
    "runner_ids" TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspace_runner_choices_pkey" PRIMARY KEY ("workspace_id")
);

-- AddForeignKey
ALTER TABLE "workspace_runner_choices" ADD CONSTRAINT "workspace_runner_choices_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
