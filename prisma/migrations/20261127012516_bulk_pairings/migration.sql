-- CreateTable
CREATE TABLE "bulk_pairing" (
    "id" TEXT NOT NULL,
    "organizer_id" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "time_control" JSONB NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "deck" JSONB NOT NULL,
    "pair_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "paired_at" TIMESTAMPTZ(3),

    CONSTRAINT "bulk_pairing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_pairing_board" (
    "bulk_id" TEXT NOT NULL,
    "board" INTEGER NOT NULL,
    "p1_id" TEXT NOT NULL,
    "p2_id" TEXT NOT NULL,
    "match_id" TEXT,

    CONSTRAINT "bulk_pairing_board_pkey" PRIMARY KEY ("bulk_id","board")
);

-- CreateIndex
CREATE INDEX "bulk_pairing_status_pair_at_idx" ON "bulk_pairing"("status", "pair_at");

-- CreateIndex
CREATE INDEX "bulk_pairing_organizer_id_created_at_idx" ON "bulk_pairing"("organizer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_pairing_board_match_id_key" ON "bulk_pairing_board"("match_id");

-- AddForeignKey
ALTER TABLE "bulk_pairing" ADD CONSTRAINT "bulk_pairing_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_pairing_board" ADD CONSTRAINT "bulk_pairing_board_bulk_id_fkey" FOREIGN KEY ("bulk_id") REFERENCES "bulk_pairing"("id") ON DELETE CASCADE ON UPDATE CASCADE;

