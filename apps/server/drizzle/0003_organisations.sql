CREATE TABLE "account_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"account_group_id" integer,
	"cardholder_id" integer,
	"number" text NOT NULL,
	"last4" text NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_number_check" CHECK ("accounts"."number" ~ '^[0-9]{12,19}$'),
	CONSTRAINT "accounts_status_check" CHECK ("accounts"."status" in ('Active', 'Suspended', 'Closed'))
);
--> statement-breakpoint
CREATE TABLE "cardholders" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"org_point_id" integer,
	"name1" text NOT NULL,
	"name2" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"company_group_id" integer,
	"program_type_id" integer,
	"number" text NOT NULL,
	"name1" text NOT NULL,
	"name2" text DEFAULT '' NOT NULL,
	"multi_user" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issuer_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issuer_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "issuers" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_group_id" integer,
	"number" text NOT NULL,
	"name1" text NOT NULL,
	"name2" text DEFAULT '' NOT NULL,
	"ica" text NOT NULL,
	"bank_number" text NOT NULL,
	"cobrand" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"number" text NOT NULL,
	"name1" text NOT NULL,
	"name2" text DEFAULT '' NOT NULL,
	"reporting_level" integer NOT NULL,
	"reports_to_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_points_reporting_level_check" CHECK ("org_points"."reporting_level" >= 1)
);
--> statement-breakpoint
CREATE TABLE "program_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"level" text NOT NULL,
	"issuer_id" integer,
	"company_id" integer,
	"enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_options_owner_check" CHECK (("program_options"."level" = 'issuer' and "program_options"."issuer_id" is not null and "program_options"."company_id" is null) or ("program_options"."level" = 'company' and "program_options"."company_id" is not null and "program_options"."issuer_id" is null))
);
--> statement-breakpoint
CREATE TABLE "program_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "program_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "issuer_group_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "issuer_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_group_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "org_point_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "account_group_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cardholder_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "account_groups" ADD CONSTRAINT "account_groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_account_group_id_account_groups_id_fk" FOREIGN KEY ("account_group_id") REFERENCES "public"."account_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_cardholder_id_cardholders_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."cardholders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cardholders" ADD CONSTRAINT "cardholders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cardholders" ADD CONSTRAINT "cardholders_org_point_id_org_points_id_fk" FOREIGN KEY ("org_point_id") REFERENCES "public"."org_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_company_group_id_company_groups_id_fk" FOREIGN KEY ("company_group_id") REFERENCES "public"."company_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_program_type_id_program_types_id_fk" FOREIGN KEY ("program_type_id") REFERENCES "public"."program_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_groups" ADD CONSTRAINT "company_groups_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_issuer_group_id_issuer_groups_id_fk" FOREIGN KEY ("issuer_group_id") REFERENCES "public"."issuer_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_cobrand_cobrands_name_fk" FOREIGN KEY ("cobrand") REFERENCES "public"."cobrands"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_points" ADD CONSTRAINT "org_points_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "org_points_company_id_key" ON "org_points" USING btree ("company_id","id");--> statement-breakpoint
ALTER TABLE "org_points" ADD CONSTRAINT "org_points_reports_to_fk" FOREIGN KEY ("company_id","reports_to_id") REFERENCES "public"."org_points"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_options" ADD CONSTRAINT "program_options_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_options" ADD CONSTRAINT "program_options_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_groups_company_name_key" ON "account_groups" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_number_key" ON "accounts" USING btree ("number");--> statement-breakpoint
CREATE INDEX "accounts_company_idx" ON "accounts" USING btree ("company_id","last4");--> statement-breakpoint
CREATE INDEX "accounts_group_idx" ON "accounts" USING btree ("account_group_id");--> statement-breakpoint
CREATE INDEX "accounts_cardholder_idx" ON "accounts" USING btree ("cardholder_id");--> statement-breakpoint
CREATE INDEX "cardholders_company_idx" ON "cardholders" USING btree ("company_id","name2","name1");--> statement-breakpoint
CREATE INDEX "cardholders_org_point_idx" ON "cardholders" USING btree ("org_point_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_number_key" ON "companies" USING btree ("number");--> statement-breakpoint
CREATE INDEX "companies_issuer_idx" ON "companies" USING btree ("issuer_id");--> statement-breakpoint
CREATE INDEX "companies_group_idx" ON "companies" USING btree ("company_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_groups_issuer_name_key" ON "company_groups" USING btree ("issuer_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "issuers_number_key" ON "issuers" USING btree ("number");--> statement-breakpoint
CREATE INDEX "issuers_group_idx" ON "issuers" USING btree ("issuer_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "org_points_company_number_key" ON "org_points" USING btree ("company_id",lower("number"));--> statement-breakpoint
CREATE INDEX "org_points_reports_to_idx" ON "org_points" USING btree ("reports_to_id");--> statement-breakpoint
CREATE UNIQUE INDEX "program_options_issuer_key" ON "program_options" USING btree ("issuer_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "program_options_company_key" ON "program_options" USING btree ("company_id","key");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_issuer_group_id_issuer_groups_id_fk" FOREIGN KEY ("issuer_group_id") REFERENCES "public"."issuer_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_group_id_company_groups_id_fk" FOREIGN KEY ("company_group_id") REFERENCES "public"."company_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_org_point_id_org_points_id_fk" FOREIGN KEY ("org_point_id") REFERENCES "public"."org_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_group_id_account_groups_id_fk" FOREIGN KEY ("account_group_id") REFERENCES "public"."account_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_cardholder_id_cardholders_id_fk" FOREIGN KEY ("cardholder_id") REFERENCES "public"."cardholders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_cardholder_key" ON "users" USING btree ("cardholder_id");--> statement-breakpoint
CREATE INDEX "users_issuer_group_idx" ON "users" USING btree ("issuer_group_id");--> statement-breakpoint
CREATE INDEX "users_issuer_idx" ON "users" USING btree ("issuer_id");--> statement-breakpoint
CREATE INDEX "users_company_group_idx" ON "users" USING btree ("company_group_id");--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id","user_type");--> statement-breakpoint
CREATE INDEX "users_org_point_idx" ON "users" USING btree ("org_point_id");--> statement-breakpoint
CREATE INDEX "users_account_group_idx" ON "users" USING btree ("account_group_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_user_type_check" CHECK ("users"."user_type" in ('A', 'C', 'G', 'H', 'I', 'O', 'S', 'Z'));--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): once a company has multi-user on, it stays on
-- (seed 001 §4). A CHECK cannot see the old row; this trigger can, whoever writes the row.
CREATE FUNCTION "companies_multi_user_never_off"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.multi_user AND NOT NEW.multi_user THEN
    RAISE EXCEPTION 'multi-user cannot be turned off once enabled (company %)', OLD.number
      USING ERRCODE = 'check_violation', CONSTRAINT = 'companies_multi_user_never_off';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_multi_user_never_off" BEFORE UPDATE OF "multi_user" ON "companies"
  FOR EACH ROW EXECUTE FUNCTION "companies_multi_user_never_off"();
