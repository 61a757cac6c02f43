CREATE TABLE "expense_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"kind" text NOT NULL,
	"type_id" integer NOT NULL,
	"transaction_id" bigint,
	"expense_date" date NOT NULL,
	"description" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"tax_rate_id" integer,
	"tax_minor" bigint,
	"mileage_rate_id" integer,
	"odometer_start" integer,
	"odometer_end" integer,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"receipt_sha256" text,
	"receipt_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_lines_kind_check" CHECK ("expense_lines"."kind" in ('card', 'cash', 'mileage')),
	CONSTRAINT "expense_lines_card_check" CHECK (("expense_lines"."kind" = 'card') = ("expense_lines"."transaction_id" is not null)),
	CONSTRAINT "expense_lines_mileage_check" CHECK (("expense_lines"."kind" = 'mileage') = ("expense_lines"."mileage_rate_id" is not null) and ("expense_lines"."kind" <> 'mileage' or "expense_lines"."odometer_start" < "expense_lines"."odometer_end"))
);
--> statement-breakpoint
CREATE TABLE "expense_report_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"round" integer NOT NULL,
	"action" text NOT NULL,
	"by_pk" integer,
	"step" text,
	"target_pk" integer,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_report_actions_action_check" CHECK ("expense_report_actions"."action" in ('submitted', 'held', 'resubmitted', 'approved', 'sentBack', 'rerouted'))
);
--> statement-breakpoint
CREATE TABLE "expense_report_pending" (
	"user_pk" integer NOT NULL,
	"report_id" integer NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_report_pending_user_pk_report_id_pk" PRIMARY KEY("user_pk","report_id")
);
--> statement-breakpoint
CREATE TABLE "expense_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"owner_pk" integer NOT NULL,
	"cardholder_id" integer NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'Saved' NOT NULL,
	"total_minor" bigint DEFAULT 0 NOT NULL,
	"line_count" smallint DEFAULT 0 NOT NULL,
	"flagged_count" smallint DEFAULT 0 NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"reroute_pk" integer,
	"reroute_step" text,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_reports_status_check" CHECK ("expense_reports"."status" in ('Saved', 'Held', 'Submitted', 'Approved', 'SentBack')),
	CONSTRAINT "expense_reports_currency_check" CHECK ("expense_reports"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "expense_reports_lines_check" CHECK ("expense_reports"."line_count" between 0 and 200)
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"sha256" text PRIMARY KEY NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_sha256_check" CHECK ("stored_files"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "stored_files_size_check" CHECK ("stored_files"."size" between 1 and 4194304)
);
--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_report_id_expense_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."expense_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_type_id_expense_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."expense_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_tax_rate_id_tax_rates_id_fk" FOREIGN KEY ("tax_rate_id") REFERENCES "public"."tax_rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_mileage_rate_id_mileage_rates_id_fk" FOREIGN KEY ("mileage_rate_id") REFERENCES "public"."mileage_rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_lines" ADD CONSTRAINT "expense_lines_receipt_sha256_stored_files_sha256_fk" FOREIGN KEY ("receipt_sha256") REFERENCES "public"."stored_files"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_report_actions" ADD CONSTRAINT "expense_report_actions_report_id_expense_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."expense_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_report_actions" ADD CONSTRAINT "expense_report_actions_by_pk_users_id_fk" FOREIGN KEY ("by_pk") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_report_actions" ADD CONSTRAINT "expense_report_actions_target_pk_users_id_fk" FOREIGN KEY ("target_pk") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_report_pending" ADD CONSTRAINT "expense_report_pending_user_pk_users_id_fk" FOREIGN KEY ("user_pk") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_report_pending" ADD CONSTRAINT "expense_report_pending_report_id_expense_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."expense_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_reports" ADD CONSTRAINT "expense_reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_reports" ADD CONSTRAINT "expense_reports_owner_pk_users_id_fk" FOREIGN KEY ("owner_pk") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_reports" ADD CONSTRAINT "expense_reports_cardholder_id_cardholders_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."cardholders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_reports" ADD CONSTRAINT "expense_reports_reroute_pk_users_id_fk" FOREIGN KEY ("reroute_pk") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expense_lines_report_idx" ON "expense_lines" USING btree ("report_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "expense_lines_transaction_key" ON "expense_lines" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "expense_lines_type_idx" ON "expense_lines" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "expense_lines_tax_rate_idx" ON "expense_lines" USING btree ("tax_rate_id");--> statement-breakpoint
CREATE INDEX "expense_lines_mileage_rate_idx" ON "expense_lines" USING btree ("mileage_rate_id");--> statement-breakpoint
CREATE INDEX "expense_lines_receipt_idx" ON "expense_lines" USING btree ("receipt_sha256");--> statement-breakpoint
CREATE INDEX "expense_report_actions_report_idx" ON "expense_report_actions" USING btree ("report_id","id");--> statement-breakpoint
CREATE INDEX "expense_report_pending_queue_idx" ON "expense_report_pending" USING btree ("user_pk","since","report_id");--> statement-breakpoint
CREATE INDEX "expense_report_pending_report_idx" ON "expense_report_pending" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "expense_reports_owner_idx" ON "expense_reports" USING btree ("owner_pk","updated_at","id");--> statement-breakpoint
CREATE INDEX "expense_reports_company_idx" ON "expense_reports" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "expense_reports_company_status_idx" ON "expense_reports" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "expense_reports_cardholder_status_idx" ON "expense_reports" USING btree ("cardholder_id","status");