-- AlterTable
ALTER TABLE "agent_profiles" ADD COLUMN     "network" TEXT NOT NULL DEFAULT 'allowlist',
ADD COLUMN     "network_allow" TEXT[] DEFAULT ARRAY[]::TEXT[];
