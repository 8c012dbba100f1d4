ALTER TABLE "versions" ADD COLUMN "lossy_preview_key" text;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "warning" text;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "processing_heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "versions_processing_heartbeat_idx" ON "versions" USING btree ("processing_heartbeat_at") WHERE "versions"."progress" < 100;--> statement-breakpoint
-- Earlier failures stored the decoder's output, server paths included: users get a plain sentence instead.
UPDATE "versions" SET "error" = 'This file could not be read as audio.' WHERE "error" IS NOT NULL;
