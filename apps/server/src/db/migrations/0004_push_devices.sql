CREATE TABLE "push_devices" (
	"user_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"subscription" text NOT NULL,
	"last_update" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_devices_user_id_device_id_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;