CREATE TABLE "sfu_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sfu_placements" (
	"room_key" text PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"placed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sfu_placements" ADD CONSTRAINT "sfu_placements_node_id_sfu_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."sfu_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sfu_placements_node_idx" ON "sfu_placements" USING btree ("node_id");