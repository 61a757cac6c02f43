ALTER TABLE "accounts" DROP CONSTRAINT "accounts_number_check";--> statement-breakpoint
DROP INDEX "accounts_number_key";--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "number_cipher" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "number_hash" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "bin" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "number_length" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_number_hash_key" ON "accounts" USING btree ("number_hash");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_sealed_check" CHECK (("accounts"."number" is null and "accounts"."number_cipher" is not null and "accounts"."number_hash" is not null and "accounts"."bin" ~ '^[0-9]{6}$' and "accounts"."number_length" between 12 and 19) or ("accounts"."number" ~ '^[0-9]{12,19}$' and "accounts"."number_cipher" is null));