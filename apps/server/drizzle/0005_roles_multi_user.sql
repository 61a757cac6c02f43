CREATE TABLE "multi_user_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"created_by_pk" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "multi_user_members" (
	"user_pk" integer PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"confirmed_at" timestamp with time zone,
	"added_by_pk" integer,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_pk" integer NOT NULL,
	"role_id" integer NOT NULL,
	"granted_by_pk" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_pk_role_id_pk" PRIMARY KEY("user_pk","role_id")
);
--> statement-breakpoint
ALTER TABLE "multi_user_links" ADD CONSTRAINT "multi_user_links_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multi_user_links" ADD CONSTRAINT "multi_user_links_created_by_pk_users_id_fk" FOREIGN KEY ("created_by_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multi_user_members" ADD CONSTRAINT "multi_user_members_user_pk_users_id_fk" FOREIGN KEY ("user_pk") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multi_user_members" ADD CONSTRAINT "multi_user_members_link_id_multi_user_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."multi_user_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multi_user_members" ADD CONSTRAINT "multi_user_members_added_by_pk_users_id_fk" FOREIGN KEY ("added_by_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_pk_users_id_fk" FOREIGN KEY ("user_pk") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_granted_by_pk_users_id_fk" FOREIGN KEY ("granted_by_pk") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "multi_user_members_link_idx" ON "multi_user_members" USING btree ("link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_issuer_name_key" ON "roles" USING btree ("issuer_id",lower("name"));--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");