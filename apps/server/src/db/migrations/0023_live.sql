CREATE TABLE "live_room_codes" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_room_codes_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "live_room_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "live_sessions" (
	"code" text PRIMARY KEY NOT NULL,
	"host_id" uuid NOT NULL,
	"host_code" text NOT NULL,
	"live_url" text NOT NULL,
	"status" text NOT NULL,
	"countdown_time" bigint,
	"bitrate" integer NOT NULL,
	"max_duration_ms" integer,
	"elapsed_ms" integer DEFAULT 0 NOT NULL,
	"tick_due_at" timestamp with time zone,
	"start_time" timestamp with time zone NOT NULL,
	"last_update" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_streams" (
	"code" text NOT NULL,
	"user_id" uuid NOT NULL,
	"is_enabled" boolean NOT NULL,
	"is_host" boolean NOT NULL,
	"is_online" boolean NOT NULL,
	"instance_id" text NOT NULL,
	"source" integer,
	"bitrate" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_streams_code_user_id_pk" PRIMARY KEY("code","user_id")
);
--> statement-breakpoint
CREATE TABLE "live_usage" (
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "live_usage_user_id_period_pk" PRIMARY KEY("user_id","period")
);
--> statement-breakpoint
ALTER TABLE "live_room_codes" ADD CONSTRAINT "live_room_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_code_live_sessions_code_fk" FOREIGN KEY ("code") REFERENCES "public"."live_sessions"("code") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_usage" ADD CONSTRAINT "live_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_sessions_host_idx" ON "live_sessions" USING btree ("host_id");--> statement-breakpoint
CREATE INDEX "live_streams_user_idx" ON "live_streams" USING btree ("user_id");