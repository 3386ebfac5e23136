-- The deadline of the running clock (time controls), set with every append; the sweepers find
-- expired matches by (status, deadline).
-- AlterTable
ALTER TABLE "match" ADD COLUMN     "deadline" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "match_status_deadline_idx" ON "match"("status", "deadline");

