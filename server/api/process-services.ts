import { processSlot } from '@/server/lib/process-container';
import type { Services } from './context';

// The process container (server/lib/process-container.ts) hands the services the custom server built to the
// console's pages and route handlers, which run in Next.js's own copy of these modules.
const held = () => processSlot<Services>('services');

/** Called where the services are built (server/http/services.ts): the ones every module copy reads from now on. */
export function provideProcessServices(services: Services): void {
  held().current = services;
}

/** The services of this process, for code that does not receive them in a context (the console's helpers). */
export function processServices(): Services {
  const services = held().current;
  if (!services) throw new Error('Services not initialised: start the service through server/http/main.ts');
  return services;
}
