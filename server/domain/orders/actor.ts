import type { Principal } from '@/server/domain/auth/principal';
import type { Actor } from './lifecycle';

export const actorOf = (p: Principal): Actor => (p.kind === 'user' ? { kind: 'user', id: p.userId ?? null } : { kind: 'key', id: p.keyId ?? null });
export const PHARMACY = (connectionId: string): Actor => ({ kind: 'pharmacy', id: connectionId });
export const SYSTEM: Actor = { kind: 'system', id: null };
