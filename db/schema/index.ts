export * from './tenants';
export * from './developer';
export * from './auth';
