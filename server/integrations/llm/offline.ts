import type { LlmPort, LlmTemplate, StructuredRequest } from './types';

const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));

/** How many of the prompt's words the template's text shares; ties keep the earlier template. */
function score(prompt: Set<string>, template: LlmTemplate): number {
  let n = 0;
  for (const w of words(template.text)) if (prompt.has(w)) n++;
  return n;
}

/**
 * The deterministic generator used when no model is configured: the template whose text shares the most
 * words with the description, copied. Same description, same draft; no network.
 */
export function offlineLlm(): LlmPort {
  return {
    adapter: 'offline',
    async generateJson(request: StructuredRequest) {
      if (request.templates.length === 0) return { ok: false, reason: 'empty' };
      const prompt = words(request.prompt);
      let best = request.templates[0];
      let bestScore = score(prompt, best);
      for (const t of request.templates.slice(1)) {
        const s = score(prompt, t);
        if (s > bestScore) [best, bestScore] = [t, s];
      }
      return { ok: true, value: structuredClone(best.value) };
    },
  };
}
