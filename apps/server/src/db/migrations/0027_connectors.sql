CREATE TABLE "connector_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"account_name" text NOT NULL,
	"sealed_credentials" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "connector_accounts_user_kind" UNIQUE("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "connector_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"connector_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"path" text NOT NULL,
	"file_name" text NOT NULL,
	"version_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text NOT NULL,
	"bytes_done" bigint DEFAULT 0 NOT NULL,
	"bytes_total" bigint NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connector_accounts" ADD CONSTRAINT "connector_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_transfers" ADD CONSTRAINT "connector_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connector_transfers_user_idx" ON "connector_transfers" USING btree ("user_id","created_at");