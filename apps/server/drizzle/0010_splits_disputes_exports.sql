CREATE TABLE "cardholder_reasons" (
	"cardholder_id" integer NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "cardholder_reasons_cardholder_id_code_pk" PRIMARY KEY("cardholder_id","code")
);
--> statement-breakpoint
CREATE TABLE "issuer_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"system_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issuer_codes_kind_check" CHECK ("issuer_codes"."kind" in ('dispute', 'accountStatus', 'maintenance')),
	CONSTRAINT "issuer_codes_code_check" CHECK ("issuer_codes"."code" ~ '^[^[:space:]]{1,2}$'),
	CONSTRAINT "issuer_codes_system_status_check" CHECK (("issuer_codes"."kind" = 'accountStatus') = ("issuer_codes"."system_status" is not null) and ("issuer_codes"."system_status" is null or "issuer_codes"."system_status" in ('A', 'S', 'C')))
);
--> statement-breakpoint
CREATE TABLE "transaction_disputes" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"status" text DEFAULT 'Submitted' NOT NULL,
	"reason_code" text NOT NULL,
	"reason_description" text NOT NULL,
	"amount" bigint NOT NULL,
	"explanation" text NOT NULL,
	"by_user_pk" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_disputes_amount_check" CHECK ("transaction_disputes"."amount" > 0),
	CONSTRAINT "transaction_disputes_status_check" CHECK ("transaction_disputes"."status" in ('Submitted'))
);
--> statement-breakpoint
CREATE TABLE "transaction_export_rows" (
	"export_id" integer NOT NULL,
	"transaction_date" date NOT NULL,
	"transaction_id" bigint NOT NULL,
	CONSTRAINT "transaction_export_rows_export_id_transaction_date_transaction_id_pk" PRIMARY KEY("export_id","transaction_date","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "transaction_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"format" text NOT NULL,
	"transactions" integer NOT NULL,
	"rows" integer NOT NULL,
	"by_user_pk" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_exports_format_check" CHECK ("transaction_exports"."format" in ('csv', 'xlsx'))
);
--> statement-breakpoint
CREATE TABLE "transaction_splits" (
	"transaction_id" bigint NOT NULL,
	"line" smallint NOT NULL,
	"amount" bigint NOT NULL,
	"tax" bigint NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "transaction_splits_transaction_id_line_pk" PRIMARY KEY("transaction_id","line"),
	CONSTRAINT "transaction_splits_line_check" CHECK ("transaction_splits"."line" between 1 and 100),
	CONSTRAINT "transaction_splits_amount_check" CHECK ("transaction_splits"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "status_code" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "split_lines" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cardholder_reasons" ADD CONSTRAINT "cardholder_reasons_cardholder_id_cardholders_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."cardholders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issuer_codes" ADD CONSTRAINT "issuer_codes_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_disputes" ADD CONSTRAINT "transaction_disputes_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_disputes" ADD CONSTRAINT "transaction_disputes_by_user_pk_users_id_fk" FOREIGN KEY ("by_user_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_export_rows" ADD CONSTRAINT "transaction_export_rows_export_id_transaction_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."transaction_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_export_rows" ADD CONSTRAINT "transaction_export_rows_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_exports" ADD CONSTRAINT "transaction_exports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_exports" ADD CONSTRAINT "transaction_exports_by_user_pk_users_id_fk" FOREIGN KEY ("by_user_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_splits" ADD CONSTRAINT "transaction_splits_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "issuer_codes_issuer_kind_code_key" ON "issuer_codes" USING btree ("issuer_id","kind","code");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_disputes_transaction_key" ON "transaction_disputes" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transaction_exports_company_idx" ON "transaction_exports" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_split_lines_check" CHECK ("transactions"."split_lines" = 0 or "transactions"."split_lines" between 2 and 100);