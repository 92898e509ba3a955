export * from './tenants';
export * from './developer';
export * from './auth';
export * from './events';
export * from './webhooks';
export * from './jobs';
