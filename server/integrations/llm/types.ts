/**
 * The LLM port (DESIGN decision 22). It knows nothing of questionnaires: the caller passes the JSON Schema
 * the answer should follow, and gets back whatever JSON came, unchecked. Checking it is the caller's job,
 * with the same validator a hand-written document passes: a model's output is untrusted data.
 */

/** A ready-made answer the offline adapter may pick; `text` is what its keywords are matched against. */
export interface LlmTemplate {
  text: string;
  value: unknown;
}

export interface StructuredRequest {
  /** Fixed instructions (never the user's text). */
  system: string;
  /** The user's text, passed as data. */
  prompt: string;
  schemaName: string;
  jsonSchema: Record<string, unknown>;
  /** For the offline adapter: answers to choose from by the prompt's keywords. */
  templates: LlmTemplate[];
}

export type StructuredResult = { ok: true; value: unknown } | { ok: false; reason: 'not_json' | 'empty' };

export interface LlmPort {
  readonly adapter: 'offline' | 'openai-compatible';
  generateJson(request: StructuredRequest): Promise<StructuredResult>;
}

/** The model could not be reached or did not answer in time: the caller answers 503, retryable. */
export class LlmUnavailableError extends Error {
  constructor(readonly reason: 'timeout' | 'unreachable') {
    super(reason === 'timeout' ? 'The language model did not answer in time.' : 'The language model could not be reached.');
    this.name = 'LlmUnavailableError';
  }
}
