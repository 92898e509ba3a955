import * as z from '@/server/lib/zod';
import { zDateTime, zId, zReplayNote } from '@/server/api/schemas/common';
import { ZHttpSettings, ZSimulatedSettings } from '@/server/integrations/pharmacies/settings';
import { zUsState } from '@/server/lib/us-state-schema';

const zName = z.string().trim().min(1).max(200).meta({ description: 'Display name of the pharmacy' });
const zAdapter = z.enum(['simulated', 'http']).meta({ description: '`simulated` (scriptable, the only choice in sandbox) or `http` (signed JSON over HTTPS)' });
const zSettingsInput = z.record(z.string(), z.unknown()).meta({
  description: 'Adapter settings: SimulatedPharmacySettings for `simulated`, HttpPharmacySettings for `http`; defaults are filled in',
});
const zStates = z.array(zUsState).min(1).max(60).meta({ description: 'Two-letter US state codes the pharmacy ships to (is licensed in)' });
const zStatus = z.enum(['enabled', 'disabled']).meta({ description: 'Only enabled connections take part in routing' });

export const ZPharmacyConnection = z
  .object({
    id: z.string().meta({ description: 'Connection id (phc_…)' }),
    object: z.literal('pharmacy_connection').meta({ description: 'Always `pharmacy_connection`' }),
    livemode: z.boolean().meta({ description: 'True for a live connection, false for sandbox' }),
    name: zName,
    adapter: zAdapter,
    settings: z.union([ZSimulatedSettings, ZHttpSettings]).meta({ description: 'The adapter settings in force, defaults filled in' }),
    states: z.array(z.string()).meta({ description: 'States the pharmacy ships to, sorted' }),
    status: zStatus,
    secretHint: z.string().meta({ description: 'Masked secret that signs requests to the pharmacy and verifies its callbacks' }),
    callbackUrl: z.string().meta({ description: 'Path the pharmacy posts signed status callbacks to' }),
    approvedCatalogId: z.string().nullable().meta({ description: 'The approved catalog routing uses, or null when none is approved' }),
    createdAt: zDateTime,
    updatedAt: zDateTime,
  })
  .meta({ id: 'PharmacyConnection' });

export const ZCreatedPharmacyConnection = ZPharmacyConnection.extend({
  secret: z.string().nullable().meta({ description: 'Full whsec_ secret, shown once (null in an Idempotency-Key replay): signs our requests to the pharmacy and verifies its callbacks (Standard Webhooks)' }),
  note: zReplayNote,
}).meta({ id: 'CreatedPharmacyConnection' });

export const ZCreatePharmacyConnection = z
  .strictObject({ name: zName, adapter: zAdapter, settings: zSettingsInput.default({}), states: zStates, status: zStatus.default('enabled') })
  .meta({ id: 'CreatePharmacyConnection' });

export const ZUpdatePharmacyConnection = z
  .strictObject({ name: zName.optional(), settings: zSettingsInput.optional(), states: zStates.optional(), status: zStatus.optional() })
  .meta({ id: 'UpdatePharmacyConnection', description: 'Send only the fields to change; `settings` replaces the whole settings object. The adapter cannot change.' });

const zStrategy = z.enum(['priority', 'lowest_cost', 'fastest']).meta({
  description: '`lowest_cost` (cheapest qualifying pharmacy), `fastest` (shortest ETA) or `priority` (first qualifying pharmacy of the priority list)',
});

export const ZRoutingPolicy = z
  .object({
    object: z.literal('routing_policy').meta({ description: 'Always `routing_policy`' }),
    livemode: z.boolean().meta({ description: 'The mode this policy governs' }),
    strategy: zStrategy,
    priority: z.array(z.string()).meta({ description: 'Connection ids, most preferred first; breaks ties for the other strategies' }),
    requireStateLicense: z.boolean().meta({ description: "Only pharmacies that ship to the patient's state qualify" }),
    allowFallback: z.boolean().meta({ description: 'A line pinned to a pharmacy that cannot fill it falls back to the policy choice' }),
    updatedAt: zDateTime.nullable().meta({ description: 'Last change; null while the defaults apply' }),
  })
  .meta({ id: 'RoutingPolicy' });

export const ZSetRoutingPolicy = z
  .strictObject({
    strategy: zStrategy.optional(),
    priority: z.array(zId('Pharmacy connection')).max(100).optional().meta({ description: 'Connection ids of this tenant and mode, most preferred first' }),
    requireStateLicense: z.boolean().optional().meta({ description: "Only pharmacies that ship to the patient's state qualify" }),
    allowFallback: z.boolean().optional().meta({ description: 'Let a pinned line fall back to the policy choice when its pharmacy cannot fill it' }),
  })
  .meta({ id: 'SetRoutingPolicy', description: 'Fields not sent keep their current value' });
