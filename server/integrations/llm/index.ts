import type { Config } from '@/server/lib/config';
import { offlineLlm } from './offline';
import { openAiCompatibleLlm } from './openai-compatible';
import type { LlmPort } from './types';

export * from './types';

/** DESIGN decision 22: a configured OpenAI-compatible model, else the offline generator. */
export function llmFromConfig(config: Pick<Config, 'LLM_BASE_URL' | 'LLM_MODEL' | 'LLM_API_KEY' | 'LLM_TIMEOUT_MS'>): LlmPort {
  if (config.LLM_BASE_URL && config.LLM_MODEL) {
    return openAiCompatibleLlm({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY, timeoutMs: config.LLM_TIMEOUT_MS });
  }
  return offlineLlm();
}
