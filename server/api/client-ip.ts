import type { IncomingMessage } from 'node:http';

/** The peer address; forwarded headers are not trusted, so a client cannot pick its own limit bucket. */
export const clientIp = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';
