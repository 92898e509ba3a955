import { getGlobalServices } from '@/server/http/global-services';
import { getEvent, listEvents, replayEvent } from '@/server/domain/events/events';
import { hasScope } from '@/server/domain/developer/scopes';
import { errors } from '@/server/lib/errors';
import type { ConsoleMe } from '@/lib/console/types';

/**
 * The public event-log endpoints take machine API keys only (spec, Authentication 7). The console reads the
 * same log for a signed-in person through the domain functions, with the same tenant, mode and scope rules.
 */
function scopeOf(me: ConsoleMe) {
  if (!me.tenant || !hasScope(me.scopes, 'events.read')) throw errors.forbidden('Your role cannot read the event log.', 'missing_scope');
  return { tenantId: me.tenant.id, livemode: me.mode === 'live' };
}

const db = () => getGlobalServices().database.db;

export const consoleListEvents = (me: ConsoleMe, q: { type?: string; startingAfter?: string }) =>
  listEvents(db(), scopeOf(me), { ...q, limit: 50 });
export const consoleGetEvent = (me: ConsoleMe, id: string) => getEvent(db(), scopeOf(me), id);
export const consoleReplayEvent = (me: ConsoleMe, id: string) => replayEvent(db(), scopeOf(me), id);
