ALTER TABLE "catalog_lines" ADD COLUMN "ndc" text;--> statement-breakpoint
ALTER TABLE "catalog_lines" ADD COLUMN "rxcui" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "ndc" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rxcui" text;