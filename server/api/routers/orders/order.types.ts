import * as z from '@/server/lib/zod';
import { ORDER_STATUSES } from '@/db/schema/orders';
import { zDateTime, zId } from '@/server/api/schemas/common';
import { ZPatient } from '@/server/api/routers/patients/patients.types';
import { ZOrderRouting } from './routing-plan.types';

export const zOrderStatus = z.enum(ORDER_STATUSES).meta({ description: 'Lifecycle status (DESIGN decision 8)' });
const zSource = z.enum(['api', 'flow', 'store', 'import']).meta({ description: 'Where the order came from' });
// Orders from an intake review are created by the review itself, never by POST /orders.
const zOrderSource = z.enum(['api', 'flow', 'store', 'import', 'intake']).meta({ description: 'Where the order came from (`intake`: a provider approved an intake submission)' });
const zPriority = z.enum(['routine', 'urgent']).meta({ description: 'Clinical priority' });

const ZOrderItem = z
  .object({
    productId: z.string().meta({ description: 'The product prescribed' }),
    quantity: z.number().int().meta({ description: 'Units to dispense' }),
    sig: z.string().meta({ description: 'Dosing instructions' }),
    refills: z.number().int().meta({ description: 'Refills allowed' }),
  })
  .meta({ id: 'OrderItem' });

export const ZOrder = z
  .object({
    id: z.string().meta({ description: 'Order id (ord_…)' }),
    object: z.literal('order').meta({ description: 'Always `order`' }),
    livemode: z.boolean().meta({ description: 'True for live, false for sandbox' }),
    status: zOrderStatus,
    source: zOrderSource,
    priority: zPriority,
    foreignOrderId: z.string().nullable().meta({ description: "The originating store's order id" }),
    patientId: z.string().nullable().meta({ description: 'The patient, once chosen' }),
    pharmacyConnectionId: z.string().nullable().meta({ description: 'The pharmacy the order is routed to' }),
    items: z.array(ZOrderItem).meta({ description: 'Prescription lines' }),
    amberFields: z.array(z.string()).meta({ description: 'Low-confidence fields awaiting human confirmation' }),
    rejectionReasonCode: z.string().nullable().meta({ description: "The pharmacy's (or routing's) reason code when rejected" }),
    createdAt: zDateTime,
    updatedAt: zDateTime,
    approvedAt: zDateTime.nullable().meta({ description: 'When a provider approved it' }),
  })
  .meta({ id: 'Order' });

const ZTimelineEntry = z
  .object({
    from: zOrderStatus.nullable().meta({ description: 'Status before (null at creation)' }),
    to: zOrderStatus,
    at: zDateTime,
    actorKind: z.enum(['user', 'key', 'pharmacy', 'system', 'patient']).meta({ description: 'Who made the change (patient: the patient in the patient portal)' }),
    actorId: z.string().nullable().meta({ description: 'User, API key or pharmacy connection id' }),
    reasonCode: z.string().nullable().meta({ description: 'Why, when there is a reason code' }),
    note: z
      .string()
      .nullable()
      .meta({ description: "What the person wrote with the change (a provider's reason for declining). PHI: null for callers without patients.read" }),
  })
  .meta({ id: 'OrderTimelineEntry' });

export const ZOrderDetail = ZOrder.extend({
  approvedBy: z.string().nullable().meta({ description: 'The approving provider’s user id' }),
  patient: ZPatient.nullable().meta({ description: 'The patient (PHI)' }),
  prescriptions: z
    .array(
      ZOrderItem.extend({
        name: z.string().nullable().meta({ description: 'Product name' }),
        sku: z.string().nullable().meta({ description: 'Product SKU' }),
        form: z.string().nullable().meta({ description: 'Dosage form' }),
        strength: z.string().nullable().meta({ description: 'Strength' }),
      }),
    )
    .meta({ description: 'The prescription lines with their products' }),
  pharmacy: z
    .object({ id: z.string(), name: z.string(), adapter: z.enum(['simulated', 'http']) })
    .nullable()
    .meta({ description: 'The pharmacy the order is routed to' }),
  routing: ZOrderRouting.nullable().meta({ description: 'Why routing chose the pharmacy (or none), as it decided at approval, reroute or submit; null before routing' }),
  shipment: z
    .object({
      carrier: z.string().meta({ description: 'Carrier' }),
      trackingNumber: z.string().meta({ description: 'Tracking number' }),
      trackingUrl: z.string().nullable().meta({ description: 'Tracking page' }),
      estimatedDelivery: z.string().nullable().meta({ description: 'Estimated delivery date' }),
      shippedAt: zDateTime.nullable(),
      deliveredAt: zDateTime.nullable(),
    })
    .nullable()
    .meta({ description: 'Shipment, once shipped' }),
  timeline: z.array(ZTimelineEntry).meta({ description: 'Every transition (and note, such as a pharmacy’s answer to a cancel), oldest first' }),
  pharmacyRecall: z
    .enum(['recalled', 'not_recalled'])
    .nullable()
    .meta({ description: 'After a cancel request to a pharmacy (the order’s, or one holding a copy of an earlier round): whether it recalled the order (not_recalled: it had shipped it, say); null until it answers or when it never had the order' }),
}).meta({ id: 'OrderDetail' });

export const ZCreateOrder = z
  .strictObject({
    items: z
      .array(
        z.strictObject({
          productId: zId('Product'),
          quantity: z.number().int().min(1).max(1000).meta({ description: 'Units to dispense' }),
          sig: z.string().trim().min(1).max(500).meta({ description: 'Dosing instructions' }),
          refills: z.number().int().min(0).max(12).default(0).meta({ description: 'Refills allowed (default 0)' }),
        }),
      )
      .min(1)
      .max(50)
      .meta({ description: 'Prescription lines' }),
    patientId: zId('Patient').optional().meta({ description: 'The patient; without one the order is a draft' }),
    source: zSource.default('api'),
    priority: zPriority.default('routine'),
    foreignOrderId: z.string().trim().min(1).max(200).optional().meta({ description: "The originating store's order id; unique per source" }),
    amberFields: z.array(z.string().min(1).max(100)).max(50).default([]).meta({ description: 'Low-confidence fields to confirm before approval (keeps the order a draft)' }),
  })
  .meta({ id: 'CreateOrder' });

export const zOrderId = z.object({ id: zId('Order') });
