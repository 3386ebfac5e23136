-- CreateTable
CREATE TABLE "feed_ticket" (
    "ticket_hash" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_ticket_pkey" PRIMARY KEY ("ticket_hash")
);

-- CreateIndex
CREATE INDEX "feed_ticket_token_hash_idx" ON "feed_ticket"("token_hash");

-- CreateIndex
CREATE INDEX "feed_ticket_expires_at_idx" ON "feed_ticket"("expires_at");

-- AddForeignKey
ALTER TABLE "feed_ticket" ADD CONSTRAINT "feed_ticket_token_hash_fkey" FOREIGN KEY ("token_hash") REFERENCES "player_token"("token_hash") ON DELETE CASCADE ON UPDATE CASCADE;

