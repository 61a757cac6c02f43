CREATE TABLE "company_registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"code" text NOT NULL,
	"company_name" text NOT NULL,
	"status" text DEFAULT 'Invited' NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"invited_by" integer,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"company_name2" text,
	"admin_first_name" text,
	"admin_last_name" text,
	"admin_user_id" text,
	"admin_email" text,
	"admin_locale" text,
	"applied_at" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decline_reason" text,
	"company_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_registrations_code_check" CHECK ("company_registrations"."code" ~ '^[0-9]{6,10}$'),
	CONSTRAINT "company_registrations_status_check" CHECK ("company_registrations"."status" in ('Invited', 'Applied', 'Approved', 'Declined')),
	CONSTRAINT "company_registrations_applied_check" CHECK (("company_registrations"."status" = 'Invited') = ("company_registrations"."applied_at" is null))
);
--> statement-breakpoint
ALTER TABLE "company_registrations" ADD CONSTRAINT "company_registrations_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_registrations" ADD CONSTRAINT "company_registrations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_registrations" ADD CONSTRAINT "company_registrations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_registrations" ADD CONSTRAINT "company_registrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "company_registrations_code_key" ON "company_registrations" USING btree ("code");--> statement-breakpoint
CREATE INDEX "company_registrations_issuer_idx" ON "company_registrations" USING btree ("issuer_id","id");--> statement-breakpoint
CREATE INDEX "company_registrations_issuer_status_idx" ON "company_registrations" USING btree ("issuer_id","status","id");