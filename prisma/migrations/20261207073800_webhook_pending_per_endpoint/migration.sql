-- The claim's "an earlier version to this endpoint is pending" check reads one endpoint's pending
-- rows through this index, not every pending row (it grew with the square of the backlog).
-- Partial (Prisma cannot express it in schema.prisma), like webhook_delivery_account_event_id_idx.
CREATE INDEX "webhook_delivery_pending_webhook_idx" ON "webhook_delivery"("webhook_id", "version", "account_event_id") WHERE "status" = 'pending';
