import type { IncomingMessage } from 'node:http';

/**
 * Where `serve --http`'s token comes from and how to send it: the 401's answer, so a client author
 * who forgot it (or copied it wrong) learns the fix from the refusal itself. Fixed text only: the
 * presented credential is never echoed, not even in part.
 */
export const HTTP_TOKEN_HELP =
  'send the token as the header "Authorization: Bearer <token>" (or as ?token=<token> in the URL); ' +
  'the token is the token= part of the URL toolhost serve --http printed on its stderr at start, ' +
  'or the content of the file it was given with --token-file; a new token is made at every start';

/** The 401's `WWW-Authenticate` (RFC 6750): `invalid_token` only when some credential came. */
export function httpTokenChallenge(request: IncomingMessage): string {
  const presented =
    request.headers.authorization !== undefined ||
    new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.has('token');
  // A quoted-string may not hold `"` nor `\`: the header form of the help names the header bare.
  const description =
    'pass the token toolhost serve --http printed (or wrote to its --token-file) as Authorization: Bearer <token>';
  return `Bearer realm="toolhost serve"${presented ? ', error="invalid_token"' : ''}, error_description="${description}"`;
}
