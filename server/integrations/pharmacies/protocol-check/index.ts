export { PROTOCOL_CHECKS, reportLines, runProtocolChecks } from './runner';
export { startCallbackListener } from './listener';
export { directFetch, pinnedFetch } from './fetch';
export type { CallbackReceiver, CheckOptions, CheckReport, CheckResult, ProtocolFetch, ReceivedCallback } from './types';
