import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { hasHttpToken } from '../mcp/http-token.js';
import { isLoopbackRequest, type LoopbackAllowlist } from '../mcp/loopback-origin.js';

// One check for `serve --http` and the page: re-exported where the page's routes look for it.
export { loopbackAllowlist, type LoopbackAllowlist } from '../mcp/loopback-origin.js';

/**
 * What every response carries. The token rides in the page's URL, so no referrer leaves it; the
 * page's script and style are files of this origin and nothing else may load, frame or run.
 */
export const UI_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
});

/**
 * The control tower's gate, as `serve --http`'s: a foreign Host (DNS rebinding) or Origin (a page
 * of another site) is 403 before anything else, then a missing or wrong token is 401. A POST must
 * be JSON: a cross-site form can send neither that content type nor the token. No CORS header is
 * ever set, so no other origin may read an answer.
 */
export function uiGuard(
  token: string,
  allowed: () => LoopbackAllowlist,
): MiddlewareHandler<{ Bindings: HttpBindings }> {
  return async (c, next) => {
    for (const [name, value] of Object.entries(UI_SECURITY_HEADERS)) c.header(name, value);
    if (!isLoopbackRequest(allowed(), c.req.header('host'), c.req.header('origin'))) {
      return c.json({ error: 'forbidden host or origin' }, 403);
    }
    if (!hasHttpToken(c.env.incoming, token)) {
      c.header('www-authenticate', 'Bearer');
      return c.json({ error: 'missing or invalid token' }, 401);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      if (c.req.method !== 'POST') return c.json({ error: 'method not allowed' }, 405);
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json(?:\s*;|$)/iu.test(type))
        return c.json({ error: 'a JSON body is required' }, 415);
    }
    await next();
  };
}
