-- AlterTable
ALTER TABLE "match" ADD COLUMN     "to_move" TEXT;

