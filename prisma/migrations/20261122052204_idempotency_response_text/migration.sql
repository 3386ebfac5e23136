-- AlterTable: the stored response becomes the exact body text (jsonb made the database parse
-- every stored response). Existing rows held the body as a JSON string: unwrap it.
ALTER TABLE "idempotency_key" ALTER COLUMN "response" SET DATA TYPE TEXT USING ("response" #>> '{}');
