/** The Host and Origin values a loopback listener on `port` answers to. */
export interface LoopbackAllowlist {
  readonly hosts: readonly string[];
  readonly origins: readonly string[];
}

/** What `serve --http` and the control tower answer to on `port`: 127.0.0.1 and localhost only. */
export function loopbackAllowlist(port: number): LoopbackAllowlist {
  return {
    hosts: [`127.0.0.1:${port}`, `localhost:${port}`],
    origins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
  };
}

/**
 * Whether a request's Host and Origin are this listener's own. A page on an attacker's domain that
 * re-resolves to 127.0.0.1 (DNS rebinding) still sends its own Host; a page of another site sends
 * its Origin. A request without an Origin (a non-browser client) is judged by its Host alone.
 */
export function isLoopbackRequest(
  allowed: LoopbackAllowlist,
  host: string | undefined,
  origin: string | undefined,
): boolean {
  return (
    allowed.hosts.includes(host ?? '') && (origin === undefined || allowed.origins.includes(origin))
  );
}
