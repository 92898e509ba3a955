import { protocols } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { createOrder } from '@/server/domain/orders/create';
import { createPatient } from '@/server/domain/patients/patients';

/**
 * The demo clinic's patient-portal patient (DESIGN decisions 39, 40): synthetic, with an order in flight (waiting
 * for the demo provider's approval, so the demo can walk it to the pharmacy and see it ship). `npm start` prints
 * the portal's address with this e-mail and date of birth; the sign-in code arrives in the mail outbox.
 */
export const DEMO_PORTAL_PATIENT = { email: 'casey.demo@example.com', dateOfBirth: '1990-05-21' } as const;

export async function seedDemoPortalPatient(db: Db, principal: TenantPrincipal, protocolId: string) {
  const patient = await createPatient(
    db,
    principal,
    {
      firstName: 'Casey',
      lastName: 'Demo-Portal',
      dateOfBirth: DEMO_PORTAL_PATIENT.dateOfBirth,
      sex: 'female',
      email: DEMO_PORTAL_PATIENT.email,
      address: { line1: '200 Sample Ave', city: 'Sacramento', state: 'CA', postalCode: '95814', country: 'US' },
      allergies: [],
      medications: [],
    },
    'seed',
  );
  const protocol = await scoped(db, principal).require(protocols, protocolId, 'protocol');
  return createOrder(db, principal, { patientId: patient.id, items: protocol.items, source: 'api', priority: 'routine', amberFields: [] });
}
