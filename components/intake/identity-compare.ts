/*
 * Comparing the two people of a flagged patient match (DESIGN decisions 32 and 33), for the console's
 * side-by-side view; pure, so it is unit-tested.
 */

/** One side of the side-by-side: the patient on file or the person the submission describes. */
export interface IdentityRecord {
  name: string | null;
  dateOfBirth: string | null;
  sexAtBirth: string | null;
  state: string | null;
  email: string | null;
}
type Person = IdentityRecord;

const fold = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();
const SEX: Record<string, string> = { female: 'Female', male: 'Male', intersex: 'Intersex' };

/** A fact as one side recorded it; null when that side has none (an unknown sex at birth is none). */
export function recordedFact(key: keyof Person, value: string | null): string | null {
  if (value === null || !value.trim()) return null;
  if (key === 'sexAtBirth') return SEX[value] ?? null;
  return value.trim();
}

/** "Ada King Lovelace" → first "Ada King", last "Lovelace" (the server's rule); one word is a first name only. */
function nameParts(name: string) {
  const words = fold(name).split(' ');
  return { first: words.length > 1 ? words.slice(0, -1).join(' ') : words[0], last: words.length > 1 ? words[words.length - 1] : null };
}

/**
 * Whether a fact differs (issue 50 item 5): only when both sides recorded it and the two differ, ignoring case
 * and spacing. A fact one side lacks is "not recorded", never a difference; a name is compared part by part,
 * so a submission giving only a first name differs from nothing on the last name.
 */
export function factDiffers(key: keyof Person, existing: string | null, submitted: string | null): boolean {
  const a = recordedFact(key, existing);
  const b = recordedFact(key, submitted);
  if (a === null || b === null) return false;
  if (key !== 'name') return fold(a) !== fold(b);
  const [x, y] = [nameParts(a), nameParts(b)];
  return x.first !== y.first || (x.last !== null && y.last !== null && x.last !== y.last);
}
