import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

const zName = z.string().trim().min(1).max(200).meta({ description: 'Display name, 1 to 200 characters (trimmed)' });
const zDescription = z.string().trim().min(1).max(2000).nullable().meta({ description: 'Free-text description, up to 2000 characters; null for none' });
const zActive = z.boolean().meta({ description: 'Inactive protocols stay on record but are not offered for new orders' });

const itemFields = {
  productId: z.string().min(1).max(100).meta({ description: 'Product id (prd_…) of the same account and mode' }),
  quantity: z.number().int().min(1).max(1000).meta({ description: 'Units to dispense per fill, 1 to 1000' }),
  sig: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .meta({ description: 'Dosing instructions for the label, 1 to 500 characters, e.g. "Inject 0.25 mg subcutaneously once weekly"' }),
  refills: z.number().int().min(0).max(12).meta({ description: 'Refills authorized after the first fill, 0 to 12' }),
};

export const ZProtocolItemInput = z
  .strictObject({ ...itemFields, refills: itemFields.refills.default(0) })
  .meta({ id: 'ProtocolItemInput', description: 'One product of the protocol with its quantity, directions and refills' });
const zItems = z.array(ZProtocolItemInput).min(1).max(50).meta({ description: 'The products prescribed together, 1 to 50 items' });

export const ZProtocolItem = z
  .object({
    productId: z.string().meta({ description: 'Product id (prd_…)' }),
    quantity: z.number().int().meta({ description: 'Units to dispense per fill' }),
    sig: z.string().meta({ description: 'Dosing instructions for the label' }),
    refills: z.number().int().meta({ description: 'Refills authorized after the first fill' }),
  })
  .meta({ id: 'ProtocolItem', description: 'One product of the protocol with its quantity, directions and refills' });

export const ZProtocol = z
  .object({
    id: z.string().meta({ description: 'Protocol id (prt_…)' }),
    object: z.literal('protocol').meta({ description: 'Always "protocol"' }),
    livemode: z.boolean().meta({ description: 'True for a live-mode protocol, false for sandbox' }),
    name: z.string().meta({ description: 'Display name' }),
    description: z.string().nullable().meta({ description: 'Free-text description; null when not set' }),
    active: z.boolean().meta({ description: 'Whether the protocol is offered for new orders' }),
    items: z.array(ZProtocolItem).meta({ description: 'The products prescribed together, in order' }),
    createdAt: zDateTime.meta({ description: 'When the protocol was created (ISO 8601, UTC)' }),
    updatedAt: zDateTime.meta({ description: 'When the protocol last changed (ISO 8601, UTC)' }),
  })
  .meta({ id: 'Protocol' });

export const ZProtocolList = z.array(ZProtocol).meta({ description: 'Protocols, newest first' });

export const ZCreateProtocol = z
  .strictObject({ name: zName, description: zDescription.optional(), active: zActive.default(true), items: zItems })
  .meta({ id: 'CreateProtocol' });

export const ZUpdateProtocol = z
  .strictObject({ name: zName.optional(), description: zDescription.optional(), active: zActive.optional(), items: zItems.optional() })
  .meta({ id: 'UpdateProtocol' });
