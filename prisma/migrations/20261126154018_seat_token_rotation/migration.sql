-- AlterTable
ALTER TABLE "match" ADD COLUMN     "seat_epoch" INTEGER NOT NULL DEFAULT 0;

