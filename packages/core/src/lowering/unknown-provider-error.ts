import { TOOL_PROVIDERS } from './tool-providers.js';

/** `toProviderTools` was asked for a wire format it does not know; `provider` holds the name. */
export class UnknownProviderError extends TypeError {
  readonly code = 'unknown_provider';
  override readonly name = 'UnknownProviderError';
  /** The names `toProviderTools` accepts. */
  readonly validProviders: readonly string[] = TOOL_PROVIDERS;

  constructor(readonly provider: unknown) {
    // The name itself is left out: it is caller text, kept on `provider` for whoever logs it.
    super(`toolhost: unknown provider; valid providers are ${TOOL_PROVIDERS.join(', ')}`);
  }
}
