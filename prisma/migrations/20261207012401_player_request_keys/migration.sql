-- CreateTable
CREATE TABLE "player_request_key" (
    "player_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_request_key_pkey" PRIMARY KEY ("player_id","operation","key")
);

-- AddForeignKey
ALTER TABLE "player_request_key" ADD CONSTRAINT "player_request_key_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

