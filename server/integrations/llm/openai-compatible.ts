import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, NoObjectGeneratedError, Output } from 'ai';
import { LlmUnavailableError, type LlmPort, type StructuredRequest } from './types';
import { logger } from '@/server/lib/logger';

export interface OpenAiCompatibleSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

const PROVIDER = 'llm';

/**
 * Structured output through the `ai` SDK against any OpenAI-compatible endpoint. The schema guides the model
 * (`response_format: json_schema`, not strict: the document has optional fields) but is not enforced here:
 * the answer comes back raw so the caller's validator can say what is wrong with it.
 */
export function openAiCompatibleLlm(settings: OpenAiCompatibleSettings): LlmPort {
  const provider = createOpenAICompatible({ name: PROVIDER, baseURL: settings.baseUrl, apiKey: settings.apiKey, supportsStructuredOutputs: true });
  const model = provider.chatModel(settings.model);
  return {
    adapter: 'openai-compatible',
    async generateJson(request: StructuredRequest) {
      try {
        const result = await generateText({
          model,
          system: request.system,
          prompt: request.prompt,
          // A schema without a validate function: the SDK parses the JSON and hands it over unchecked.
          output: Output.object({ schema: jsonSchema(request.jsonSchema), name: request.schemaName }),
          providerOptions: { [PROVIDER]: { strictJsonSchema: false } },
          temperature: 0,
          // One attempt: the timeout bounds the whole request, and a retry would double it.
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(settings.timeoutMs),
        });
        return { ok: true, value: result.output as unknown };
      } catch (err) {
        if (NoObjectGeneratedError.isInstance(err)) return { ok: false, reason: 'not_json' };
        const name = (err as Error | undefined)?.name;
        const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable';
        // The one line an outage leaves (the request that met it is answered 503 and recorded at info).
        logger.warn({ provider: PROVIDER, reason, errorName: name }, 'model request failed');
        throw new LlmUnavailableError(reason);
      }
    },
  };
}
