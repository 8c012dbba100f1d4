CREATE INDEX "groups_name_prefix_idx" ON "groups" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "projects_group_name_idx" ON "projects" USING btree ("group_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "projects_group_updated_idx" ON "projects" USING btree ("group_id","updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "projects_name_prefix_idx" ON "projects" USING btree (lower("name") text_pattern_ops);