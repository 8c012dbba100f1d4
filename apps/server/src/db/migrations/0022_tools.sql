CREATE TABLE "tool_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"progress" double precision DEFAULT -1 NOT NULL,
	"message" text,
	"parameters" jsonb NOT NULL,
	"engine" jsonb,
	"outputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tool_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"tool" text NOT NULL,
	"mode" text,
	"voice" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"flag" text DEFAULT 'NONE' NOT NULL,
	"input_source" text NOT NULL,
	"input_file_name" text NOT NULL,
	"input_version_id" uuid,
	"input_key" text NOT NULL,
	"input_seconds" double precision NOT NULL,
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tool_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"blob_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tool_sessions" ADD CONSTRAINT "tool_sessions_task_id_tool_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tool_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_tasks" ADD CONSTRAINT "tool_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_uploads" ADD CONSTRAINT "tool_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_sessions_task" ON "tool_sessions" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "tool_tasks_user_created" ON "tool_tasks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tool_tasks_status" ON "tool_tasks" USING btree ("status");