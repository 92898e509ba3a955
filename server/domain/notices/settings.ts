import { NOTICE_CHANNELS, NOTICE_MILESTONES, noticeSettings, type NoticeChannel, type NoticeMilestone, type NoticeSwitches } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';

export type SettingsRow = typeof noticeSettings.$inferSelect;

/** Decision 41's defaults: e-mail on for every milestone, SMS off until the clinic turns it on. */
export function defaultSwitches(): NoticeSwitches {
  return Object.fromEntries(NOTICE_MILESTONES.map((m) => [m, { email: true, sms: false }])) as NoticeSwitches;
}

/** What a PATCH may change; a field left out keeps its value, `null` clears a text field. */
export interface SettingsChanges {
  milestones?: Partial<Record<NoticeMilestone, Partial<Record<NoticeChannel, boolean>>>>;
  senderName?: string | null;
  supportContact?: string | null;
}

/** The settings as they apply: the stored row over the defaults (a switch a newer release added starts at its default). */
export interface NoticeSettings {
  switches: NoticeSwitches;
  senderName: string | null;
  supportContact: string | null;
  updatedAt: Date | null;
}

export function settingsOf(row: SettingsRow | undefined): NoticeSettings {
  const switches = defaultSwitches();
  for (const m of NOTICE_MILESTONES) for (const c of NOTICE_CHANNELS) if (typeof row?.switches?.[m]?.[c] === 'boolean') switches[m][c] = row.switches[m][c];
  return { switches, senderName: row?.senderName ?? null, supportContact: row?.supportContact ?? null, updatedAt: row?.updatedAt ?? null };
}

export async function readSettingsRow(q: Queryable, scope: Scope): Promise<SettingsRow | undefined> {
  const [row] = await q.select().from(noticeSettings).where(scoped(q, scope).where(noticeSettings)).limit(1);
  return row;
}

export async function readSettings(q: Queryable, scope: Scope): Promise<NoticeSettings> {
  return settingsOf(await readSettingsRow(q, scope));
}

/** The name messages go out under: the sender name the clinic set, else the clinic's name. */
export async function senderOf(q: Queryable, scope: Scope, settings: NoticeSettings): Promise<string> {
  return settings.senderName ?? (await requireTenant(q, scope.tenantId)).name;
}

/**
 * Applies a PATCH: read, merge and upsert in one transaction, the row locked (a first PATCH racing another
 * upserts; later ones wait for the lock), so two PATCHes of different switches both land.
 */
export async function updateSettings(db: Db, scope: Scope, changes: SettingsChanges): Promise<NoticeSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(noticeSettings).where(scoped(tx, scope).where(noticeSettings)).for('update').limit(1);
    const current = settingsOf(row);
    const switches = current.switches;
    for (const [m, channels] of Object.entries(changes.milestones ?? {}) as [NoticeMilestone, Partial<Record<NoticeChannel, boolean>>][]) {
      for (const [c, on] of Object.entries(channels) as [NoticeChannel, boolean][]) switches[m][c] = on;
    }
    const values = {
      switches,
      senderName: changes.senderName === undefined ? current.senderName : changes.senderName,
      supportContact: changes.supportContact === undefined ? current.supportContact : changes.supportContact,
      updatedAt: now(),
    };
    await tx
      .insert(noticeSettings)
      .values({ id: newId('noticeSettings'), tenantId: scope.tenantId, livemode: scope.livemode, ...values })
      .onConflictDoUpdate({ target: [noticeSettings.tenantId, noticeSettings.livemode], set: values });
    return { ...values };
  });
}
