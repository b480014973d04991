import { ConfigNotApprovedError } from '../config/config-not-approved-error.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import type { CliIo } from './cli-io.js';
import { settingsFromOptions, type PolicyOptionValues } from './policy-options.js';

/** The workspace config doctor found but did not apply: which file, why, and the fix. */
export interface UnappliedConfig {
  readonly file: string;
  readonly status: 'not approved' | 'changed since it was approved';
  readonly approveWith: string;
}

/** What doctor reports on: the settings it judged, and a config it left out (if any). */
export interface DoctorSettings {
  readonly settings: EffectiveSettings;
  readonly unapplied?: UnappliedConfig;
}

/**
 * Doctor is where a person goes to find out what is wrong, so an unapproved workspace config is
 * reported rather than fatal: the rest of the report is judged on defaults and flags, never on
 * the unapproved file's policy (its MCP servers would start, its allowlists would be shown as
 * in force). Every other command keeps refusing it; a broken config still fails as broken.
 */
export function doctorSettings(options: PolicyOptionValues, io: CliIo): DoctorSettings {
  try {
    return { settings: settingsFromOptions(options, io) };
  } catch (error) {
    if (!(error instanceof ConfigNotApprovedError)) throw error;
    const settings = settingsFromOptions(options, io, 'defaultsOnly');
    return {
      settings,
      unapplied: {
        file: settings.configFile,
        status: error.status === 'changed' ? 'changed since it was approved' : 'not approved',
        approveWith: 'toolhost config approve (same --root and --state-dir), after reviewing it',
      },
    };
  }
}
