import type { SandboxContext } from './create-sandbox.js';
import { absoluteOrUndefined } from './sandbox-paths.js';

/** Inside the sandbox's own network namespace: nothing else listens there. */
export const SANDBOX_PROXY_PORT = 3128;

/** The child's env inside the sandbox: git identity, private /tmp, empty HOME, the proxy. */
export function sandboxEnv(
  env: Readonly<Record<string, string>>,
  context: SandboxContext,
  network: boolean,
  identity: { readonly entries: Readonly<Record<string, string>>; readonly count: number },
): Record<string, string> {
  const result: Record<string, string> = { ...env, ...identity.entries };
  if (identity.count > 0) result['GIT_CONFIG_COUNT'] = String(identity.count);
  // The host's TMPDIR is not inside; the private /tmp is.
  if (result['TMPDIR'] !== undefined) result['TMPDIR'] = '/tmp';
  if (absoluteOrUndefined(context.hostEnv['HOME']) === undefined) result['HOME'] = '/tmp';
  if (network) Object.assign(result, proxyEnv(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`));
  return result;
}

/** Every spelling HTTP clients read a proxy from (curl, npm, yarn, pip, git, Node ≥ 24). */
export function proxyEnv(url: string): Record<string, string> {
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    PIP_PROXY: url,
    NODE_USE_ENV_PROXY: '1',
  };
}
