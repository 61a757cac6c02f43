DROP INDEX "audit_events_at_idx";--> statement-breakpoint
DROP INDEX "cardholders_company_idx";--> statement-breakpoint
CREATE INDEX "audit_events_at_id_idx" ON "audit_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "users_name_order_idx" ON "users" USING btree ("last_name","first_name","user_id");--> statement-breakpoint
CREATE INDEX "cardholders_company_idx" ON "cardholders" USING btree ("company_id","name2","name1","id");