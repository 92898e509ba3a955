export * from './tenants';
export * from './developer';
