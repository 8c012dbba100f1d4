CREATE TABLE "file_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"max_bytes" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transfer_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"email" text,
	"file_id" uuid,
	"file_name" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_files" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"path" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"sha256" text
);
--> statement-breakpoint
CREATE TABLE "transfer_recipients" (
	"transfer_id" uuid NOT NULL,
	"email" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"last_download_at" timestamp with time zone,
	CONSTRAINT "transfer_recipients_transfer_id_email_pk" PRIMARY KEY("transfer_id","email")
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"name" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"mode" text NOT NULL,
	"password_hash" text,
	"duration_days" integer NOT NULL,
	"group_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"flag" text DEFAULT 'CREATE' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	"access_epoch" integer DEFAULT 0 NOT NULL,
	"anonymous_downloads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"all_downloaded_at" timestamp with time zone,
	"purged_at" timestamp with time zone,
	"request_id" uuid,
	"uploader_name" text,
	"uploader_email" text
);
--> statement-breakpoint
ALTER TABLE "file_requests" ADD CONSTRAINT "file_requests_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_downloads" ADD CONSTRAINT "transfer_downloads_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD CONSTRAINT "transfer_files_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD CONSTRAINT "transfer_recipients_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_requests_token_key" ON "file_requests" USING btree ("token");--> statement-breakpoint
CREATE INDEX "file_requests_owner_idx" ON "file_requests" USING btree ("owner_id") WHERE "file_requests"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "transfer_downloads_transfer_idx" ON "transfer_downloads" USING btree ("transfer_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfer_files_transfer_idx" ON "transfer_files" USING btree ("transfer_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_token_key" ON "transfers" USING btree ("token");--> statement-breakpoint
CREATE INDEX "transfers_publisher_idx" ON "transfers" USING btree ("publisher_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_expiry_idx" ON "transfers" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "transfers_group_idx" ON "transfers" USING btree ("group_id");