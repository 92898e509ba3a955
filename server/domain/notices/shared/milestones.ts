/*
 * The names of decision 41's milestones and channels, in the notices area's shared rules (pure, no I/O) so the
 * tables, the domain and the console's settings page read one list.
 */

/** The moments a patient hears from the clinic, in the order they happen. */
export const NOTICE_MILESTONES = ['submission_received', 'order_sent', 'order_shipped', 'order_delivered', 'needs_attention'] as const;
export type NoticeMilestone = (typeof NOTICE_MILESTONES)[number];

export const NOTICE_CHANNELS = ['email', 'sms'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/** Why an order needs attention: the two causes decision 41 names, worded differently to the patient. */
export const NOTICE_CAUSES = ['rejected', 'cancelled'] as const;
export type NoticeCause = (typeof NOTICE_CAUSES)[number];
