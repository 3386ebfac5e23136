-- CreateTable
CREATE TABLE "match" (
    "id" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "rules_hash" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "card_set_id" TEXT NOT NULL,
    "card_set_hash" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "seed_commitment" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "winner" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seat" (
    "match_id" TEXT NOT NULL,
    "seat" TEXT NOT NULL,
    "token_hash" TEXT,
    "handle" TEXT,
    "joined_at" TIMESTAMPTZ(3),

    CONSTRAINT "seat_pkey" PRIMARY KEY ("match_id","seat")
);

-- CreateTable
CREATE TABLE "event" (
    "match_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "visibility" TEXT NOT NULL,
    "acting_seat" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_pkey" PRIMARY KEY ("match_id","seq")
);

-- CreateTable
CREATE TABLE "idempotency_key" (
    "match_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "seat" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("match_id","key")
);

-- CreateIndex
CREATE INDEX "match_created_at_id_idx" ON "match"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "match_status_created_at_id_idx" ON "match"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "seat_token_hash_key" ON "seat"("token_hash");

-- CreateIndex
CREATE INDEX "seat_handle_idx" ON "seat"("handle");

-- AddForeignKey
ALTER TABLE "seat" ADD CONSTRAINT "seat_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_key" ADD CONSTRAINT "idempotency_key_match_id_fkey" FOREIGN KEY ("match_id") REFERENCES "match"("id") ON DELETE CASCADE ON UPDATE CASCADE;
