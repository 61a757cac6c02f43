CREATE TABLE "card_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"locale" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decline_reason" text,
	"cardholder_id" integer,
	"account_id" integer,
	CONSTRAINT "card_applications_status_check" CHECK ("card_applications"."status" in ('Pending', 'Approved', 'Declined')),
	CONSTRAINT "card_applications_decided_check" CHECK (("card_applications"."status" = 'Pending') = ("card_applications"."decided_at" is null) and ("card_applications"."status" = 'Approved') = ("card_applications"."account_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "card_applications" ADD CONSTRAINT "card_applications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_applications" ADD CONSTRAINT "card_applications_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_applications" ADD CONSTRAINT "card_applications_cardholder_id_cardholders_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."cardholders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_applications" ADD CONSTRAINT "card_applications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_applications_company_idx" ON "card_applications" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "card_applications_company_status_idx" ON "card_applications" USING btree ("company_id","status","id");