-- AlterTable
ALTER TABLE "webhook" ADD COLUMN     "player_id" TEXT,
ALTER COLUMN "match_id" DROP NOT NULL,
ALTER COLUMN "seat" DROP NOT NULL;

-- AlterTable
ALTER TABLE "webhook_delivery" ADD COLUMN     "account_event_id" BIGINT,
ALTER COLUMN "match_id" DROP NOT NULL,
ALTER COLUMN "seat" DROP NOT NULL,
ALTER COLUMN "version" DROP NOT NULL,
ALTER COLUMN "from_seq" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "webhook_player_id_idx" ON "webhook"("player_id");

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_account_event_id_fkey" FOREIGN KEY ("account_event_id") REFERENCES "account_event"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Account webhooks share the per-match tables (decided for the worker: one outbox, one claim with
-- its lease, per-endpoint order, backoff, give-up and disabling, one redelivery path, unchanged).
-- A webhook is a seat's (match_id, seat) or an account's (player_id); a delivery is a seat's
-- (match_id, seat, version, from_seq: the append's events) or an account's (the feed entry).
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_owner_check" CHECK (
  ("match_id" IS NOT NULL AND "seat" IS NOT NULL AND "player_id" IS NULL)
  OR ("match_id" IS NULL AND "seat" IS NULL AND "player_id" IS NOT NULL));
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_subject_check" CHECK (
  ("match_id" IS NOT NULL AND "seat" IS NOT NULL AND "version" IS NOT NULL AND "from_seq" IS NOT NULL AND "account_event_id" IS NULL)
  OR ("match_id" IS NULL AND "seat" IS NULL AND "version" IS NULL AND "from_seq" IS NULL AND "account_event_id" IS NOT NULL));

-- A player's deleted feed entries take their deliveries with them (the cascade looks them up here).
CREATE INDEX "webhook_delivery_account_event_id_idx" ON "webhook_delivery"("account_event_id") WHERE "account_event_id" IS NOT NULL;

-- The outbox of account webhooks: each feed entry queues a delivery to every active account
-- webhook of its player that asked for its kind, in the transaction that wrote the entry (so a
-- committed change always has its deliveries, a rolled-back one never does), on every node.
CREATE FUNCTION account_webhooks_on_entry() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_delivery" ("id", "webhook_id", "kind", "account_event_id", "next_attempt_at")
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w."id", NEW."kind", NEW."id", now()
    FROM "webhook" w
   WHERE w."player_id" = NEW."player_id" AND w."disabled_at" IS NULL AND NEW."kind" = ANY(w."kinds")
   ORDER BY w."id";
  RETURN NULL;
END $$;

CREATE TRIGGER account_webhooks_entry_added AFTER INSERT ON "account_event"
  FOR EACH ROW EXECUTE FUNCTION account_webhooks_on_entry();
