DROP INDEX "versions_processing_heartbeat_idx";--> statement-breakpoint
ALTER TABLE "versions" DROP COLUMN "processing_heartbeat_at";