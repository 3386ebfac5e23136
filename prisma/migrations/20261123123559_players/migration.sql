-- AlterTable
ALTER TABLE "seat" ADD COLUMN     "player_id" TEXT;

-- CreateTable
CREATE TABLE "player" (
    "id" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "handle_key" TEXT NOT NULL,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "player_token" (
    "id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "label" TEXT,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "player_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "player_handle_key_key" ON "player"("handle_key");

-- CreateIndex
CREATE UNIQUE INDEX "player_token_token_hash_key" ON "player_token"("token_hash");

-- CreateIndex
CREATE INDEX "player_token_player_id_idx" ON "player_token"("player_id");

-- CreateIndex
CREATE INDEX "seat_player_id_idx" ON "seat"("player_id");

-- AddForeignKey
ALTER TABLE "seat" ADD CONSTRAINT "seat_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_token" ADD CONSTRAINT "player_token_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

