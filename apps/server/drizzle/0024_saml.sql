ALTER TABLE "identity_providers" ADD COLUMN "protocol" text DEFAULT 'oidc' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_entry_point" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_certificate" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_logout_url" text;--> statement-breakpoint
ALTER TABLE "sso_attempts" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_protocol_check" CHECK (("identity_providers"."protocol" = 'oidc' and "identity_providers"."saml_entry_point" is null and "identity_providers"."saml_certificate" is null) or ("identity_providers"."protocol" = 'saml' and "identity_providers"."saml_entry_point" is not null and "identity_providers"."saml_certificate" is not null and "identity_providers"."client_secret_enc" is null));