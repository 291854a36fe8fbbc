-- AlterTable
ALTER TABLE "agent_profiles" ADD COLUMN     "key_names" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "keys_sealed" TEXT;
