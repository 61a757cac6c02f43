ALTER TABLE "accounts" ADD COLUMN "expiry" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "registration_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "registration_locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "registration_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_registration_code_key" ON "companies" USING btree ("registration_code");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_expiry_check" CHECK ("accounts"."expiry" ~ '^(0[1-9]|1[0-2])/[0-9]{2}$');--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_registration_code_check" CHECK ("companies"."registration_code" ~ '^[0-9]{6,10}$');