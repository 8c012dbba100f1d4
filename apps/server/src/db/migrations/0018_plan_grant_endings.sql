ALTER TABLE "plan_grants" ADD COLUMN "end_announced_at" timestamp with time zone;--> statement-breakpoint
-- Grants that ended before this column existed were shown as ended long ago: nothing to tell.
UPDATE "plan_grants" SET "end_announced_at" = "ends_at" WHERE "ends_at" <= now();
