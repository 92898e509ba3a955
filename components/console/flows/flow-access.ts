/** Who may open flows: the growth team (flows.manage) and providers, who approve their clinical steps. */
export const readsFlows = (scopes: readonly string[]) => scopes.includes('flows.manage') || scopes.includes('intake.review');

/** Who may read a flow's analytics (the stats permission; flows.manage alone does not carry it). */
export const readsFlowAnalytics = (scopes: readonly string[]) => scopes.includes('FLOWS_ANALYTICS_VIEW');
