-- AlterTable
ALTER TABLE "match" ADD COLUMN     "ending" TEXT,
ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "seat" ADD COLUMN     "deck" TEXT;

-- CreateTable
CREATE TABLE "rating" (
    "player_id" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "volatility" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_pkey" PRIMARY KEY ("player_id","game","family")
);

-- CreateTable
CREATE TABLE "rating_change" (
    "match_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "rd_before" DOUBLE PRECISION NOT NULL,
    "volatility_before" DOUBLE PRECISION NOT NULL,
    "rating_after" DOUBLE PRECISION NOT NULL,
    "rd_after" DOUBLE PRECISION NOT NULL,
    "volatility_after" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_change_pkey" PRIMARY KEY ("match_id","player_id")
);

-- CreateIndex
CREATE INDEX "rating_leaderboard_idx" ON "rating"("game", "family", "rating" DESC);

-- CreateIndex
CREATE INDEX "rating_change_player_id_created_at_idx" ON "rating_change"("player_id", "created_at");

-- CreateIndex
CREATE INDEX "match_rated_created_at_id_idx" ON "match"("rated", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "rating" ADD CONSTRAINT "rating_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_change" ADD CONSTRAINT "rating_change_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_change" ADD CONSTRAINT "rating_change_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill: how the matches finished so far ended (a MatchEnded record says timed-out or aborted;
-- otherwise the game's own rules ended it).
UPDATE "match" m
   SET "ending" = COALESCE((SELECT e."payload"->'end'->>'reason' FROM "event" e
                             WHERE e."match_id" = m."id" AND e."type" = 'MatchEnded' ORDER BY e."seq" LIMIT 1), 'game')
 WHERE m."status" = 'finished';
