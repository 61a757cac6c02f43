CREATE TABLE "account_accounting" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"scheme_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_coding_defaults" (
	"account_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"value_id" integer,
	"text" text,
	CONSTRAINT "account_coding_defaults_account_id_code_id_pk" PRIMARY KEY("account_id","code_id"),
	CONSTRAINT "account_coding_defaults_one_check" CHECK (("account_coding_defaults"."value_id" is null) <> ("account_coding_defaults"."text" is null))
);
--> statement-breakpoint
CREATE TABLE "account_group_accounting" (
	"group_id" integer PRIMARY KEY NOT NULL,
	"scheme_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounting_scheme_lines" (
	"scheme_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"override" text DEFAULT 'cardholder' NOT NULL,
	"subset_id" integer,
	CONSTRAINT "accounting_scheme_lines_scheme_id_code_id_pk" PRIMARY KEY("scheme_id","code_id"),
	CONSTRAINT "accounting_scheme_lines_override_check" CHECK ("accounting_scheme_lines"."override" in ('cardholder', 'manager', 'administrator', 'none'))
);
--> statement-breakpoint
CREATE TABLE "accounting_schemes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounting_subset_values" (
	"subset_id" integer NOT NULL,
	"value_id" integer NOT NULL,
	CONSTRAINT "accounting_subset_values_subset_id_value_id_pk" PRIMARY KEY("subset_id","value_id")
);
--> statement-breakpoint
CREATE TABLE "accounting_subsets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_accounting" ADD CONSTRAINT "account_accounting_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_accounting" ADD CONSTRAINT "account_accounting_scheme_id_accounting_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."accounting_schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_coding_defaults" ADD CONSTRAINT "account_coding_defaults_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_coding_defaults" ADD CONSTRAINT "account_coding_defaults_code_id_accounting_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."accounting_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_coding_defaults" ADD CONSTRAINT "account_coding_defaults_value_id_accounting_values_id_fk" FOREIGN KEY ("value_id") REFERENCES "public"."accounting_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_group_accounting" ADD CONSTRAINT "account_group_accounting_group_id_account_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."account_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_group_accounting" ADD CONSTRAINT "account_group_accounting_scheme_id_accounting_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."accounting_schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_scheme_lines" ADD CONSTRAINT "accounting_scheme_lines_scheme_id_accounting_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."accounting_schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_scheme_lines" ADD CONSTRAINT "accounting_scheme_lines_code_id_accounting_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."accounting_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_scheme_lines" ADD CONSTRAINT "accounting_scheme_lines_subset_id_accounting_subsets_id_fk" FOREIGN KEY ("subset_id") REFERENCES "public"."accounting_subsets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_schemes" ADD CONSTRAINT "accounting_schemes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_subset_values" ADD CONSTRAINT "accounting_subset_values_subset_id_accounting_subsets_id_fk" FOREIGN KEY ("subset_id") REFERENCES "public"."accounting_subsets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_subset_values" ADD CONSTRAINT "accounting_subset_values_value_id_accounting_values_id_fk" FOREIGN KEY ("value_id") REFERENCES "public"."accounting_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_subsets" ADD CONSTRAINT "accounting_subsets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_subsets" ADD CONSTRAINT "accounting_subsets_code_id_accounting_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."accounting_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_accounting_scheme_idx" ON "account_accounting" USING btree ("scheme_id");--> statement-breakpoint
CREATE INDEX "account_coding_defaults_code_idx" ON "account_coding_defaults" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "account_coding_defaults_value_idx" ON "account_coding_defaults" USING btree ("value_id");--> statement-breakpoint
CREATE INDEX "account_group_accounting_scheme_idx" ON "account_group_accounting" USING btree ("scheme_id");--> statement-breakpoint
CREATE INDEX "accounting_scheme_lines_code_idx" ON "accounting_scheme_lines" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "accounting_scheme_lines_subset_idx" ON "accounting_scheme_lines" USING btree ("subset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_schemes_company_name_key" ON "accounting_schemes" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_schemes_company_default_key" ON "accounting_schemes" USING btree ("company_id") WHERE "accounting_schemes"."is_default";--> statement-breakpoint
CREATE INDEX "accounting_subset_values_value_idx" ON "accounting_subset_values" USING btree ("value_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_subsets_company_name_key" ON "accounting_subsets" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE INDEX "accounting_subsets_code_idx" ON "accounting_subsets" USING btree ("code_id");