-- The envelope of a stored event: the game's own ('game') or a record of the match itself ('match').
ALTER TABLE "event" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'game';
ALTER TABLE "event" ADD CONSTRAINT "event_source_check" CHECK ("source" IN ('game', 'match'));

-- Until now the match's records were told apart by name; no hosted game has an event of these names.
UPDATE "event" SET "source" = 'match' WHERE "type" IN ('MatchOpened', 'ClockSet', 'MatchEnded');
