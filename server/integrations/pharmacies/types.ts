import type { z } from 'zod';
import type { UrlPolicy } from '@/server/lib/ssrf';
import type { PHARMACY_STATUSES, ZDispatchOrder } from './protocol/schemas';

/** What leaves for a pharmacy: the prescription lines and where to ship. Built by the orders domain; its shape is the protocol's. */
export type DispatchOrder = z.output<typeof ZDispatchOrder>;

export type PharmacyOrderStatus = (typeof PHARMACY_STATUSES)[number];

export interface Tracking {
  carrier: string;
  number: string;
  url: string | null;
}

/** The pharmacy's view of one order we sent, found by the idempotency key we sent it with. */
export interface PharmacyOrderState {
  idempotencyKey: string;
  externalId: string;
  status: PharmacyOrderStatus;
  reasonCode: string | null;
  tracking: Tracking | null;
  estimatedDelivery: string | null;
  /**
   * When this order's status will next change, if the pharmacy can say (the simulated one follows a
   * script, so it can): the status sync asks again then instead of polling. Absent: poll.
   */
  nextChangeAt?: Date | null;
}

/** One row of a pharmacy's own price list: `sku` is the clinic's product SKU (or product id). */
export interface CatalogFeedRow {
  sku: string;
  itemCode: string;
  priceCents: number;
  stock: number;
  etaDays: number;
  /** The NDC (11 digits 5-4-2) and RxCUI of what the pharmacy dispenses, when its feed gives them. */
  ndc?: string | null;
  rxcui?: string | null;
}

/** A verified status callback: which order (by our idempotency key) and what happened to it. */
export interface CallbackUpdate {
  callbackId: string;
  idempotencyKey: string;
  status: Exclude<PharmacyOrderStatus, 'received'>;
  reasonCode: string | null;
  tracking: Tracking | null;
  estimatedDelivery: string | null;
}

export interface ConnectionForAdapter {
  id: string;
  livemode: boolean;
  secret: string;
  settings: Record<string, unknown>;
  /** Where the pharmacy sends this connection's status callbacks (absolute); the http adapter puts it on every order. */
  callbackUrl?: string;
}

/** One order in the simulated pharmacy's book: what it was sent and the outcome its script fixed at receipt. */
export interface SimulatedBookEntry {
  id: string;
  connectionId: string;
  idempotencyKey: string;
  /** Ids and lines only: the simulation has no use for the patient's details. */
  payload: Record<string, unknown>;
  outcome: 'accept' | 'reject';
  reasonCode: string | null;
  receivedAt: Date;
  cancelledAt: Date | null;
}

/**
 * Where the simulated pharmacy keeps its book: a port the pharmacies area provides (a table, outside any of our
 * transactions), so this adapter, like a real pharmacy, holds its own state without knowing our schema.
 */
export interface SimulatedPharmacyBook {
  /** Records a new order; a key the book holds already records nothing and answers the first entry. */
  receive(entry: Omit<SimulatedBookEntry, 'cancelledAt'>): Promise<SimulatedBookEntry>;
  find(connectionId: string, idempotencyKey: string): Promise<SimulatedBookEntry | undefined>;
  markCancelled(id: string, at: Date): Promise<SimulatedBookEntry>;
}

export interface AdapterDeps {
  book: SimulatedPharmacyBook;
  policy: UrlPolicy;
}

/** A pharmacy that cannot be reached or answered wrongly; the caller may retry (lookup first). */
export class PharmacyUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PharmacyUnavailable';
  }
}

/** DESIGN decision 11: every pharmacy, simulated or real, is driven through these five calls. */
export interface PharmacyAdapter {
  readonly name: 'simulated' | 'http';
  readonly settingsSchema: z.ZodType<Record<string, unknown>>;
  /** Sends the order once per idempotency key: a repeat with the same key returns the first result. */
  submit(conn: ConnectionForAdapter, order: DispatchOrder, idempotencyKey: string): Promise<PharmacyOrderState>;
  /** The pharmacy's current view of the order, or null when it never received it. */
  lookup(conn: ConnectionForAdapter, idempotencyKey: string): Promise<PharmacyOrderState | null>;
  /** Asks the pharmacy to cancel; returns its view afterwards (a shipped order stays shipped). */
  cancel(conn: ConnectionForAdapter, idempotencyKey: string): Promise<PharmacyOrderState | null>;
  /** Verifies and reads an inbound status callback; throws CallbackRejected when it fails verification. */
  parseCallback(conn: ConnectionForAdapter, req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): CallbackUpdate;
  /** The pharmacy's current price list. */
  fetchCatalog(conn: ConnectionForAdapter): Promise<CatalogFeedRow[]>;
}
