import type { NoticeCause, NoticeChannel, NoticeMilestone } from './milestones';

/**
 * The words of each notice (DESIGN decision 41, minimum necessary): the clinic, the milestone and the portal
 * link, and for a shipment the carrier and its tracking link. Nothing else about the person or the order can
 * get in: these functions are given no name, medication, condition, answer, date of birth or address to print.
 * Plain text only; whatever shows it (an e-mail client, the console) shows it as text.
 */
export interface MessageFacts {
  milestone: NoticeMilestone;
  cause: NoticeCause | null;
  channel: NoticeChannel;
  /** The clinic's sender name, or its name. */
  sender: string;
  supportContact: string | null;
  /** The patient portal (`/p/{embedKey}`), or null when the clinic has no embed key to reach it by. */
  portalUrl: string | null;
  unsubscribeUrl: string;
  sandbox: boolean;
  /** Only for `order_shipped`. */
  shipment?: { carrier: string | null; trackingUrl: string | null; trackingNumber: string | null } | null;
}

export interface RenderedMessage {
  /** E-mail only; null for SMS. */
  subject: string | null;
  text: string;
}

const HEADLINE: Record<Exclude<NoticeMilestone, 'needs_attention'> | `needs_attention:${NoticeCause}`, { title: string; body: string }> = {
  submission_received: {
    title: 'We received your request',
    body: 'We received what you sent us. A licensed provider will review it, and we will let you know when there is news.',
  },
  order_sent: {
    title: 'Your order was sent to the pharmacy',
    body: 'A provider approved your order and it has been sent to the pharmacy.',
  },
  order_shipped: { title: 'Your order has shipped', body: 'The pharmacy has shipped your order.' },
  order_delivered: { title: 'Your order was delivered', body: 'The carrier reports that your order was delivered.' },
  'needs_attention:rejected': {
    title: 'Your order needs attention',
    body: 'There is a problem filling your order. The clinic is looking into it and may contact you.',
  },
  'needs_attention:cancelled': {
    title: 'Your order was cancelled',
    body: 'Your order was cancelled. If you did not expect this, please contact the clinic.',
  },
};

/** Control characters and line breaks out, runs of spaces folded: one line, so nothing breaks a header or an SMS. */
export const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();

/** A link from outside (a pharmacy's tracking page) goes in only when it is an https address of reasonable length. */
function safeLink(url: string | null | undefined): string | null {
  if (!url || url.length > 500) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const headlineOf = (f: Pick<MessageFacts, 'milestone' | 'cause'>) => HEADLINE[f.milestone === 'needs_attention' ? (`needs_attention:${f.cause ?? 'rejected'}` as const) : f.milestone];

function shipmentLines(f: MessageFacts): string[] {
  if (f.milestone !== 'order_shipped' || !f.shipment) return [];
  const carrier = f.shipment.carrier ? oneLine(f.shipment.carrier).slice(0, 60) : null;
  const link = safeLink(f.shipment.trackingUrl);
  const number = f.shipment.trackingNumber ? oneLine(f.shipment.trackingNumber).slice(0, 60) : null;
  return [
    ...(carrier ? [`Carrier: ${carrier}`] : []),
    ...(link ? [`Track your package: ${link}`] : number ? [`Tracking number: ${number}`] : []),
  ];
}

export function renderMessage(f: MessageFacts): RenderedMessage {
  const sender = oneLine(f.sender) || 'Your clinic';
  const { title, body } = headlineOf(f);
  const prefix = f.sandbox ? '[Sandbox] ' : '';
  const support = f.supportContact ? oneLine(f.supportContact) : null;
  const portal = f.portalUrl ? `See the details and manage your messages: ${f.portalUrl}` : 'For the details, contact the clinic.';
  if (f.channel === 'sms') {
    const shipped = shipmentLines(f);
    const lines = [`${prefix}${sender}: ${title}.`, ...shipped, f.portalUrl ? `Details: ${f.portalUrl}` : null, support ? `Questions: ${support}` : null, `Stop texts: ${f.unsubscribeUrl}`];
    return { subject: null, text: lines.filter((l): l is string => l !== null).join('\n') };
  }
  const lines = [
    'Hello,',
    '',
    body,
    ...(shipmentLines(f).length ? ['', ...shipmentLines(f)] : []),
    '',
    portal,
    ...(support ? ['', `Questions? Contact ${sender}: ${support}`] : []),
    '',
    `${sender}`,
    '',
    '—',
    `You receive these e-mails because ${sender} looks after your care. To stop e-mails about your orders: ${f.unsubscribeUrl}`,
    ...(f.sandbox ? ['This message comes from the clinic’s sandbox (a rehearsal): no real order exists.'] : []),
  ];
  return { subject: `${prefix}${sender}: ${title}`, text: lines.join('\n') };
}
