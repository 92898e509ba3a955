import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswers, enabledLinkIds, evaluate } from '@/server/domain/intake/shared/engine';
import { QUESTIONNAIRE_LIBRARY } from '@/server/domain/intake/library';
import { reachabilityProblems } from '@/server/domain/intake/reachability';
import { CONDITION_OPS, ITEM_TYPES, type Condition, type QuestionnaireDocument, type QuestionnaireItem, type QuestionnaireRule } from '@/server/domain/intake/questionnaire-schema';

/** Properties of the engine (DESIGN decision 19) over random documents and hostile answer objects. */

const RUNS = { numRuns: 200 };
const ASOF = '2026-11-25';
const OPTIONS = ['a', 'b', 'c'];

function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object') {
    Object.values(x).forEach(deepFreeze);
    Object.freeze(x);
  }
  return x;
}

// ---- random documents (schema-shaped; not necessarily semantically valid: the engine must cope) -----------

const scalarValue = fc.oneof(fc.constantFrom(...OPTIONS), fc.integer({ min: -5, max: 200 }), fc.boolean(), fc.constantFrom('2000-01-01', '2010-06-15', '2026-11-25'));
const value = fc.oneof(scalarValue, fc.array(scalarValue, { minLength: 1, maxLength: 3 }), fc.constant(undefined));

/** A condition over items 0..n-1 (by linkId `i<k>`), or a derived value, or an unknown name. */
const condition = (n: number): fc.Arbitrary<Condition> =>
  fc.letrec<{ c: Condition }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({
        q: fc.oneof(
          fc.integer({ min: 0, max: Math.max(0, n - 1) }).map((k) => `i${k}`),
          fc.integer({ min: 0, max: Math.max(0, n - 1) }).map((k) => `age(i${k})`),
          fc.tuple(fc.nat(Math.max(0, n - 1)), fc.nat(Math.max(0, n - 1))).map(([h, w]) => `bmi(i${h}, i${w})`),
          fc.constant('nosuch'),
        ),
        op: fc.constantFrom(...CONDITION_OPS),
        value,
      }).map((c) => (c.value === undefined ? { q: c.q, op: c.op } : c) as Condition),
      fc.record({ all: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
    ),
  })).c;

const itemAt = (k: number): fc.Arbitrary<QuestionnaireItem> =>
  fc
    .record({
      type: fc.constantFrom(...ITEM_TYPES),
      required: fc.boolean(),
      enableWhen: k === 0 ? fc.constant(undefined) : fc.option(condition(k), { nil: undefined }),
      unit: fc.constantFrom(undefined, 'cm', 'in', 'kg', 'lb'),
      min: fc.option(fc.integer({ min: -10, max: 50 }), { nil: undefined }),
      exclusive: fc.boolean(),
    })
    .map(({ type, required, enableWhen, unit, min, exclusive }) => {
      const item: QuestionnaireItem = { linkId: `i${k}`, text: `Item ${k}`, type, required };
      if (type === 'choice' || type === 'multi_choice') item.options = OPTIONS.map((v) => ({ value: v, label: v }));
      // "None of these" (decision 46): the last option of a multi_choice, chosen only alone.
      if (type === 'multi_choice' && exclusive) item.options!.at(-1)!.exclusive = true;
      if (type === 'integer' || type === 'decimal') Object.assign(item, unit ? { unit } : {}, min !== undefined ? { min } : {});
      if (enableWhen) item.enableWhen = enableWhen;
      return item;
    });

const documentArb: fc.Arbitrary<QuestionnaireDocument> = fc
  .integer({ min: 1, max: 10 })
  .chain((n) =>
    fc.record({
      items: fc.tuple(...Array.from({ length: n }, (_, k) => itemAt(k))),
      rules: fc.array(
        fc.record({ when: condition(n), effect: fc.constantFrom('disqualify' as const, 'review_flag' as const) }),
        { maxLength: 6 },
      ),
    }),
  )
  .map(({ items, rules }) => ({
    key: 'random',
    title: 'Random',
    items,
    rules: rules.map((r, k): QuestionnaireRule => ({ id: `r${k}`, when: r.when, effect: r.effect, patientMessage: 'x' })),
  }));

const anyDocument = fc.oneof({ weight: 3, arbitrary: documentArb }, { weight: 1, arbitrary: fc.constantFrom(...QUESTIONNAIRE_LIBRARY) });

// ---- answers: plausible ones mixed with garbage ------------------------------------------------------------

const hostileValue = fc.oneof(
  fc.anything({ withNullPrototype: true, withObjectString: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, 2 ** 60, 'x'.repeat(100_000), '2023-02-29', '9999-12-31', ''),
  scalarValue,
  fc.array(fc.constantFrom(...OPTIONS, 'zz'), { maxLength: 5 }),
  fc.double(),
  fc.date().map((d) => (Number.isNaN(d.getTime()) ? '2000-01-01' : d.toISOString().slice(0, 10))),
);

const answersFor = (doc: QuestionnaireDocument) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...doc.items.map((i) => i.linkId)), fc.string()), hostileValue, { maxKeys: 15 }) as fc.Arbitrary<Record<string, unknown>>;

const docAndAnswers = anyDocument.chain((doc) => fc.tuple(fc.constant(doc), answersFor(doc)));

describe('engine properties', () => {
  it('is deterministic: same input, same output, also through a fresh compile', () => {
    fc.assert(
      fc.property(docAndAnswers, ([doc, answers]) => {
        const a = evaluate(doc, answers, { asOf: ASOF });
        expect(evaluate(doc, answers, { asOf: ASOF })).toEqual(a);
        expect(evaluate(structuredClone(doc), answers, { asOf: ASOF })).toEqual(a);
      }),
      RUNS,
    );
  });

  it('is total: never throws on any answers object and returns a well-formed result', () => {
    const anyAnswers = fc.oneof(fc.anything(), fc.dictionary(fc.string(), hostileValue));
    fc.assert(
      fc.property(anyDocument, anyAnswers, fc.oneof(fc.constant(ASOF), fc.string()), (doc, answers, asOf) => {
        deepFreeze(doc);
        const r = evaluate(doc, answers as Record<string, unknown>, { asOf });
        const required = new Set(doc.items.filter((i) => i.required).map((i) => i.linkId));
        expect(['eligible', 'disqualified', 'incomplete']).toContain(r.verdict);
        expect(r.missing.every((l) => required.has(l))).toBe(true);
        const dq = new Set(doc.rules.filter((x) => x.effect === 'disqualify').map((x) => x.id));
        expect(r.hits.every((h) => dq.has(h))).toBe(true);
        expect(r.flags.every((f) => !dq.has(f))).toBe(true);
        expect(r.verdict === 'disqualified').toBe(r.hits.length > 0);
        if (!r.hits.length) expect(r.verdict === 'incomplete').toBe(r.missing.length > 0);
        expect(Array.isArray(checkAnswers(doc, answers as Record<string, unknown>))).toBe(true);
      }),
      RUNS,
    );
  });

  it('never lets a disabled item count: changing or removing its answer changes nothing', () => {
    fc.assert(
      fc.property(docAndAnswers, hostileValue, ([doc, answers], replacement) => {
        const before = evaluate(doc, answers, { asOf: ASOF });
        const enabled = new Set(enabledLinkIds(doc, answers, { asOf: ASOF }));
        for (const item of doc.items) {
          if (enabled.has(item.linkId)) continue;
          const changed = { ...answers, [item.linkId]: replacement };
          expect(evaluate(doc, changed, { asOf: ASOF })).toEqual(before);
          const removed = { ...answers };
          delete removed[item.linkId];
          expect(evaluate(doc, removed, { asOf: ASOF })).toEqual(before);
        }
      }),
      RUNS,
    );
  });

  it('never lets a disabled item count, with the items behind a guard answered "no"', () => {
    // Independent of enabledLinkIds: every item after the guard is disabled by construction.
    fc.assert(
      fc.property(documentArb, (base) => {
        const guard: QuestionnaireItem = { linkId: 'guard', text: 'Guard', type: 'boolean', required: true };
        const doc: QuestionnaireDocument = {
          ...base,
          items: [guard, ...base.items.map((i) => ({ ...i, enableWhen: i.enableWhen ? { all: [{ q: 'guard', op: 'eq' as const, value: true }, i.enableWhen] } : { q: 'guard', op: 'eq' as const, value: true } }))],
        };
        const expected = evaluate(doc, { guard: false }, { asOf: ASOF });
        expect(expected.missing).toEqual([]);
        return fc.assert(
          fc.property(answersFor(doc), (answers) => {
            expect(evaluate(doc, { ...answers, guard: false }, { asOf: ASOF })).toEqual(expected);
          }),
          { numRuns: 10 },
        );
      }),
      { numRuns: 50 },
    );
  });

  it('lets a matching disqualifying rule win whatever else', () => {
    fc.assert(
      fc.property(docAndAnswers, fc.nat(), fc.nat(), ([doc, answers], at, pick) => {
        const q = doc.items[pick % doc.items.length]!.linkId;
        // True for any answers: q exists, or q does not exist.
        const always: QuestionnaireRule = { id: 'always', when: { any: [{ q, op: 'exists' }, { q, op: 'exists', value: false }] }, effect: 'disqualify', patientMessage: 'x' };
        const rules = [...doc.rules];
        rules.splice(at % (rules.length + 1), 0, always);
        const r = evaluate({ ...doc, rules }, answers, { asOf: ASOF });
        expect(r.verdict).toBe('disqualified');
        expect(r.hits).toContain('always');
      }),
      RUNS,
    );
  });

  it('reads nothing of the answers but the items of the document, and survives throwing proxies', () => {
    fc.assert(
      fc.property(docAndAnswers, ([doc, answers]) => {
        const linkIds = new Set(doc.items.map((i) => i.linkId));
        const touched: PropertyKey[] = [];
        const spy = new Proxy(answers, {
          get: (t, k, r) => (touched.push(k), Reflect.get(t, k, r)),
          has: (t, k) => (touched.push(k), Reflect.has(t, k)),
          getOwnPropertyDescriptor: (t, k) => (touched.push(k), Reflect.getOwnPropertyDescriptor(t, k)),
          ownKeys: () => {
            throw new Error('evaluate enumerated the answers');
          },
        });
        evaluate(doc, spy, { asOf: ASOF });
        expect(touched.filter((k) => !linkIds.has(String(k)))).toEqual([]);
        const hostile = new Proxy(answers, {
          get() {
            throw new Error('boom');
          },
          getOwnPropertyDescriptor() {
            throw new Error('boom');
          },
          ownKeys() {
            throw new Error('boom');
          },
        });
        const r = evaluate(doc, hostile, { asOf: ASOF });
        expect(r).toEqual(evaluate(doc, {}, { asOf: ASOF }));
        expect(() => checkAnswers(doc, hostile)).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the reachability check of the validator sound: nothing the engine enables or matches is called dead', () => {
    fc.assert(
      fc.property(documentArb.chain((doc) => fc.tuple(fc.constant(doc), fc.array(answersFor(doc), { minLength: 1, maxLength: 20 }))), ([doc, answerSets]) => {
        const dead = new Set(reachabilityProblems(doc).map((p) => p.param));
        for (const answers of answerSets) {
          const r = evaluate(doc, answers, { asOf: ASOF });
          for (const id of [...r.hits, ...r.flags]) expect(dead).not.toContain(`rules.${id.slice(1)}.when`);
          for (const linkId of enabledLinkIds(doc, answers, { asOf: ASOF })) {
            const i = doc.items.findIndex((x) => x.linkId === linkId);
            expect(dead).not.toContain(`items.${i}.enableWhen`);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('checkAnswers never echoes a planted value, wherever it is put', () => {
    const planted = fc.stringMatching(/^[A-Za-z]{3}$/).map((s) => `Plant${s}Q9x7`);
    fc.assert(
      fc.property(anyDocument, planted, fc.nat(), fc.nat(3), (doc, plant, pick, shape) => {
        const item = doc.items[pick % doc.items.length]!;
        const value = [plant, [plant, plant], { nested: plant }, plant.repeat(600)][shape];
        const answers: Record<string, unknown> = { [item.linkId]: value, unknownItem: plant, [plant]: 1 };
        for (const p of checkAnswers(doc, answers)) {
          expect(p.message).not.toContain(plant);
          expect(p.message).not.toContain('Q9x7');
        }
      }),
      RUNS,
    );
  });
});
