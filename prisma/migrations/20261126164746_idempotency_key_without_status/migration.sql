-- AlterTable: the row no longer stores an HTTP status. Every row held 200: only accepted actions
-- are stored for a key, and a retry is answered from `response` alone (the status was never read).
ALTER TABLE "idempotency_key" DROP COLUMN "status_code";
