CREATE TABLE "allocation_values" (
	"allocation_id" bigint NOT NULL,
	"code_id" integer NOT NULL,
	"value_id" integer,
	"text" text,
	CONSTRAINT "allocation_values_allocation_id_code_id_pk" PRIMARY KEY("allocation_id","code_id"),
	CONSTRAINT "allocation_values_one_check" CHECK (("allocation_values"."value_id" is null) <> ("allocation_values"."text" is null))
);
--> statement-breakpoint
CREATE TABLE "mass_allocation_items" (
	"batch_id" integer NOT NULL,
	"transaction_id" bigint NOT NULL,
	"before" jsonb NOT NULL,
	CONSTRAINT "mass_allocation_items_batch_id_transaction_id_pk" PRIMARY KEY("batch_id","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "mass_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"by_user_pk" integer,
	"by_user_id" text NOT NULL,
	"transactions" integer NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"coding" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transaction_allocations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"split_line" smallint DEFAULT 0 NOT NULL,
	"position" smallint NOT NULL,
	"amount" bigint NOT NULL,
	"percent" smallint,
	"batch_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_allocations_amount_check" CHECK ("transaction_allocations"."amount" <> 0),
	CONSTRAINT "transaction_allocations_percent_check" CHECK ("transaction_allocations"."percent" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "allocation_values" ADD CONSTRAINT "allocation_values_allocation_id_transaction_allocations_id_fk" FOREIGN KEY ("allocation_id") REFERENCES "public"."transaction_allocations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocation_values" ADD CONSTRAINT "allocation_values_code_id_accounting_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."accounting_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocation_values" ADD CONSTRAINT "allocation_values_value_id_accounting_values_id_fk" FOREIGN KEY ("value_id") REFERENCES "public"."accounting_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_allocation_items" ADD CONSTRAINT "mass_allocation_items_batch_id_mass_allocations_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mass_allocations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_allocation_items" ADD CONSTRAINT "mass_allocation_items_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_allocations" ADD CONSTRAINT "mass_allocations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mass_allocations" ADD CONSTRAINT "mass_allocations_by_user_pk_users_id_fk" FOREIGN KEY ("by_user_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_batch_id_mass_allocations_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mass_allocations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allocation_values_code_idx" ON "allocation_values" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "allocation_values_value_idx" ON "allocation_values" USING btree ("value_id");--> statement-breakpoint
CREATE INDEX "mass_allocation_items_transaction_idx" ON "mass_allocation_items" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "mass_allocations_company_idx" ON "mass_allocations" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_allocations_line_key" ON "transaction_allocations" USING btree ("transaction_id","split_line","position");--> statement-breakpoint
CREATE INDEX "transaction_allocations_batch_idx" ON "transaction_allocations" USING btree ("batch_id");