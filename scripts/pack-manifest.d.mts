/** The manifest a tarball carries: no `source` export conditions, no pack-time scripts. */
export function forTarball(manifest: Record<string, unknown>): Record<string, unknown>;
