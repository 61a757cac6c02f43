CREATE TABLE "spend_months" (
	"account_id" integer NOT NULL,
	"month" date NOT NULL,
	"mcc" text NOT NULL,
	"currency" text NOT NULL,
	"issuer_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"minor" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "spend_months_account_id_month_mcc_currency_pk" PRIMARY KEY("account_id","month","mcc","currency")
);
--> statement-breakpoint
CREATE INDEX "spend_months_company_idx" ON "spend_months" USING btree ("company_id","month");--> statement-breakpoint
CREATE INDEX "spend_months_issuer_idx" ON "spend_months" USING btree ("issuer_id","month");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): the spend picture's roll-up follows every insert
-- into transactions, one statement at a time (an import's COPY of a chunk, its staged insert, the demo
-- data), from the statement's transition table: one aggregate and one upsert per statement, not per row.
CREATE FUNCTION "spend_months_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO spend_months (account_id, month, mcc, currency, issuer_id, company_id, minor, count)
  SELECT account_id, date_trunc('month', transaction_date)::date, mcc, currency,
         min(issuer_id), min(company_id), sum(amount), count(*)
    FROM inserted
   GROUP BY account_id, date_trunc('month', transaction_date)::date, mcc, currency
  ON CONFLICT (account_id, month, mcc, currency)
  DO UPDATE SET minor = spend_months.minor + excluded.minor, count = spend_months.count + excluded.count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "transactions_spend_months" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "spend_months_add"();
--> statement-breakpoint
-- What is there already.
INSERT INTO spend_months (account_id, month, mcc, currency, issuer_id, company_id, minor, count)
SELECT account_id, date_trunc('month', transaction_date)::date, mcc, currency,
       min(issuer_id), min(company_id), sum(amount), count(*)
  FROM transactions
 GROUP BY account_id, date_trunc('month', transaction_date)::date, mcc, currency;
