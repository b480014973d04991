import { describe, expect, it } from 'vitest';
import {
  mayHoldSecretShape,
  REDACTED,
  redactSecretShapedText,
} from './redact-secret-shaped-text.js';

// The shapes added after gitleaks' default rules (`docs/secret-shapes.md`): each is redacted,
// and a near miss (one unit short, a unit outside its alphabet, a run that goes on) is kept.
// The values are assembled from cycles so this file holds no token-shaped literal.

const cycle = (alphabet: string, length: number): string =>
  Array.from({ length }, (_unused, index) => alphabet[index % alphabet.length]).join('');
const alnum = (length: number): string => cycle('a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ', length);
const hex = (length: number): string => cycle('0a1b2c3d4e5f6789', length);
const upper = (length: number): string => cycle('A1B2C3D4E5F6G7H8J9K0', length);
const digits = (length: number): string => cycle('8675309', length);
const letters = (length: number): string => cycle('aBcDeFgHiJkLmNoPqRsTuVwXyZ', length);
const base64 = (length: number): string => cycle('aB3+dE5/gH7iJ9kL', length);

const AWS_SECRET = `wJalrXUtnFEMI/K7MDENG/${alnum(18)}`; // 40 units

// [gitleaks rule id, token, near miss]
const SHAPES: readonly (readonly [string, string, string])[] = [
  ['aws-access-token (A3T)', `A3TX${upper(16)}`, `A3TX${upper(15)}`],
  [
    'age-secret-key',
    `AGE-SECRET-KEY-1${cycle('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`,
    `AGE-SECRET-KEY-1${'B'.repeat(58)}`,
  ],
  ['artifactory-api-key', `AKCp${alnum(69)}`, `AKCp${alnum(68)}`],
  [
    '1password-secret-key',
    `A3-${upper(6)}-${upper(11)}-${upper(5)}-${upper(5)}-${upper(5)}`,
    `A3-${upper(6)}-${upper(10)}-${upper(5)}-${upper(5)}-${upper(5)}`,
  ],
  ['atlassian-api-token', `ATATT3${alnum(186)}`, `ATATT3${alnum(185)}`],
  ['octopus-deploy-api-key', `API-${upper(26)}`, `API-${upper(27)}`],
  ['clojars-api-token', `CLOJARS_${alnum(60)}`, `CLOJARS_${alnum(59)}`],
  ['easypost-api-token', `EZAK${alnum(54)}`, `EZAK${alnum(53)}`],
  ['easypost-test-api-token', `EZTK${alnum(54)}`, `EZXK${alnum(54)}`],
  ['facebook-page-access-token', `EAAM${alnum(100)}`, `EAAM${alnum(99)}`],
  ['square-access-token (EAAA)', `EAAA${alnum(22)}`, `EAAA${alnum(21)}`],
  [
    'flutterwave-secret-key',
    `FLWSECK_TEST-${cycle('abcdefgh0123', 32)}-X`,
    `FLWSECK_TEST-${cycle('abcdefgh0123', 11)}`,
  ],
  ['gitlab-rrt', `GR1348941${alnum(20)}`, `GR1348941${alnum(19)}`],
  ['heroku-api-key-v2', `HRKU-AA${alnum(58)}`, `HRKU-AA${alnum(57)}`],
  ['new-relic-user-api-key', `NRAK-${alnum(27)}`, `NRAK-${alnum(26)}`],
  ['new-relic-insert-key', `NRII-${alnum(32)}`, `NRII-${alnum(31)}`],
  ['postman-api-token', `PMAK-${hex(24)}-${hex(34)}`, `PMAK-${hex(23)}-${hex(34)}`],
  ['twilio-api-key', `SK${hex(32)}`, `SK${hex(33)}`],
  ['sendgrid-api-token', `SG.${alnum(66)}`, `SG.${alnum(65)}`],
  ['azure-ad-client-secret', `abc8Q~${alnum(31)}`, `abc8Q~${alnum(30)}`],
  ['gitlab-feature-flag-client-token', `glffct-${alnum(20)}`, `glffct-${alnum(19)}`],
  ['grafana-cloud-api-token', `glc_${alnum(11)}${base64(21)}`, `glc_${alnum(11)}${base64(20)}`],
  ['grafana-service-account-token', `glsa_${alnum(32)}_${hex(8)}`, `glsa_${alnum(31)}_${hex(8)}`],
  ['sendinblue-api-token', `xkeysib-${hex(64)}-${alnum(16)}`, `xkeysib-${hex(63)}-${alnum(16)}`],
  ['adobe-client-secret', `p8e-${alnum(32)}`, `p8e-${alnum(31)}`],
  ['perplexity-api-key', `pplx-${alnum(48)}`, `pplx-${alnum(47)}`],
  ['planetscale-api-token', `pscale_tkn_${alnum(32)}`, `pscale_tkn_${alnum(31)}`],
  ['planetscale-password', `pscale_pw_${alnum(32)}`, `pscale_xx_${alnum(32)}`],
  ['prefect-api-token', `pnu_${alnum(36)}`, `pnu_${alnum(35)}`],
  ['pulumi-api-token', `pul-${hex(40)}`, `pul-${hex(41)}`],
  [
    'harness-api-key',
    `pat.${alnum(22)}.${alnum(24)}.${alnum(20)}`,
    `pat.${alnum(21)}.${alnum(24)}.${alnum(20)}`,
  ],
  ['stripe-access-token (prod)', `sk_prod_${alnum(10)}`, `sk_prod_${alnum(9)}`],
  ['openshift-user-token', `sha256~${alnum(43)}`, `sha256~${alnum(42)}`],
  ['intra42-client-secret', `s-s4t2ud-${hex(64)}`, `s-s4t2ud-${hex(63)}`],
  ['sentry-user-token', `sntryu_${hex(64)}`, `sntryu_${hex(63)}`],
  ['sentry-org-token', `sntrys_eyJpYXQiO${base64(60)}`, `sntrys_eyJpYXQiO${base64(59)}`],
  ['settlemint-personal-access-token', `sm_pat_${alnum(16)}`, `sm_pat_${alnum(15)}`],
  ['shippo-api-token', `shippo_live_${hex(40)}`, `shippo_live_${hex(39)}`],
  ['shopify-access-token', `shpat_${hex(32)}`, `shpat_${hex(31)}`],
  ['square-access-token (sq0atp-)', `sq0atp-${alnum(22)}`, `sq0atp-${alnum(21)}`],
  ['sourcegraph-access-token (sgp_)', `sgp_${hex(16)}_${hex(40)}`, `sgp_${hex(39)}`],
  [
    'harness-api-key (sat.)',
    `sat.${alnum(22)}.${alnum(24)}.${alnum(20)}`,
    `sat.${alnum(22)}.${alnum(23)}.${alnum(20)}`,
  ],
  ['readme-api-token', `rdme_${cycle('a0b1c2d3', 70)}`, `rdme_${cycle('a0b1c2d3', 69)}`],
  ['rubygems-api-token', `rubygems_${hex(48)}`, `rubygems_${hex(47)}`],
  ['vault-service-token', `hvs.${alnum(90)}`, `hvs.${alnum(89)}`],
  ['vault-batch-token', `hvb.${alnum(138)}`, `hvx.${alnum(138)}`],
  ['notion-api-token', `ntn_${digits(11)}${alnum(35)}`, `ntn_${digits(11)}${alnum(34)}`],
  ['grafana-api-key', `eyJrIjoi${alnum(70)}`, `eyJrIjoi${alnum(69)}`],
  [
    'hashicorp-tf-api-token',
    `${alnum(14)}.atlasv1.${alnum(60)}`,
    `${alnum(14)}.atlasv1.${alnum(59)}`,
  ],
  ['huggingface-organization-api-token', `api_org_${letters(34)}`, `api_org_${letters(33)}`],
  ['databricks-api-token', `dapi${hex(32)}`, `dapi${hex(33)}`],
  ['digitalocean-pat', `dop_v1_${hex(64)}`, `dop_v1_${hex(63)}`],
  ['digitalocean-access-token', `doo_v1_${hex(64)}`, `dox_v1_${hex(64)}`],
  ['doppler-api-token', `dp.pt.${alnum(43)}`, `dp.pt.${alnum(42)}`],
  ['duffel-api-token', `duffel_test_${alnum(43)}`, `duffel_test_${alnum(42)}`],
  ['dynatrace-api-token', `dt0c01.${alnum(24)}.${alnum(64)}`, `dt0c01.${alnum(23)}.${alnum(64)}`],
  ['flyio-access-token (fo1_)', `fo1_${alnum(43)}`, `fo1_${alnum(42)}`],
  ['flyio-access-token (fm2_)', `fm2_${alnum(11)}${base64(89)}`, `fm2_${alnum(10)}+${base64(89)}`],
  ['frameio-api-token', `fio-u-${alnum(64)}`, `fio-u-${alnum(63)}`],
  ['infracost-api-token', `ico-${alnum(32)}`, `ico-${alnum(33)}`],
  ['linear-api-key', `lin_api_${alnum(40)}`, `lin_api_${alnum(39)}`],
  ['1password-service-account-token', `ops_eyJ${base64(250)}`, `ops_eyJ${base64(249)}`],
  ['scalingo-api-token', `tk-us-${alnum(48)}`, `tk-us-${alnum(47)}`],
  ['typeform-api-token', `tfp_${alnum(59)}`, `tfp_${alnum(58)}`],
];

describe('vendor token shapes after gitleaks', () => {
  it.each(SHAPES)('%s: redacted in any surrounding text', (_rule, token) => {
    for (const text of [token, `key ${token} here`, `"${token}",`, `x=(${token})\n`]) {
      const redacted = redactSecretShapedText(text);
      expect(redacted).toContain(REDACTED);
      // At most four units of the token stay (the Azure secret's, before its `Q~`).
      expect(redacted).not.toContain(token.slice(4));
      expect(mayHoldSecretShape(text)).toBe(true);
    }
  });

  it.each(SHAPES)('%s: a near miss is kept', (_rule, _token, nearMiss) => {
    for (const text of [nearMiss, `key ${nearMiss} here`]) {
      expect(redactSecretShapedText(text)).toBe(text);
    }
  });

  it('keeps a prefix inside a longer word', () => {
    for (const text of [
      `xdapi${hex(32)}`,
      `import_dop_v1_${hex(64)}`,
      `TASK${hex(32)}`,
      `berlin_api_${alnum(40)}`,
    ]) {
      expect(redactSecretShapedText(text)).toBe(text);
    }
  });
});

describe('an AWS secret access key beside its key id, without a keyword', () => {
  const id = `AKIA${upper(16)}`;
  const session = `ASIA${upper(16)}`;

  it.each([
    ['a CSV row', `alice,,${id},${AWS_SECRET},https://console`],
    ['two lines', `${id}\n${AWS_SECRET}\n`],
    ['a tuple', `client('s3', '${id}', '${AWS_SECRET}')`],
    ['a temporary key id', `${session} ${AWS_SECRET}`],
    ['a colon pair', `${id}:${AWS_SECRET}`],
  ])('redacts the secret in %s', (_case, text) => {
    const redacted = redactSecretShapedText(text);
    expect(redacted).not.toContain(AWS_SECRET);
    expect(redacted).not.toContain(id.slice(4));
    expect(redacted).not.toContain(session.slice(4));
  });

  it.each([
    ['the secret alone', `value ${AWS_SECRET} here`],
    ['a 41-unit run after the id', `${id} ${AWS_SECRET}Z`],
    ['a 39-unit run after the id', `${id} ${AWS_SECRET.slice(1)}`],
    ['a word between id and run', `${id} is ${AWS_SECRET}`],
    ['separators past 16 units', `${id}${' '.repeat(17)}${AWS_SECRET}`],
  ])('keeps the run in %s', (_case, text) => {
    // Every case holds the secret's last 39 units.
    expect(redactSecretShapedText(text)).toContain(AWS_SECRET.slice(1));
  });
});

describe('values behind a fixed name', () => {
  it.each([
    ['a GitLab session cookie', `_gitlab_session=${cycle('a0b1c2', 32)}`, cycle('a0b1c2', 32)],
    ['a NuGet.Config password', '<add key="ClearTextPassword" value="s3cr3t-pw" />', 's3cr3t-pw'],
    ['a NuGet.Config password', '<add key="Password" value="AQAAANCMnd8B" />', 'AQAAANCMnd8B'],
    [
      'a Microsoft Teams webhook',
      `https://acme.webhook.office.com/webhookb2/${hex(8)}@${hex(8)}/IncomingWebhook/${hex(32)}`,
      `IncomingWebhook/${hex(32)}`,
    ],
  ])('redacts %s and keeps the name', (_case, text, secret) => {
    const redacted = redactSecretShapedText(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain(REDACTED);
    expect(redacted.slice(0, 12)).toBe(text.slice(0, 12));
  });

  it.each([
    ['a short session cookie', `_gitlab_session=${cycle('a0b1c2', 31)}`],
    ['a NuGet user name', '<add key="Username" value="deploy-bot" />'],
    ['a NuGet password reference', '<add key="ClearTextPassword" value="%NUGET_PW%" />'],
    ['a Teams host without a path', 'see https://acme.webhook.office.com/ for the setup'],
  ])('keeps %s', (_case, text) => {
    expect(redactSecretShapedText(text)).toBe(text);
  });
});
