-- Every match records the game it is (the ruleset id) and that ruleset's rules version.
-- Matches written before this migration are all Evons, created under the only Evons rules
-- version there has been ('evons-set00-v1.0/r1'); the defaults backfill them, then go, so new
-- rows must name both.
ALTER TABLE "match" ADD COLUMN     "game" TEXT NOT NULL DEFAULT 'evons',
ADD COLUMN     "rules_version" TEXT NOT NULL DEFAULT 'evons-set00-v1.0/r1';

ALTER TABLE "match" ALTER COLUMN "game" DROP DEFAULT,
ALTER COLUMN "rules_version" DROP DEFAULT;
