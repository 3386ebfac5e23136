-- CreateTable
CREATE TABLE "ai_turn" (
    "match_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "claimed_until" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL,
    "node" TEXT NOT NULL,

    CONSTRAINT "ai_turn_pkey" PRIMARY KEY ("match_id")
);


-- The computer's eight levels are registered bot players (handles ai-level-1 … ai-level-8, which
-- no one else may register: src/service/reserved-handles.ts). Their seats show as verified bots.
INSERT INTO "player" ("id", "handle", "handle_key", "bot")
SELECT 'ai-level-' || n, 'ai-level-' || n, 'ai-level-' || n, true FROM generate_series(1, 8) AS n
ON CONFLICT DO NOTHING;
