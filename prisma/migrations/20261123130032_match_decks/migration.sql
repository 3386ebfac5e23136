-- The deck lists as dealt, kept secret like the seed and published in match exports at the end.
-- AlterTable
ALTER TABLE "match" ADD COLUMN     "decks" JSONB;

