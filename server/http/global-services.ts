import type { Services } from '@/server/api/context';

// Next.js compiles its own copy of server modules: the services built by the custom server are shared
// with the console's route handlers through globalThis, never re-created per module instance.
const holder = globalThis as unknown as { __frServices?: Services };

export function setGlobalServices(services: Services): void {
  holder.__frServices = services;
}

export function getGlobalServices(): Services {
  if (!holder.__frServices) throw new Error('Services not initialised: start the service through server/http/main.ts');
  return holder.__frServices;
}
