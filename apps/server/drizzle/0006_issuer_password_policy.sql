ALTER TABLE "issuers" ADD COLUMN "password_min_length" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "issuers" ADD COLUMN "password_duration_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_password_min_length_check" CHECK ("issuers"."password_min_length" between 12 and 20);--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_password_duration_days_check" CHECK ("issuers"."password_duration_days" between 30 and 90);