CREATE TABLE "accounting_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"entry" text DEFAULT 'list' NOT NULL,
	"max_length" smallint DEFAULT 25 NOT NULL,
	"depends_on_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"value_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_codes_kind_check" CHECK ("accounting_codes"."kind" in ('list', 'text')),
	CONSTRAINT "accounting_codes_entry_check" CHECK ("accounting_codes"."entry" in ('list', 'entry')),
	CONSTRAINT "accounting_codes_max_length_check" CHECK ("accounting_codes"."max_length" between 1 and 25),
	CONSTRAINT "accounting_codes_value_count_check" CHECK ("accounting_codes"."value_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "accounting_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_id" integer NOT NULL,
	"value" text NOT NULL,
	"value_key" text COLLATE "C" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"description_key" text COLLATE "C" DEFAULT '' NOT NULL,
	"parent_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_values_value_check" CHECK (length("accounting_values"."value") between 1 and 25)
);
--> statement-breakpoint
ALTER TABLE "accounting_codes" ADD CONSTRAINT "accounting_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_codes" ADD CONSTRAINT "accounting_codes_depends_on_id_accounting_codes_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "public"."accounting_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_values" ADD CONSTRAINT "accounting_values_code_id_accounting_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."accounting_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_values" ADD CONSTRAINT "accounting_values_parent_id_accounting_values_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."accounting_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_codes_company_name_key" ON "accounting_codes" USING btree ("company_id","name_key");--> statement-breakpoint
CREATE INDEX "accounting_codes_company_position_idx" ON "accounting_codes" USING btree ("company_id","position");--> statement-breakpoint
CREATE INDEX "accounting_codes_depends_on_idx" ON "accounting_codes" USING btree ("depends_on_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_values_code_value_key" ON "accounting_values" USING btree ("code_id","value_key");--> statement-breakpoint
CREATE INDEX "accounting_values_code_description_idx" ON "accounting_values" USING btree ("code_id","description_key");--> statement-breakpoint
CREATE INDEX "accounting_values_code_parent_idx" ON "accounting_values" USING btree ("code_id","parent_id","value_key");--> statement-breakpoint
CREATE INDEX "accounting_values_parent_idx" ON "accounting_values" USING btree ("parent_id");