-- AlterTable
ALTER TABLE "bulk_pairing" ADD COLUMN     "consent_tokens" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "bulk_pairing_board" ADD COLUMN     "unpaired_reason" TEXT;

-- AlterTable
ALTER TABLE "player_token" ADD COLUMN     "bulk_pairing_id" TEXT;

-- CreateIndex
CREATE INDEX "player_token_bulk_pairing_id_idx" ON "player_token"("bulk_pairing_id");

