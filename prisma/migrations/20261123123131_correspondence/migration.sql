-- Correspondence: the running clock's deadline and the time control kind on each match (the
-- sweepers find expired matches by (status, deadline); history searches by game and time control),
-- and webhook endpoints per seat with their delivery outbox (rows written by the append that causes
-- them; workers claim due rows with FOR UPDATE SKIP LOCKED by (status, next_attempt_at)).
-- AlterTable
ALTER TABLE "match" ADD COLUMN     "deadline" TIMESTAMPTZ(3),
ADD COLUMN     "time_control" TEXT NOT NULL DEFAULT 'none';

-- CreateTable
CREATE TABLE "webhook" (
    "id" TEXT NOT NULL,
    "match_id" TEXT NOT NULL,
    "seat" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "kinds" TEXT[],
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_until" TIMESTAMPTZ(3),
    "deadline_lead_ms" INTEGER NOT NULL,
    "failing_since" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "match_id" TEXT NOT NULL,
    "seat" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "from_seq" INTEGER NOT NULL,
    "to_move" TEXT,
    "deadline" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "first_attempt_at" TIMESTAMPTZ(3),
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_match_id_seat_idx" ON "webhook"("match_id", "seat");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_next_attempt_at_idx" ON "webhook_delivery"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_webhook_id_created_at_idx" ON "webhook_delivery"("webhook_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "match_status_deadline_idx" ON "match"("status", "deadline");

-- CreateIndex
CREATE INDEX "match_game_created_at_id_idx" ON "match"("game", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

