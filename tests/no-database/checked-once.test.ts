import { describe, expect, it } from 'vitest';
import { checkedOnce } from '@/server/api/checked-once';
import * as z from '@/server/lib/zod';

// The output check of cached definitions (server/api/checked-once.ts): each frozen object is walked once.
function counting() {
  let walks = 0;
  const schema = checkedOnce(
    z.object({
      id: z.string(),
      items: z.array(z.string().refine(() => ++walks > 0)),
      sandbox: z.boolean(),
    }),
  );
  return { schema, walks: () => walks };
}

describe('checkedOnce', () => {
  it('checks a frozen object once, whatever the order of its keys', () => {
    const { schema, walks } = counting();
    // Built as the runtime builds it: the cached definition spread, then `sandbox` appended (not the schema's order).
    const served = Object.freeze({ id: 'flw_1', items: ['a', 'b'], ...{ sandbox: true } });
    const reordered = Object.freeze({ sandbox: true, items: ['a', 'b'], id: 'flw_1' });
    for (const value of [served, served, served, reordered, reordered]) expect(schema.parse(value)).toEqual({ id: 'flw_1', items: ['a', 'b'], sandbox: true });
    expect(walks()).toBe(4); // two items, once per object
  });

  it('checks every time what is not frozen, what it would change, and what fails', () => {
    const { schema, walks } = counting();
    const open = { id: 'flw_1', items: ['a'], sandbox: false };
    schema.parse(open);
    schema.parse(open);
    expect(walks()).toBe(2);
    const withExtra = Object.freeze({ id: 'flw_1', items: ['a'], sandbox: false, rules: ['hidden'] });
    expect(schema.parse(withExtra)).toEqual({ id: 'flw_1', items: ['a'], sandbox: false });
    expect(schema.parse(withExtra)).not.toHaveProperty('rules');
    expect(walks()).toBe(4);
    const bad = Object.freeze({ id: 1, items: [], sandbox: false });
    expect(schema.safeParse(bad).success).toBe(false);
    expect(schema.safeParse(bad).success).toBe(false);
  });
});
