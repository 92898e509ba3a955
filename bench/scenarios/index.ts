import { flowsScenario } from './flows';
import { intakeScenario } from './intake';
import { intakeEngineScenario } from './intake-engine';
import { keysScenario } from './keys';
import { lighthouseScenario } from './lighthouse';
import { ordersScenario } from './orders';
import { pagesScenario } from './pages';
import { routingScenario } from './routing';
import { soakScenario } from './soak';
import type { Scenario } from './types';
import { webhooksScenario } from './webhooks';

/**
 * Every scenario, in run order. A new one (webhook delivery, routing plan, orders …) is a module exporting a
 * `Scenario`, added here.
 */
export const scenarios: Scenario[] = [keysScenario, webhooksScenario, routingScenario, ordersScenario, intakeScenario, intakeEngineScenario, flowsScenario, pagesScenario, lighthouseScenario, soakScenario];
