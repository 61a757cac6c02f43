ALTER TABLE "audit_events" ADD COLUMN "actor_pk" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_user_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "entity" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "entity_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_pk_users_id_fk" FOREIGN KEY ("actor_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;