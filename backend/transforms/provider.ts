import { describeMs, isTimeoutError, providerTimeoutMs } from "../lib/outbound.js";

/**
 * The hosted LLM provider is pluggable by configuration (read here, per call):
 *   TRIBUTARY_LLM_URL      base URL of an OpenAI-compatible API (e.g. https://api.openai.com/v1)
 *   TRIBUTARY_LLM_API_KEY  its bearer key (never logged nor returned)
 *   TRIBUTARY_LLM_MODEL    the model name (default "gpt-4o-mini")
 * Unset: templates offer only the local models and an input choosing
 * "hosted_llm" is refused with HOSTED_UNAVAILABLE.
 */
export interface HostedProvider {
  url: string;
  apiKey: string | undefined;
  model: string;
}

export const HOSTED_UNAVAILABLE =
  "The hosted LLM provider is unavailable on this server (TRIBUTARY_LLM_URL is not set). Choose the local provider.";

export function hostedProvider(env: NodeJS.ProcessEnv = process.env): HostedProvider | null {
  const url = env.TRIBUTARY_LLM_URL?.trim();
  if (!url) return null;
  return { url: url.replace(/\/+$/, ""), apiKey: env.TRIBUTARY_LLM_API_KEY?.trim() || undefined, model: env.TRIBUTARY_LLM_MODEL?.trim() || "gpt-4o-mini" };
}

/** A hosted call that failed in a way retrying cannot fix (refused key, unknown model). */
export class HostedProviderError extends Error {}

/**
 * Names each topic from its top words with the hosted model (OpenAI-compatible
 * POST {url}/chat/completions). Only the words are sent, never transcripts.
 */
export async function labelTopicsWithHostedModel(provider: HostedProvider, topics: { topic_id: number; words: string[] }[]): Promise<Map<number, string>> {
  const labels = new Map<number, string>();
  const timeoutMs = providerTimeoutMs();
  for (const topic of topics) {
    let response: Response;
    try {
      response = await fetch(`${provider.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}) },
        body: JSON.stringify({
          model: provider.model,
          temperature: 0,
          messages: [
            { role: "system", content: "You name topics found in business meeting transcripts. Answer with a short label of 2 to 5 words and nothing else." },
            { role: "user", content: `Top words of the topic: ${topic.words.join(", ")}` },
          ],
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (isTimeoutError(error)) throw new Error(`The hosted LLM did not answer within ${describeMs(timeoutMs)}.`);
      throw new Error(`The hosted LLM at ${provider.url} could not be reached: ${(error as Error).message}`);
    }
    if (response.status === 400 || response.status === 401 || response.status === 403 || response.status === 404) {
      throw new HostedProviderError(`The hosted LLM refused the request (HTTP ${response.status}): check TRIBUTARY_LLM_URL, TRIBUTARY_LLM_API_KEY and TRIBUTARY_LLM_MODEL.`);
    }
    if (!response.ok) throw new Error(`The hosted LLM answered HTTP ${response.status}.`);
    const body = (await response.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== "string" || !content.trim()) throw new Error("The hosted LLM's answer had no label.");
    labels.set(topic.topic_id, content.trim().replace(/^["'\s]+|["'.\s]+$/g, "").slice(0, 80));
  }
  return labels;
}
