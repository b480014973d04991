import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { readFileTool } from '@toolhost/core/tools';
import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';
import { CREDENTIAL_STORES, type CredentialStore } from './credential-stores.js';
import { foldPath } from './fold-segment.js';

// Every entry of the credential-store table, planted as a real file: refused by `read_file` on
// the full tier (by its name anywhere, and at its place in the home), and unreadable inside the
// real bubblewrap sandbox, which shows the home read-only and masks its stores. The cases are
// derived from the table, one entry's files only that entry covers, so dropping any entry fails
// a case. Planted 0600 and owned by the test's user: as root a uid mapping would not hide them,
// only the mask does.

interface Plant {
  /** Relative to the directory it is planted under. */
  readonly file: string;
  readonly secret: string;
}

// The audit, as files: each CLI's credential files where it writes them in a home
// (`credential-stores.ts` has the same table as a comment). Written out rather than derived
// from the list, so an entry dropped from the list leaves its files readable and fails here.
const IN_HOME: readonly (readonly [cli: string, files: readonly string[]])[] = [
  ['aws', ['.aws/credentials', '.aws/config', '.aws/sso/cache/token.json']],
  [
    'gcloud',
    ['.config/gcloud/credentials.db', '.config/gcloud/application_default_credentials.json'],
  ],
  [
    'az',
    [
      '.azure/msal_token_cache.json',
      '.azure/service_principal_entries.json',
      '.azure/accessTokens.json',
    ],
  ],
  ['kubectl', ['.kube/config']],
  ['docker', ['.docker/config.json', '.dockercfg']],
  ['podman', ['.config/containers/auth.json']],
  ['helm', ['.config/helm/repositories.yaml', '.config/helm/registry/config.json']],
  ['gh', ['.config/gh/hosts.yml']],
  ['glab', ['.config/glab-cli/config.yml']],
  ['hub', ['.config/hub']],
  ['git', ['.git-credentials', '.config/git/credentials', '.gitconfig', '.config/git/config']],
  ['npm, pnpm', ['.npmrc', '.config/pnpm/rc']],
  ['yarn', ['.yarnrc', '.yarnrc.yml']],
  ['pip, twine', ['.pypirc', '.config/pip/pip.conf', '.pip/pip.conf']],
  ['cargo', ['.cargo/credentials.toml', '.cargo/credentials']],
  ['gem', ['.gem/credentials', '.local/share/gem/credentials']],
  ['composer', ['.config/composer/auth.json', '.composer/auth.json']],
  ['nuget', ['.nuget/NuGet/NuGet.Config', '.config/NuGet/NuGet.Config']],
  ['maven', ['.m2/settings.xml', '.m2/settings-security.xml']],
  ['vault', ['.vault-token']],
  ['terraform', ['.terraform.d/credentials.tfrc.json', '.terraformrc']],
  ['pulumi', ['.pulumi/credentials.json']],
  ['heroku', ['.netrc']],
  ['netlify', ['.config/netlify/config.json', '.netlify/config.json']],
  ['vercel', ['.local/share/com.vercel.cli/auth.json', '.vercel/auth.json', '.now/auth.json']],
  ['fly', ['.fly/config.yml']],
  ['doctl', ['.config/doctl/config.yaml']],
  ['rclone', ['.config/rclone/rclone.conf', '.rclone.conf']],
  ['oci', ['.oci/config', '.oci/oci_api_key.pem']],
  [
    'ssh',
    [
      '.ssh/id_ed25519',
      '.ssh/config',
      'id_rsa',
      'id_dsa',
      'id_ecdsa',
      'id_ed25519',
      'id_ecdsa_sk',
      'id_ed25519_sk',
    ],
  ],
  ['gpg', ['.gnupg/private-keys-v1.d/key.key']],
  ['pass, keyrings', ['.password-store/site.gpg', '.local/share/keyrings/login.keyring']],
  ['databases', ['.pgpass', '.my.cnf', '.mylogin.cnf']],
  ['s3cmd, boto', ['.s3cfg', '.boto']],
  ['env files', ['.env', '.envrc']],
  [
    'histories',
    [
      '.bash_history',
      '.zsh_history',
      '.sh_history',
      '.local/share/fish/fish_history',
      '.psql_history',
      '.mysql_history',
      '.sqlite_history',
      '.python_history',
      '.node_repl_history',
      '.rediscli_history',
    ],
  ],
];

// Every entry's name, planted outside any home: a tree with a file inside, a file as itself.
// Written out for the same reason; the last test checks it against the list.
const BY_NAME: readonly string[] = [
  '.ssh/planted',
  '.aws/planted',
  '.gnupg/planted',
  '.env/planted',
  '.password-store/planted',
  '.config/gh/planted',
  '.config/gcloud/planted',
  '.local/share/keyrings/planted',
  '.config/glab-cli/planted',
  '.config/doctl/planted',
  '.config/rclone/planted',
  '.local/share/com.vercel.cli/planted',
  '.docker/config.json',
  '.kube/config',
  '.azure/msal_token_cache.json',
  '.azure/accesstokens.json',
  'gh/hosts.yml',
  '.oci/config',
  'glab-cli/config.yml',
  'doctl/config.yaml',
  'rclone/rclone.conf',
  'com.vercel.cli/auth.json',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gitconfig',
  '.git-credentials',
  'git/credentials',
  '.config/git/config',
  '.netrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.mylogin.cnf',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.envrc',
  '.dockercfg',
  'containers/auth.json',
  'helm/repositories.yaml',
  'helm/registry/config.json',
  '.config/hub',
  'pnpm/rc',
  'pip/pip.conf',
  '.pip/pip.conf',
  '.gem/credentials',
  'gem/credentials',
  'composer/auth.json',
  '.composer/auth.json',
  'nuget/nuget.config',
  '.m2/settings.xml',
  '.m2/settings-security.xml',
  '.terraform.d/credentials.tfrc.json',
  '.terraformrc',
  '.pulumi/credentials.json',
  'netlify/config.json',
  '.netlify/config.json',
  '.vercel/auth.json',
  '.now/auth.json',
  '.fly/config.yml',
  '.rclone.conf',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  'fish_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.python_history',
  '.node_repl_history',
  '.rediscli_history',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
];

// Where the full tier's sandbox shows the host read-only: not under a directory it replaces with
// its own (/tmp, /var/tmp, /run). The checkout's ignored cache, unless the checkout itself lies
// under one of those (a CI clone in /tmp): then the user's own cache directory.
const HIDDEN_IN_SANDBOX = ['/tmp', '/var/tmp', '/run', '/dev', '/proc', '/sys'];
const CHECKOUT_HOMES = fileURLToPath(
  new URL('../../../../node_modules/.cache/toolhost-test-homes/', import.meta.url),
);
const TEST_HOMES = HIDDEN_IN_SANDBOX.some((hidden) => CHECKOUT_HOMES.startsWith(`${hidden}/`))
  ? path.join(homedir(), '.cache', 'toolhost-test-homes')
  : CHECKOUT_HOMES;

const HOME_PLANTS: readonly (Plant & { readonly cli: string })[] = IN_HOME.flatMap(([cli, files]) =>
  files.map((file, index) => ({ cli, file, secret: `home-secret-${cli}-${index}-${process.pid}` })),
);
const NAME_PLANTS: readonly Plant[] = BY_NAME.map((file, index) => ({
  file,
  secret: `name-secret-${index}-${process.pid}`,
}));

// What the list says an entry covers: its name (a tree with a file in it), its home place.
const namePlant = (store: CredentialStore): string =>
  store.match === 'tree' ? `${store.name}/planted` : store.name;
const isWithinHome = (file: string, home: string): boolean => {
  const [inner, outer] = [foldPath(file), foldPath(home)];
  return outer.every((segment, index) => inner[index] === segment);
};

describe.skipIf(process.platform !== 'linux')('every credential store, planted', () => {
  let base = '';
  let home = '';
  let elsewhere = '';
  let handle: NodeToolHostHandle;
  const savedHome = process.env['HOME'];
  const context: ToolDispatchContext = {
    nodeId: 'node',
    grantedToolIds: new Set(['read_file']),
    config: {},
    toolPolicy: {},
    fsScope: 'full',
    gateApproved: false,
  };

  const plant = async (under: string, { file, secret }: Plant): Promise<void> => {
    const full = path.join(under, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, `${secret}\n`, { mode: 0o600 });
    await chmod(full, 0o600);
  };

  beforeAll(async () => {
    // Not under /tmp or /var/tmp, which the sandbox replaces with private ones: in the
    // repository's (ignored) node_modules cache, the home is shown as part of the read-only
    // host, as a real home is, with only the home stores masked. Declared as a read-only path
    // instead, it would also be masked by name, hiding a store that lost its place in the home.
    await mkdir(TEST_HOMES, { recursive: true });
    base = await realpath(await mkdtemp(path.join(TEST_HOMES, 'stores-')));
    home = path.join(base, 'home');
    elsewhere = path.join(base, 'elsewhere');
    await mkdir(path.join(base, 'ws'), { recursive: true });
    await mkdir(home);
    await writeFile(path.join(home, 'notes.txt'), 'ordinary notes');
    for (const planted of HOME_PLANTS) await plant(home, planted);
    for (const planted of NAME_PLANTS) await plant(elsewhere, planted);
    // The floor places the home at `os.homedir()`, which is `$HOME`.
    process.env['HOME'] = home;
    handle = await createNodeToolHost({
      root: path.join(base, 'ws'),
      fsScope: 'full',
      stateDir: path.join(base, 'state'),
      process: {
        sandbox: 'required',
        hostEnv: { ...process.env, HOME: home },
        timeoutMs: 20_000,
      },
    });
  });

  afterAll(async () => {
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
    await handle?.close();
    await rm(base, { recursive: true, force: true });
  });

  const read = (target: string) =>
    createToolRegistry({ tools: [readFileTool], host: handle.host }).dispatch(
      { id: 'read', name: 'read_file', args: { path: target } },
      context,
    );

  it('reads an ordinary file in the home (the control)', async () => {
    const outcome = await read(path.join(home, 'notes.txt'));
    expect(JSON.stringify(outcome.output)).toContain('ordinary notes');
  });

  it.each(HOME_PLANTS)('read_file refuses $cli: ~/$file', async ({ file }) => {
    await expect(read(path.join(home, file))).rejects.toMatchObject({ reason: 'protected_path' });
  });

  it.each(NAME_PLANTS)('read_file refuses $file outside a home', async ({ file }) => {
    await expect(read(path.join(elsewhere, file))).rejects.toMatchObject({
      reason: 'protected_path',
    });
  });

  it('masks every one in the sandbox, which shows the rest of the home', async () => {
    const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
    const script = [
      `cat ${quote(path.join(home, 'notes.txt'))}; echo`,
      ...HOME_PLANTS.map((planted) => `cat ${quote(path.join(home, planted.file))} 2>/dev/null`),
    ].join('\n');
    const result = await handle.host.process!.spawn('/bin/sh', ['-c', script], {}, {});

    expect(result.stdout).toContain('ordinary notes');
    const leaked = HOME_PLANTS.filter((planted) => result.stdout.includes(planted.secret));
    expect(leaked.map((planted) => `${planted.cli}: ~/${planted.file}`)).toEqual([]);
  });

  // The tables above stand for the whole list: every entry's name is planted outside a home,
  // and every entry with a place in the home has a file planted there.
  it('plants every entry of the list', () => {
    const unplanted = CREDENTIAL_STORES.filter(
      (store) =>
        !BY_NAME.includes(namePlant(store)) ||
        (store.home !== undefined &&
          !HOME_PLANTS.some((planted) => isWithinHome(planted.file, store.home ?? ''))),
    );
    expect(unplanted).toEqual([]);
  });
});
