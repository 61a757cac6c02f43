CREATE TABLE "transaction_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"format" text NOT NULL,
	"rows" integer NOT NULL,
	"imported" integer NOT NULL,
	"duplicates" integer NOT NULL,
	"by_user_pk" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_imports_format_check" CHECK ("transaction_imports"."format" in ('csv', 'xml'))
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"reference" text NOT NULL,
	"transaction_date" date NOT NULL,
	"posting_date" date NOT NULL,
	"merchant_name" text NOT NULL,
	"merchant_city" text DEFAULT '' NOT NULL,
	"merchant_country" text NOT NULL,
	"mcc" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'New' NOT NULL,
	"exported_at" timestamp with time zone,
	"import_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_status_check" CHECK ("transactions"."status" in ('New', 'Reviewed', 'Approved', 'Locked')),
	CONSTRAINT "transactions_amount_check" CHECK ("transactions"."amount" <> 0),
	CONSTRAINT "transactions_currency_check" CHECK ("transactions"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "transactions_mcc_check" CHECK ("transactions"."mcc" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
ALTER TABLE "issuers" ADD COLUMN "card_bins" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "issuers" ADD COLUMN "account_digits" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "transaction_imports" ADD CONSTRAINT "transaction_imports_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_imports" ADD CONSTRAINT "transaction_imports_by_user_pk_users_id_fk" FOREIGN KEY ("by_user_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_issuer_reference_key" ON "transactions" USING btree ("issuer_id","reference");--> statement-breakpoint
CREATE INDEX "transactions_company_date_idx" ON "transactions" USING btree ("company_id","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_account_date_idx" ON "transactions" USING btree ("account_id","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_issuer_date_idx" ON "transactions" USING btree ("issuer_id","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_company_status_date_idx" ON "transactions" USING btree ("company_id","status","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_account_digits_check" CHECK ("issuers"."account_digits" between 1 and 8);