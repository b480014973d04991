import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { withMedia } from '../with-media.js';
import {
  boundedRecord,
  MAX_CONTENT_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_URL_LENGTH,
} from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'http_request';

/** Most headers one request may carry. */
export const MAX_REQUEST_HEADERS = 64;

/** One HTTPS request to an allowlisted host. */
export const httpRequestTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Send an HTTPS request to an allowlisted host and return the status, headers and body. Binary response bodies come back as a media handle.',
  args: z.strictObject({
    url: z.string().min(1).max(MAX_URL_LENGTH).describe('Absolute https:// URL.'),
    method: z
      .enum(['GET', 'POST', 'PUT', 'DELETE'])
      .default('GET')
      .describe('HTTP method (default GET).'),
    headers: boundedRecord(
      z.string().min(1).max(MAX_NAME_LENGTH),
      z.string().max(MAX_TEXT_LENGTH),
      MAX_REQUEST_HEADERS,
    )
      .optional()
      .describe('Request headers by name.'),
    body: z.string().max(MAX_CONTENT_LENGTH).optional().describe('Request body text.'),
  }),
  policy: {
    fsScoped: false,
    spawnsProcess: false,
    egress: 'http',
    requiresGateApproval: false,
    // PUT, POST and DELETE may change or remove anything the host serves.
    effect: { readOnly: false, destructive: true, idempotent: false },
  },
  policyTarget: (args) => ({ url: args.url }),
  async dispatch(args, host, ctx) {
    const egress = requireArmBeforeEffect(ID, host.egress, 'egress');
    const response = await egress.fetch(
      dropUndefined({
        method: args.method,
        url: args.url,
        headers: args.headers ?? {},
        body: args.body,
        // The host re-applies the allowlist on every redirect hop, not only the first URL.
        allowedDomains: ctx.toolPolicy.allowedDomains ?? [],
        mediaScope: ctx.mediaScope,
      }),
      ctx.signal,
      ctx.hostCallOptions,
    );
    const result = dropUndefined({
      status: response.status,
      headers: response.headers,
      body: response.body,
      truncated: response.truncated,
    });
    // A binary body rides as a media handle (step 5b), never as inline base64.
    return response.media === undefined ? result : withMedia(result, [response.media]);
  },
});
