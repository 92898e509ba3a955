import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { roleScopes } from '@/server/domain/auth/roles';
import { libraryDocuments } from '@/server/domain/intake/library-documents';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { approveQuestionnaire } from '@/server/domain/intake/questionnaire-approval';
import { insertQuestionnaireVersion } from '@/server/domain/intake/questionnaires';
import { validateQuestionnaire } from '@/server/domain/intake/validate';
import type { DemoProtocols } from './demo-catalog';

/** Which demo protocol a library questionnaire orders, by what it is about. */
function protocolFor(doc: QuestionnaireDocument, p: DemoProtocols): string {
  const about = `${doc.key} ${doc.title}`.toLowerCase();
  if (/hair|alopecia|finasteride|minoxidil/.test(about)) return p.hairLoss;
  if (/refill|renew|maintenance/.test(about)) return p.glp1Refill;
  return p.glp1Starter;
}

/**
 * The library's questionnaires as the demo clinic's certified forms: each wired to a protocol, published
 * as version 1 and approved by the demo provider, exactly as the API would do it.
 */
export async function seedDemoQuestionnaires(db: Db, seeder: TenantPrincipal, providerId: string, protocols: DemoProtocols) {
  const provider: TenantPrincipal = { kind: 'user', tenantId: seeder.tenantId, livemode: seeder.livemode, scopes: roleScopes('provider'), userId: providerId, rateLimitKey: 'seed' };
  for (const template of libraryDocuments()) {
    const checked = validateQuestionnaire({ ...template, protocolId: protocolFor(template, protocols) });
    // The library is tested on its own; a broken template here is a bug, not something to seed around.
    if (!checked.ok) throw new Error(`demo questionnaire '${template.key}' is invalid: ${checked.problems[0].param} ${checked.problems[0].message}`);
    const row = await insertQuestionnaireVersion(db, seeder, { document: checked.document, origin: 'staff', createdBy: seeder.keyId ?? 'seed' });
    await approveQuestionnaire(db, provider, row.id, { note: 'Demo clinic: reviewed by the medical director', contentHash: row.contentHash });
  }
}
