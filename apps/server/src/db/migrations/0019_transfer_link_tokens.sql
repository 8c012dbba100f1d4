CREATE TABLE "retired_transfer_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"retired_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfer_downloads" ADD COLUMN "served" "int8multirange" DEFAULT '{}'::int8multirange NOT NULL;--> statement-breakpoint
UPDATE "transfer_downloads" SET "served" = int8multirange(int8range(0, "bytes")) WHERE "bytes" > 0;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD COLUMN "token" text;--> statement-breakpoint
UPDATE "transfer_recipients" SET "token" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "transfer_recipients" ALTER COLUMN "token" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_recipients_token_key" ON "transfer_recipients" USING btree ("token");
