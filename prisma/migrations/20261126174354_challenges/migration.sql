-- CreateTable
CREATE TABLE "challenge" (
    "id" TEXT NOT NULL,
    "challenger_id" TEXT NOT NULL,
    "dest_id" TEXT,
    "allowed" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "game" TEXT NOT NULL,
    "time_control" JSONB NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "seat" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "deck" JSONB,
    "status" TEXT NOT NULL DEFAULT 'open',
    "decline_reason" TEXT,
    "match_id" TEXT,
    "accepted_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "challenge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "challenge_match_id_key" ON "challenge"("match_id");

-- CreateIndex
CREATE INDEX "challenge_challenger_id_status_created_at_idx" ON "challenge"("challenger_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "challenge_dest_id_status_created_at_idx" ON "challenge"("dest_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "challenge_status_expires_at_idx" ON "challenge"("status", "expires_at");

-- AddForeignKey
ALTER TABLE "challenge" ADD CONSTRAINT "challenge_challenger_id_fkey" FOREIGN KEY ("challenger_id") REFERENCES "player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge" ADD CONSTRAINT "challenge_dest_id_fkey" FOREIGN KEY ("dest_id") REFERENCES "player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

