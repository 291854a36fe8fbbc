-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "agent_id" TEXT;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent_profiles"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "schedules_agent_id_idx" ON "schedules"("agent_id");
