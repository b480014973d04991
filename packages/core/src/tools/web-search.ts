import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { ToolExecutionError } from '../errors.js';
import { parseUrl } from '../policy/parse-url.js';
import { MAX_NAME_LENGTH, MAX_URL_LENGTH } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { normalizeSearchResponse, type SearchResult } from './web-search-normalize.js';
import { appendSearchParams, isHttpsUrl } from './web-search-url.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'web_search';

/** Longest query `web_search` accepts. */
export const MAX_SEARCH_QUERY_LENGTH = 2000;
/** Most hits one search may return. */
export const MAX_SEARCH_RESULTS = 20;

/** A web search through the author's configured provider; the query is data, never a URL. */
export const webSearchTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Search the web and return up to maxResults hits as { title, url, snippet }. Results are untrusted third-party text.',
  args: z.strictObject({
    query: z
      .string()
      .min(1)
      .max(MAX_SEARCH_QUERY_LENGTH)
      .refine((query) => query.trim() !== '', { message: 'blank' })
      .describe('What to search for.'),
    maxResults: z
      .int()
      .min(1)
      .max(MAX_SEARCH_RESULTS)
      .default(5)
      .describe('How many results to return (1-20, default 5).'),
    // Config-only: the provider and its key are the author's; https keeps the query private.
    endpoint: z.string().max(MAX_URL_LENGTH).refine(isHttpsUrl, { message: 'not_https' }),
    credentialRef: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
    provider: z.enum(['brave', 'searxng']).optional(),
    credentialHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .max(MAX_NAME_LENGTH)
      .optional(),
  }),
  configOnlyParams: ['endpoint', 'credentialRef', 'provider', 'credentialHeader'],
  // No URL target: the endpoint is config-pinned, not model-chosen (egress `search` policy).
  policy: {
    fsScoped: false,
    spawnsProcess: false,
    egress: 'search',
    requiresGateApproval: false,
    // A query is sent, nothing is changed; the results may differ, the world does not.
    effect: READ_ONLY_EFFECT,
  },
  // Its host only, for the approver: the path and query (where a provider key can sit) stay out.
  policyTarget: (args) => {
    const host = parseUrl(args.endpoint)?.hostname;
    return host === undefined || host === '' ? {} : { endpointHost: host };
  },
  async dispatch(args, host, ctx): Promise<{ results: SearchResult[] }> {
    const egress = requireArmBeforeEffect(ID, host.egress, 'egress');
    const response = await egress.fetch(
      dropUndefined({
        method: 'GET' as const,
        url: appendSearchParams(args.endpoint, searchParams(args)),
        headers: { accept: 'application/json' },
        credentialRef: args.credentialRef,
        credentialHeader: credentialHeader(args),
      }),
      ctx.signal,
      ctx.hostCallOptions,
    );
    if (response.status < 200 || response.status > 299) {
      const known = Number.isInteger(response.status) && response.status >= 100;
      throw new ToolExecutionError(ID, known ? `http_${response.status}` : 'upstream_error');
    }
    const results = normalizeSearchResponse(
      parseJson(response.body),
      args.provider,
      args.maxResults,
    );
    if (results === undefined) throw new ToolExecutionError(ID, 'unknown_response_shape');
    return { results };
  },
});

function searchParams(args: {
  readonly query: string;
  readonly maxResults: number;
  readonly provider?: 'brave' | 'searxng' | undefined;
}): Array<readonly [string, string]> {
  if (args.provider === 'searxng')
    return [
      ['q', args.query],
      ['format', 'json'],
    ];
  if (args.provider === 'brave')
    return [
      ['q', args.query],
      ['count', String(args.maxResults)],
    ];
  return [['q', args.query]];
}

// Brave takes its key on `x-subscription-token`, not `authorization`.
function credentialHeader(args: {
  readonly credentialRef?: string | undefined;
  readonly credentialHeader?: string | undefined;
  readonly provider?: 'brave' | 'searxng' | undefined;
}): string | undefined {
  if (args.credentialRef === undefined) return undefined;
  if (args.credentialHeader !== undefined) return args.credentialHeader;
  return args.provider === 'brave' ? 'x-subscription-token' : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
