-- AlterTable
ALTER TABLE "webhook_delivery" ADD COLUMN     "redeliveries" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "webhook_delivery_match_id_status_idx" ON "webhook_delivery"("match_id", "status");


-- Deadline warnings left pending for a position their match has moved past (appends now mark
-- them superseded as they move past; these were written before that).
UPDATE "webhook_delivery" d SET "status" = 'superseded'
  FROM "match" m
 WHERE m."id" = d."match_id" AND d."status" = 'pending' AND d."kind" = 'deadline-near' AND d."version" < m."version";
