/** The fields of a PATCH body that were sent: absent (undefined) ones are left out, `null` is kept. */
export function sentFields<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
}
