/*
 * The one vocabulary of reasons a pharmacy gives for rejecting an order or holding it (docs/pharmacy-protocol.md).
 * Pure data: the http and simulated adapters, the protocol document, the orders domain (events, timeline) and
 * the console all read it. A pharmacy may send a code that is not here: it is kept as sent and counted as
 * `other` (never dropped), so adding a code later changes no stored row.
 */

/** Where a pharmacy may use the code: with `rejected`, or with `received`/`accepted` to say the order waits. */
export type ReasonUse = 'rejection' | 'hold' | 'rejection_or_hold';

export interface ReasonCode {
  use: ReasonUse;
  /** Short words for the console. */
  title: string;
  /** What the pharmacy means by it, for the protocol document. */
  meaning: string;
  /**
   * Whether sending the order to another pharmacy can help. Fulfillment Rail never reroutes on its own: a
   * rejected order waits for the clinic's reroute (POST /v1/orders/{id}/reroute), which routing fills with the
   * next pharmacy not yet tried; the console offers it when this is true.
   */
  rerouteHelps: boolean;
  /** What a patient may be told: names no medication, condition or address. */
  patientWords: string;
}

export const REASON_CODES = {
  out_of_stock: {
    use: 'rejection_or_hold',
    title: 'Out of stock',
    meaning: 'The pharmacy has not got (enough of) an item in stock. As a hold: it has ordered it in and will fill the order when it arrives.',
    rerouteHelps: true,
    patientWords: 'The pharmacy is waiting for stock of your medication. Your care team will let you know how your order continues.',
  },
  item_not_carried: {
    use: 'rejection',
    title: 'Item not carried',
    meaning: 'The pharmacy does not carry an item of the order (an unknown or discontinued item code).',
    rerouteHelps: true,
    patientWords: 'Your order is being moved to another pharmacy. Your care team will let you know if anything is needed from you.',
  },
  state_not_served: {
    use: 'rejection',
    title: 'State not served',
    meaning: "The pharmacy is not licensed to ship to the patient's state.",
    rerouteHelps: true,
    patientWords: 'Your order is being moved to a pharmacy that ships to your state.',
  },
  pharmacy_unavailable: {
    use: 'rejection_or_hold',
    title: 'Pharmacy cannot fill now',
    meaning: 'The pharmacy cannot fill the order in time (closed, over capacity, a system outage).',
    rerouteHelps: true,
    patientWords: 'Your pharmacy is delayed. Your care team will let you know how your order continues.',
  },
  prior_authorization_required: {
    use: 'rejection_or_hold',
    title: 'Prior authorisation required',
    meaning: "The patient's insurer must authorise the medication before the pharmacy may fill it.",
    rerouteHelps: false,
    patientWords: 'Your order is waiting for an approval from your insurance. Your care team will contact you.',
  },
  prescription_clarification: {
    use: 'rejection_or_hold',
    title: 'Prescription needs clarification',
    meaning: "The pharmacist needs the prescriber to clarify the prescription (dose, directions, quantity) before filling.",
    rerouteHelps: false,
    patientWords: 'Your pharmacy has a question for your prescriber. Your care team will take care of it.',
  },
  prescription_invalid: {
    use: 'rejection',
    title: 'Prescription cannot be filled',
    meaning: 'The prescription cannot be filled as written (incomplete, expired, or not valid for this medication).',
    rerouteHelps: false,
    patientWords: 'Your prescription needs attention from your care team before it can be filled. They will contact you.',
  },
  prescriber_not_verified: {
    use: 'rejection_or_hold',
    title: 'Prescriber not verified',
    meaning: "The pharmacy could not verify the prescriber's NPI or licence for the patient's state.",
    rerouteHelps: false,
    patientWords: 'Your pharmacy is confirming details with your care team. They will contact you if anything is needed.',
  },
  clinical_concern: {
    use: 'rejection',
    title: 'Pharmacist declined (clinical)',
    meaning: 'The pharmacist declined to fill the order for a clinical reason (an interaction, a contraindication, a dose).',
    rerouteHelps: false,
    patientWords: 'Your pharmacist has a question about your medication. Your care team will contact you.',
  },
  address_undeliverable: {
    use: 'rejection_or_hold',
    title: 'Address undeliverable',
    meaning: "The carrier cannot deliver to the patient's shipping address.",
    rerouteHelps: false,
    patientWords: 'We could not deliver to your shipping address. Please check it in your patient portal.',
  },
  patient_unreachable: {
    use: 'rejection_or_hold',
    title: 'Patient unreachable',
    meaning: 'The pharmacy must speak to the patient (counselling, consent, a delivery time) and could not reach them.',
    rerouteHelps: false,
    patientWords: 'Your pharmacy tried to reach you. Please check your phone and e-mail, or contact your care team.',
  },
  payment_required: {
    use: 'rejection_or_hold',
    title: 'Payment required',
    meaning: 'The pharmacy needs payment (a copay, a declined card) before it ships.',
    rerouteHelps: false,
    patientWords: 'Your order is waiting for a payment. Your care team will contact you.',
  },
  patient_declined: {
    use: 'rejection',
    title: 'Patient declined',
    meaning: 'The patient told the pharmacy they do not want the order.',
    rerouteHelps: false,
    patientWords: 'Your order was stopped at your request.',
  },
  duplicate_order: {
    use: 'rejection',
    title: 'Duplicate order',
    meaning: 'The pharmacy already fills the same prescription for this patient under another order.',
    rerouteHelps: false,
    patientWords: 'Your medication is already on its way under another order.',
  },
  rejected: {
    use: 'rejection',
    title: 'No reason given',
    meaning: 'The pharmacy rejected the order without a reason code (what is recorded when `reasonCode` is absent).',
    rerouteHelps: true,
    patientWords: 'Your order needs attention from your care team. They will contact you.',
  },
  no_qualifying_pharmacy: {
    use: 'rejection',
    title: 'No pharmacy qualifies',
    meaning: "Fulfillment Rail's own: routing found no enabled pharmacy that carries every line and ships to the patient's state. Never sent by a pharmacy.",
    rerouteHelps: false,
    patientWords: 'Your order needs attention from your care team. They will contact you.',
  },
} as const satisfies Record<string, ReasonCode>;

export type KnownReasonCode = keyof typeof REASON_CODES;
/** The code an unknown value is counted as; the value itself travels beside it as `reasonRaw`. */
export const OTHER_REASON = 'other';

/** The timeline's reason when a pharmacy lifts its hold without moving the order on (Fulfillment Rail's own). */
export const HOLD_RELEASED = 'hold_released';

/** What a code on the wire must look like: a lowercase machine code, never prose (it must carry no PHI). */
export const REASON_CODE_PATTERN = /^[a-z0-9_]{1,64}$/;

export const isKnownReasonCode = (code: string): code is KnownReasonCode => Object.hasOwn(REASON_CODES, code);

/** Codes a pharmacy may send (the vocabulary less Fulfillment Rail's own). */
export const PHARMACY_REASON_CODES = (Object.keys(REASON_CODES) as KnownReasonCode[]).filter((c) => c !== 'no_qualifying_pharmacy');

/** A code as the vocabulary reads it: known codes stand for themselves, anything else is `other` with the raw value. */
export function classifyReason(code: string): { reasonCode: KnownReasonCode | typeof OTHER_REASON; reasonRaw: string | null } {
  return isKnownReasonCode(code) ? { reasonCode: code, reasonRaw: null } : { reasonCode: OTHER_REASON, reasonRaw: code };
}

/** Console words for a code a pharmacy sent (or routing recorded); an unknown one is "Other" with its raw value. */
export function reasonTitle(code: string): string {
  return isKnownReasonCode(code) ? REASON_CODES[code].title : `Other (${code})`;
}
