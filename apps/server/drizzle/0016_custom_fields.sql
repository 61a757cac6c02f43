CREATE TABLE "custom_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"label" text NOT NULL,
	"label_key" text NOT NULL,
	"position" smallint NOT NULL,
	"type" text NOT NULL,
	"length" smallint DEFAULT 80 NOT NULL,
	"decimals" smallint DEFAULT 0 NOT NULL,
	"date_format" text DEFAULT 'YYYY-MM-DD' NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"list_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_fields_type_check" CHECK ("custom_fields"."type" in ('text', 'number', 'date', 'list'))
);
--> statement-breakpoint
CREATE TABLE "transaction_custom_values" (
	"transaction_id" bigint NOT NULL,
	"field_id" integer NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "transaction_custom_values_transaction_id_field_id_pk" PRIMARY KEY("transaction_id","field_id")
);
--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_custom_values" ADD CONSTRAINT "transaction_custom_values_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_custom_values" ADD CONSTRAINT "transaction_custom_values_field_id_custom_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."custom_fields"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_fields_company_label_key" ON "custom_fields" USING btree ("company_id","label_key");--> statement-breakpoint
CREATE INDEX "transaction_custom_values_field_idx" ON "transaction_custom_values" USING btree ("field_id");