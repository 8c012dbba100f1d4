DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx_v2" ON "users" USING gin (lower("email") gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx_v2" ON "users" USING gin (lower("display_name") gin_trgm_ops) WITH (fastupdate=false);