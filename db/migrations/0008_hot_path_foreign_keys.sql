ALTER TABLE "events" DROP CONSTRAINT "events_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_access_log" DROP CONSTRAINT "patient_access_log_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "order_dispatches" DROP CONSTRAINT "order_dispatches_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "order_dispatches" DROP CONSTRAINT "order_dispatches_connection_id_pharmacy_connections_id_fk";
--> statement-breakpoint
ALTER TABLE "order_transitions" DROP CONSTRAINT "order_transitions_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_connection_id_pharmacy_connections_id_fk";
--> statement-breakpoint
ALTER TABLE "pharmacy_callbacks" DROP CONSTRAINT "pharmacy_callbacks_tenant_id_tenants_id_fk";
