CREATE TABLE "approval_profile_members" (
	"profile_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "approval_profile_members_profile_id_user_id_pk" PRIMARY KEY("profile_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "approval_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"currency" text NOT NULL,
	"limit_minor" bigint NOT NULL,
	"approval_percentage" smallint DEFAULT 100 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_profiles_limit_check" CHECK ("approval_profiles"."limit_minor" > 0),
	CONSTRAINT "approval_profiles_percentage_check" CHECK ("approval_profiles"."approval_percentage" between 1 and 100),
	CONSTRAINT "approval_profiles_currency_check" CHECK ("approval_profiles"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "approval_thresholds" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"profile_id" integer NOT NULL,
	CONSTRAINT "approval_thresholds_amount_check" CHECK ("approval_thresholds"."amount_minor" > 0),
	CONSTRAINT "approval_thresholds_currency_check" CHECK ("approval_thresholds"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "expense_policies" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"receipt_above_minor" bigint,
	"description_max_length" smallint DEFAULT 255 NOT NULL,
	"workflow_instructions" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_policies_currency_check" CHECK ("expense_policies"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "expense_policies_description_check" CHECK ("expense_policies"."description_max_length" between 10 and 255),
	CONSTRAINT "expense_policies_receipt_check" CHECK ("expense_policies"."receipt_above_minor" is null or "expense_policies"."receipt_above_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "expense_policy_limits" (
	"company_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"limit_minor" bigint,
	"receipt_above_minor" bigint,
	CONSTRAINT "expense_policy_limits_company_id_type_id_pk" PRIMARY KEY("company_id","type_id"),
	CONSTRAINT "expense_policy_limits_limit_check" CHECK ("expense_policy_limits"."limit_minor" is null or "expense_policy_limits"."limit_minor" > 0),
	CONSTRAINT "expense_policy_limits_receipt_check" CHECK ("expense_policy_limits"."receipt_above_minor" is null or "expense_policy_limits"."receipt_above_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "expense_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"category" text DEFAULT 'general' NOT NULL,
	"properties" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_types_category_check" CHECK ("expense_types"."category" in ('general', 'mileage'))
);
--> statement-breakpoint
CREATE TABLE "mileage_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"unit" text NOT NULL,
	"currency" text NOT NULL,
	"rate_e4" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mileage_rates_unit_check" CHECK ("mileage_rates"."unit" in ('km', 'mi')),
	CONSTRAINT "mileage_rates_rate_check" CHECK ("mileage_rates"."rate_e4" > 0),
	CONSTRAINT "mileage_rates_currency_check" CHECK ("mileage_rates"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"rate_e3" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate_check" CHECK ("tax_rates"."rate_e3" > 0 and "tax_rates"."rate_e3" <= 100000)
);
--> statement-breakpoint
ALTER TABLE "approval_profile_members" ADD CONSTRAINT "approval_profile_members_profile_id_approval_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."approval_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_profile_members" ADD CONSTRAINT "approval_profile_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_profiles" ADD CONSTRAINT "approval_profiles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_profile_id_approval_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."approval_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_policies" ADD CONSTRAINT "expense_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_policy_limits" ADD CONSTRAINT "expense_policy_limits_company_id_expense_policies_company_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."expense_policies"("company_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_policy_limits" ADD CONSTRAINT "expense_policy_limits_type_id_expense_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."expense_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_types" ADD CONSTRAINT "expense_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mileage_rates" ADD CONSTRAINT "mileage_rates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_profile_members_user_key" ON "approval_profile_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_profiles_company_name_key" ON "approval_profiles" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_profiles_company_id_key" ON "approval_profiles" USING btree ("company_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_thresholds_company_amount_key" ON "approval_thresholds" USING btree ("company_id","currency","amount_minor");--> statement-breakpoint
CREATE INDEX "approval_thresholds_profile_idx" ON "approval_thresholds" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "expense_policy_limits_type_idx" ON "expense_policy_limits" USING btree ("type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "expense_types_company_name_key" ON "expense_types" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "mileage_rates_company_name_key" ON "mileage_rates" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "mileage_rates_company_rate_key" ON "mileage_rates" USING btree ("company_id","unit","currency","rate_e4");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_company_name_key" ON "tax_rates" USING btree ("company_id","name_key");