-- CreateTable
CREATE TABLE "account_event" (
    "id" BIGSERIAL NOT NULL,
    "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    "player_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_event_xid_id_idx" ON "account_event"("xid", "id");

-- CreateIndex
CREATE INDEX "account_event_player_id_xid_id_idx" ON "account_event"("player_id", "xid", "id");

-- AddForeignKey
ALTER TABLE "account_event" ADD CONSTRAINT "account_event_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The account feed is written here, by the database, in the transaction of each change that
-- causes an entry: every writer on every node feeds it, and an entry exists exactly when its
-- change committed. Entries hold public facts only (ids, handles, game, seats, status).

CREATE FUNCTION account_feed_add(player TEXT, kind TEXT, data JSONB) RETURNS VOID LANGUAGE sql AS $$
  INSERT INTO "account_event" ("player_id", "kind", "data") VALUES (player, kind, data);
$$;

-- ISO 8601 in UTC with milliseconds, as the API writes times (Date.toISOString).
CREATE FUNCTION account_feed_time(t TIMESTAMPTZ) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
$$;

-- A challenge as the API shows it (src/service/challenges.ts challengeView): never the challenger's deck.
CREATE FUNCTION account_feed_challenge(c "challenge") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', c."id", 'status', c."status",
    'challenger', (SELECT jsonb_build_object('handle', p."handle", 'bot', p."bot") FROM "player" p WHERE p."id" = c."challenger_id"),
    'to', (SELECT jsonb_build_object('handle', p."handle", 'bot', p."bot") FROM "player" p WHERE p."id" = c."dest_id"),
    'allowed', to_jsonb(c."allowed"), 'game', c."game", 'timeControl', c."time_control", 'rated', c."rated",
    'seat', c."seat", 'settings', COALESCE(c."settings", '{}'::jsonb), 'declineReason', c."decline_reason", 'matchId', c."match_id",
    'createdAt', account_feed_time(c."created_at"), 'expiresAt', account_feed_time(c."expires_at"), 'closedAt', account_feed_time(c."closed_at"));
$$;

-- Who a challenge is for: its challenged player, or the registered players an open one names.
CREATE FUNCTION account_feed_challenge_for(c "challenge") RETURNS SETOF TEXT LANGUAGE sql STABLE AS $$
  SELECT c."dest_id" WHERE c."dest_id" IS NOT NULL
  UNION
  SELECT p."id" FROM "player" p WHERE c."dest_id" IS NULL AND p."handle_key" = ANY(c."allowed");
$$;

CREATE FUNCTION account_feed_on_challenge() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  body JSONB := account_feed_challenge(NEW);
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM account_feed_add(p, 'challenge-received', body) FROM account_feed_challenge_for(NEW) AS p;
  ELSIF NEW."status" = 'accepted' THEN
    PERFORM account_feed_add(NEW."challenger_id", 'challenge-accepted', body);
  ELSIF NEW."status" = 'declined' THEN
    PERFORM account_feed_add(NEW."challenger_id", 'challenge-declined', body);
  ELSIF NEW."status" = 'canceled' THEN
    PERFORM account_feed_add(p, 'challenge-canceled', body) FROM account_feed_challenge_for(NEW) AS p;
  ELSIF NEW."status" = 'expired' THEN
    PERFORM account_feed_add(NEW."challenger_id", 'challenge-expired', body);
    PERFORM account_feed_add(p, 'challenge-expired', body) FROM account_feed_challenge_for(NEW) AS p;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER account_feed_challenge_created AFTER INSERT ON "challenge"
  FOR EACH ROW EXECUTE FUNCTION account_feed_on_challenge();
CREATE TRIGGER account_feed_challenge_closed AFTER UPDATE OF "status" ON "challenge"
  FOR EACH ROW WHEN (OLD."status" = 'open' AND NEW."status" <> 'open') EXECUTE FUNCTION account_feed_on_challenge();

-- A match as one of its seats sees it in the feed.
CREATE FUNCTION account_feed_match(m "match", s "seat") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'matchId', m."id", 'game', m."game", 'seat', s."seat", 'status', m."status", 'rated', m."rated",
    'timeControl', m."time_control", 'toMove', m."to_move", 'version', m."version",
    'deadline', account_feed_time(m."deadline"),
    'opponent', (SELECT o."handle" FROM "seat" o WHERE o."match_id" = m."id" AND o."seat" <> s."seat"),
    'winner', m."winner", 'ending', m."ending");
$$;

-- Started (created with both seats taken, or its open seat joined): every registered seat hears
-- it, and the seat to move also hears that it is its turn.
CREATE FUNCTION account_feed_on_match_started() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  s "seat";
BEGIN
  FOR s IN SELECT * FROM "seat" WHERE "match_id" = NEW."id" AND "player_id" IS NOT NULL ORDER BY "seat" LOOP
    PERFORM account_feed_add(s."player_id", 'match-started', account_feed_match(NEW, s));
    IF NEW."to_move" = s."seat" THEN
      PERFORM account_feed_add(s."player_id", 'your-turn', account_feed_match(NEW, s));
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

-- The decision passed to another seat of a running match.
CREATE FUNCTION account_feed_on_turn() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  s "seat";
BEGIN
  SELECT * INTO s FROM "seat" WHERE "match_id" = NEW."id" AND "seat" = NEW."to_move" AND "player_id" IS NOT NULL;
  IF FOUND THEN
    PERFORM account_feed_add(s."player_id", 'your-turn', account_feed_match(NEW, s));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION account_feed_on_match_ended() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  s "seat";
BEGIN
  FOR s IN SELECT * FROM "seat" WHERE "match_id" = NEW."id" AND "player_id" IS NOT NULL ORDER BY "seat" LOOP
    PERFORM account_feed_add(s."player_id", 'match-ended', account_feed_match(NEW, s));
  END LOOP;
  RETURN NULL;
END $$;

-- AFTER triggers run at the end of the statement, so a match created with its seats in one
-- statement (CREATE), or a join that claims the seat in the append's statement, has them here.
CREATE TRIGGER account_feed_match_created AFTER INSERT ON "match"
  FOR EACH ROW WHEN (NEW."status" = 'active') EXECUTE FUNCTION account_feed_on_match_started();
CREATE TRIGGER account_feed_match_joined AFTER UPDATE OF "status" ON "match"
  FOR EACH ROW WHEN (OLD."status" = 'waiting' AND NEW."status" = 'active') EXECUTE FUNCTION account_feed_on_match_started();
CREATE TRIGGER account_feed_match_turn AFTER UPDATE OF "to_move" ON "match"
  FOR EACH ROW WHEN (OLD."status" = 'active' AND NEW."status" = 'active' AND NEW."to_move" IS NOT NULL AND NEW."to_move" IS DISTINCT FROM OLD."to_move")
  EXECUTE FUNCTION account_feed_on_turn();
CREATE TRIGGER account_feed_match_ended AFTER UPDATE OF "status" ON "match"
  FOR EACH ROW WHEN (OLD."status" <> 'finished' AND NEW."status" = 'finished') EXECUTE FUNCTION account_feed_on_match_ended();

-- A rematch offer (the RematchOffered record of the match log, src/core/match-records.ts): the other seat hears it.
CREATE FUNCTION account_feed_on_rematch_offer() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  s "seat";
  m "match";
BEGIN
  SELECT * INTO m FROM "match" WHERE "id" = NEW."match_id";
  SELECT * INTO s FROM "seat" WHERE "match_id" = NEW."match_id" AND "seat" <> NEW."payload"->>'by' AND "player_id" IS NOT NULL;
  IF FOUND THEN
    PERFORM account_feed_add(s."player_id", 'rematch-offered',
      account_feed_match(m, s) || jsonb_build_object('expiresAt', account_feed_time(to_timestamp((NEW."payload"->>'expiresAt')::double precision / 1000))));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER account_feed_rematch_offered AFTER INSERT ON "event"
  FOR EACH ROW WHEN (NEW."source" = 'match' AND NEW."type" = 'RematchOffered') EXECUTE FUNCTION account_feed_on_rematch_offer();

-- A seek paired (inserted paired, or an open one paired by a newer seek).
CREATE FUNCTION account_feed_on_seek_paired() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_feed_add(NEW."player_id", 'seek-paired',
    jsonb_build_object('seekId', NEW."id", 'matchId', NEW."match_id", 'game', NEW."game", 'timeControl', NEW."time_control", 'rated', NEW."rated"));
  RETURN NULL;
END $$;

CREATE TRIGGER account_feed_seek_inserted_paired AFTER INSERT ON "seek"
  FOR EACH ROW WHEN (NEW."status" = 'paired') EXECUTE FUNCTION account_feed_on_seek_paired();
CREATE TRIGGER account_feed_seek_paired AFTER UPDATE OF "status" ON "seek"
  FOR EACH ROW WHEN (OLD."status" = 'open' AND NEW."status" = 'paired') EXECUTE FUNCTION account_feed_on_seek_paired();
