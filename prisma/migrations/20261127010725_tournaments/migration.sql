-- CreateTable
CREATE TABLE "tournament" (
    "id" TEXT NOT NULL,
    "organizer_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "game" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "rounds" INTEGER,
    "time_control" JSONB NOT NULL,
    "rated" BOOLEAN NOT NULL,
    "deck_rule" TEXT NOT NULL,
    "max_players" INTEGER NOT NULL,
    "invited" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "entry_closes_at" TIMESTAMPTZ(3),
    "starts_at" TIMESTAMPTZ(3),
    "round_hours" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'open',
    "seed" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 0,
    "round_ends_at" TIMESTAMPTZ(3),
    "standings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_player" (
    "tournament_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "deck" JSONB NOT NULL,
    "deck_name" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL,
    "withdrawn_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_player_pkey" PRIMARY KEY ("tournament_id","player_id")
);

-- CreateTable
CREATE TABLE "tournament_board" (
    "tournament_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "board" INTEGER NOT NULL,
    "p1_id" TEXT NOT NULL,
    "p2_id" TEXT,
    "match_id" TEXT,
    "result" TEXT,
    "forfeit" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "tournament_board_pkey" PRIMARY KEY ("tournament_id","round","board")
);

-- CreateIndex
CREATE INDEX "tournament_status_starts_at_idx" ON "tournament"("status", "starts_at");

-- CreateIndex
CREATE INDEX "tournament_status_round_ends_at_idx" ON "tournament"("status", "round_ends_at");

-- CreateIndex
CREATE INDEX "tournament_organizer_id_created_at_idx" ON "tournament"("organizer_id", "created_at");

-- CreateIndex
CREATE INDEX "tournament_player_player_id_idx" ON "tournament_player"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_board_match_id_key" ON "tournament_board"("match_id");

-- AddForeignKey
ALTER TABLE "tournament" ADD CONSTRAINT "tournament_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_player" ADD CONSTRAINT "tournament_player_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_player" ADD CONSTRAINT "tournament_player_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_board" ADD CONSTRAINT "tournament_board_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- The account feed's tournament entries, written by the database in the transaction that starts
-- a round (its boards) or finishes the tournament, as for every other entry (migration
-- account_feed). Public facts only: never a deck.

-- A board as one of its players sees it when the round starts.
CREATE FUNCTION account_feed_board(t "tournament", b "tournament_board", me TEXT) RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'tournamentId', t."id", 'name', t."name", 'game', t."game", 'round', b."round", 'rounds', t."rounds",
    'roundEndsAt', account_feed_time(t."round_ends_at"), 'matchId', b."match_id",
    'seat', CASE WHEN b."p2_id" IS NULL THEN NULL WHEN b."p1_id" = me THEN 'p1' ELSE 'p2' END,
    'opponent', (SELECT p."handle" FROM "player" p WHERE b."p2_id" IS NOT NULL AND p."id" = CASE WHEN b."p1_id" = me THEN b."p2_id" ELSE b."p1_id" END),
    'bye', b."p2_id" IS NULL);
$$;

CREATE FUNCTION account_feed_on_board() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  t "tournament";
BEGIN
  SELECT * INTO t FROM "tournament" WHERE "id" = NEW."tournament_id";
  PERFORM account_feed_add(NEW."p1_id", 'tournament-round-started', account_feed_board(t, NEW, NEW."p1_id"));
  IF NEW."p2_id" IS NOT NULL THEN
    PERFORM account_feed_add(NEW."p2_id", 'tournament-round-started', account_feed_board(t, NEW, NEW."p2_id"));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER account_feed_board_created AFTER INSERT ON "tournament_board"
  FOR EACH ROW EXECUTE FUNCTION account_feed_on_board();

-- Every entered player (withdrawn ones too) hears the finish, with their own final row.
CREATE FUNCTION account_feed_on_tournament_finished() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_feed_add(tp."player_id", 'tournament-finished',
    jsonb_build_object('tournamentId', NEW."id", 'name', NEW."name", 'game', NEW."game", 'rounds', NEW."round", 'players', jsonb_array_length(NEW."standings"))
      || COALESCE((SELECT jsonb_build_object('rank', e->'rank', 'points', e->'points')
                     FROM jsonb_array_elements(NEW."standings") e WHERE e->>'handle' = p."handle"), '{}'::jsonb))
    FROM "tournament_player" tp JOIN "player" p ON p."id" = tp."player_id"
   WHERE tp."tournament_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER account_feed_tournament_finished AFTER UPDATE OF "status" ON "tournament"
  FOR EACH ROW WHEN (OLD."status" <> 'finished' AND NEW."status" = 'finished') EXECUTE FUNCTION account_feed_on_tournament_finished();
