-- AlterTable
ALTER TABLE "idempotency_key" DROP CONSTRAINT "idempotency_key_pkey",
ADD CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("match_id", "seat", "key");

