CREATE TABLE "identity_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_enc" text,
	"scope" text DEFAULT 'openid' NOT NULL,
	"subject_claim" text DEFAULT 'sub' NOT NULL,
	"cobrand" text,
	"company_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_providers_owner_check" CHECK (("identity_providers"."cobrand" is null) <> ("identity_providers"."company_id" is null))
);
--> statement-breakpoint
CREATE TABLE "sso_attempts" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"binding_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"cobrand" text,
	"locale" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "federation_provider_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "federation_subject" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_cobrand_cobrands_name_fk" FOREIGN KEY ("cobrand") REFERENCES "public"."cobrands"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_attempts" ADD CONSTRAINT "sso_attempts_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_key" ON "identity_providers" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_providers_cobrand_key" ON "identity_providers" USING btree ("cobrand");--> statement-breakpoint
CREATE INDEX "identity_providers_company_idx" ON "identity_providers" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "sso_attempts_created_idx" ON "sso_attempts" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_federation_provider_id_identity_providers_id_fk" FOREIGN KEY ("federation_provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_federation_key" ON "users" USING btree ("federation_provider_id","federation_subject");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_federation_check" CHECK (("users"."federation_provider_id" is null) = ("users"."federation_subject" is null) and ("users"."federation_provider_id" is null or "users"."sso"));