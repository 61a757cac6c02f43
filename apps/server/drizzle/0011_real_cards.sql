CREATE TABLE "real_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"alias" text NOT NULL,
	"alias_key" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "real_cards_alias_check" CHECK (length("real_cards"."alias") between 1 and 40)
);
--> statement-breakpoint
ALTER TABLE "real_cards" ADD CONSTRAINT "real_cards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_cards" ADD CONSTRAINT "real_cards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "real_cards_account_key" ON "real_cards" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "real_cards_company_alias_key" ON "real_cards" USING btree ("company_id","alias_key");