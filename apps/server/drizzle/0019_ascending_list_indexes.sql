DROP INDEX "mass_allocations_company_idx";--> statement-breakpoint
DROP INDEX "transaction_exports_company_idx";--> statement-breakpoint
DROP INDEX "transactions_company_date_idx";--> statement-breakpoint
DROP INDEX "transactions_account_date_idx";--> statement-breakpoint
DROP INDEX "transactions_issuer_date_idx";--> statement-breakpoint
DROP INDEX "transactions_company_status_date_idx";--> statement-breakpoint
CREATE INDEX "mass_allocations_company_idx" ON "mass_allocations" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "transaction_exports_company_idx" ON "transaction_exports" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "transactions_company_date_idx" ON "transactions" USING btree ("company_id","transaction_date","id");--> statement-breakpoint
CREATE INDEX "transactions_account_date_idx" ON "transactions" USING btree ("account_id","transaction_date","id");--> statement-breakpoint
CREATE INDEX "transactions_issuer_date_idx" ON "transactions" USING btree ("issuer_id","transaction_date","id");--> statement-breakpoint
CREATE INDEX "transactions_company_status_date_idx" ON "transactions" USING btree ("company_id","status","transaction_date","id");