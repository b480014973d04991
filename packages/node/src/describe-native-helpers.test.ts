import { describe, expect, it } from 'vitest';
import { describeNativeHelpers } from './describe-native-helpers.js';

describe('describeNativeHelpers', () => {
  it.runIf(process.platform === 'linux')(
    'tells a helper that is absent from one that was never built',
    async () => {
      const helpers = await describeNativeHelpers({
        pidNamespace: () =>
          Promise.reject(new Error("Cannot find package '@toolhost/pid-namespace'")),
        sandboxNet: () => Promise.resolve(undefined),
        fsAt: () => Promise.resolve({}),
      });

      expect(helpers).toEqual({
        pidNamespace: 'not_installed',
        sandboxNet: 'not_built',
        fsAt: 'built',
      });
    },
  );

  it.runIf(process.platform === 'linux')('finds every helper built in this checkout', async () => {
    // CI installs a C compiler and builds them at `npm ci`; a missing one must show up here.
    expect(await describeNativeHelpers()).toEqual({
      pidNamespace: 'built',
      sandboxNet: 'built',
      fsAt: 'built',
    });
  });
});
