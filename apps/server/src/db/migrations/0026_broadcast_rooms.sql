CREATE TABLE "broadcast_rooms" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"broadcaster_code" text NOT NULL,
	"viewer_code" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"countdown_time" bigint,
	"bitrate" integer NOT NULL,
	"stream_key_hash" text,
	"stream_key_hint" text,
	"stream_key_created_at" timestamp with time zone,
	"status" text DEFAULT 'idle' NOT NULL,
	"listeners" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "broadcast_rooms_broadcaster_code_unique" UNIQUE("broadcaster_code"),
	CONSTRAINT "broadcast_rooms_viewer_code_unique" UNIQUE("viewer_code")
);
--> statement-breakpoint
ALTER TABLE "broadcast_rooms" ADD CONSTRAINT "broadcast_rooms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;