-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "answered_by" TEXT;

-- AddForeignKey
ALTER TABLE "questions" ADD CONSTRAINT "questions_answered_by_fkey" FOREIGN KEY ("answered_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
