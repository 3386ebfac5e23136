-- AlterTable
ALTER TABLE "match" ADD COLUMN     "ai_owner" TEXT;

