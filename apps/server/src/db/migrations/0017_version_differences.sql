CREATE TABLE "version_differences" (
	"version_id" uuid NOT NULL,
	"other_version_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"offset_seconds" double precision,
	"window_seconds" double precision,
	"levels" "bytea",
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "version_differences_version_id_other_version_id_pk" PRIMARY KEY("version_id","other_version_id")
);
--> statement-breakpoint
ALTER TABLE "version_differences" ADD CONSTRAINT "version_differences_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_differences" ADD CONSTRAINT "version_differences_other_version_id_versions_id_fk" FOREIGN KEY ("other_version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_differences_other_idx" ON "version_differences" USING btree ("other_version_id");