-- CreateTable
CREATE TABLE "seek" (
    "id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "time_control" JSONB NOT NULL,
    "control_key" TEXT NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "min_rating" INTEGER,
    "max_rating" INTEGER,
    "deck" JSONB NOT NULL,
    "deck_name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "match_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "seek_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "seek_game_control_key_rated_status_created_at_idx" ON "seek"("game", "control_key", "rated", "status", "created_at");

-- CreateIndex
CREATE INDEX "seek_player_id_created_at_idx" ON "seek"("player_id", "created_at");

-- AddForeignKey
ALTER TABLE "seek" ADD CONSTRAINT "seek_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

