// Foreign keys guard the configuration tables (users, keys, products, pharmacies, catalogs, patients). The
// high-volume tables written on every order transition (orders, their timeline and dispatches, events,
// deliveries, jobs, callbacks, the access log) carry no foreign key to `tenants` or `pharmacy_connections`:
// each check would take a KEY SHARE lock on the same few parent rows in every concurrent transaction, and
// those ids are only ever written from the scoped helper's own tenant and rows it has just read. Neither
// parent is ever deleted. (docs/decisions/data.md: no foreign keys from the hot tables.)
export * from './tenants';
export * from './developer';
export * from './auth';
export * from './events';
export * from './webhooks';
export * from './jobs';
export * from './pharmacies';
export * from './catalog';
export * from './patients';
export * from './orders';
export * from './embed';
export * from './intake';
export * from './flows';
export * from './experiments';
export * from './billing';
export * from './notices';
