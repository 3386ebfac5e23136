-- AlterTable
ALTER TABLE "tournament" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

