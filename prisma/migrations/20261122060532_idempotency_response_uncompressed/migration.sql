-- Stored responses are written once and read only on a retry: keep them out of line and
-- uncompressed, so the database does not spend CPU compressing every move's response (measured
-- with bench:api: the compression was most of the cost of storing the response).
ALTER TABLE "idempotency_key" ALTER COLUMN "response" SET STORAGE EXTERNAL;
