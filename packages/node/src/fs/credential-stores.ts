/**
 * One credential store of the read floor (spec §3). `name` is matched wherever it sits, after
 * `foldSegment`: a `tree` is that run of segments and everything under it, a `file` is a path
 * ending in those segments. `home`, when set, is where the store lives under a home directory:
 * there the whole tree is floored (the jail), and masked wherever the process sandbox shows the
 * home (`HOME_SECRETS`). One table, so the jail and the sandbox cannot disagree on a secret.
 */
export interface CredentialStore {
  readonly name: string;
  readonly match: 'tree' | 'file';
  readonly home?: string;
}

/*
 * The home entries checked against each CLI's own credential files (Linux paths; `~` is the home):
 *
 * | CLI | credential files | entry |
 * |---|---|---|
 * | aws | `~/.aws/credentials`, `~/.aws/config`, `~/.aws/sso/cache` | `.aws` |
 * | gcloud | `~/.config/gcloud/` (credentials.db, access_tokens.db, legacy_credentials) | `.config/gcloud` |
 * | az | `~/.azure/` (msal_token_cache.json/.bin, service_principal_entries.json, accessTokens.json) | `.azure` |
 * | kubectl | `~/.kube/config` | `.kube` |
 * | docker | `~/.docker/config.json` (and `~/.dockercfg`) | `.docker`, `.dockercfg` |
 * | podman (buildah, skopeo) | `~/.config/containers/auth.json` | `containers/auth.json` |
 * | helm | `~/.config/helm/repositories.yaml`, `~/.config/helm/registry/config.json` | both |
 * | gh | `~/.config/gh/hosts.yml` | `.config/gh` |
 * | glab | `~/.config/glab-cli/config.yml` | `.config/glab-cli` |
 * | hub | `~/.config/hub` | `.config/hub` |
 * | git | `~/.git-credentials`, `~/.config/git/credentials`, tokens in `~/.gitconfig` | all three |
 * | npm, pnpm | `~/.npmrc`; pnpm's global `~/.config/pnpm/rc` | both |
 * | yarn | `~/.yarnrc` (v1), `~/.yarnrc.yml` (berry `npmAuthToken`) | both |
 * | pip, twine | `~/.pypirc`; index URLs with credentials in `~/.config/pip/pip.conf`, `~/.pip/pip.conf` | all three |
 * | cargo | `~/.cargo/credentials.toml` (and `credentials`) | both |
 * | gem | `~/.gem/credentials`, `~/.local/share/gem/credentials` (XDG) | both |
 * | composer | `~/.config/composer/auth.json`, `~/.composer/auth.json` | both |
 * | nuget | `~/.nuget/NuGet/NuGet.Config` (`~/.config/NuGet/NuGet.Config` on older Mono) | `nuget/nuget.config` |
 * | maven | `~/.m2/settings.xml`, `~/.m2/settings-security.xml` | both |
 * | vault | `~/.vault-token` | `.vault-token` |
 * | terraform | `~/.terraform.d/credentials.tfrc.json`, `credentials` blocks in `~/.terraformrc` | both |
 * | pulumi | `~/.pulumi/credentials.json` | `.pulumi/credentials.json` |
 * | heroku | `~/.netrc` | `.netrc` |
 * | netlify | `~/.config/netlify/config.json` (older `~/.netlify/config.json`) | both |
 * | vercel | `~/.local/share/com.vercel.cli/auth.json` (older `~/.vercel/auth.json`, `~/.now/auth.json`) | all three |
 * | fly | `~/.fly/config.yml` (its `bin/` stays readable) | `.fly/config.yml` |
 * | doctl | `~/.config/doctl/config.yaml` | `.config/doctl` |
 * | rclone | `~/.config/rclone/rclone.conf` (older `~/.rclone.conf`) | both |
 * | oci | `~/.oci/config` and the API keys beside it | `.oci` |
 * | ssh | `~/.ssh/` | `.ssh` |
 * | gpg | `~/.gnupg/` | `.gnupg` |
 *
 * Outside a home: podman's `$XDG_RUNTIME_DIR/containers/auth.json` (`/run/user/<uid>/…`) is
 * floored by its name, and the sandbox shows no host `/run` (a private tmpfs on every tier).
 */

/** The read floor's credential stores, by name and by place in a home. */
export const CREDENTIAL_STORES: readonly CredentialStore[] = [
  // Whole directories that hold nothing but keys and tokens.
  { name: '.ssh', match: 'tree', home: '.ssh' },
  { name: '.aws', match: 'tree', home: '.aws' },
  { name: '.gnupg', match: 'tree', home: '.gnupg' },
  // `.env` as a directory (compose env dirs); `.env` and `.env.*` files are matched below.
  // In the home as well: the sandbox masks only the home entries there.
  { name: '.env', match: 'tree', home: '.env' },
  { name: '.password-store', match: 'tree', home: '.password-store' },
  { name: '.config/gh', match: 'tree', home: '.config/gh' },
  { name: '.config/gcloud', match: 'tree', home: '.config/gcloud' },
  { name: '.local/share/keyrings', match: 'tree', home: '.local/share/keyrings' },
  { name: '.config/glab-cli', match: 'tree', home: '.config/glab-cli' },
  { name: '.config/doctl', match: 'tree', home: '.config/doctl' },
  { name: '.config/rclone', match: 'tree', home: '.config/rclone' },
  { name: '.local/share/com.vercel.cli', match: 'tree', home: '.local/share/com.vercel.cli' },
  // Names a project may also use for ordinary files (`.docker/` of compose files, azd's
  // `.azure/`): anywhere only the secret file, in the home the whole store (TLS keys, caches).
  { name: '.docker/config.json', match: 'file', home: '.docker' },
  { name: '.kube/config', match: 'file', home: '.kube' },
  { name: '.azure/msal_token_cache.json', match: 'file', home: '.azure' },
  { name: '.azure/accesstokens.json', match: 'file' },
  { name: 'gh/hosts.yml', match: 'file' },
  { name: '.oci/config', match: 'file', home: '.oci' },
  { name: 'glab-cli/config.yml', match: 'file' },
  { name: 'doctl/config.yaml', match: 'file' },
  { name: 'rclone/rclone.conf', match: 'file' },
  { name: 'com.vercel.cli/auth.json', match: 'file' },
  { name: '.cargo/credentials', match: 'file', home: '.cargo/credentials' },
  { name: '.cargo/credentials.toml', match: 'file', home: '.cargo/credentials.toml' },
  // Git: credentials, and config that may carry a token in a remote URL or a helper.
  { name: '.gitconfig', match: 'file', home: '.gitconfig' },
  { name: '.git-credentials', match: 'file', home: '.git-credentials' },
  { name: 'git/credentials', match: 'file', home: '.config/git/credentials' },
  { name: '.config/git/config', match: 'file', home: '.config/git/config' },
  // Registry, database and service tokens.
  { name: '.netrc', match: 'file', home: '.netrc' },
  { name: '.npmrc', match: 'file', home: '.npmrc' },
  { name: '.yarnrc', match: 'file', home: '.yarnrc' },
  { name: '.yarnrc.yml', match: 'file', home: '.yarnrc.yml' },
  { name: '.pypirc', match: 'file', home: '.pypirc' },
  { name: '.pgpass', match: 'file', home: '.pgpass' },
  { name: '.my.cnf', match: 'file', home: '.my.cnf' },
  { name: '.mylogin.cnf', match: 'file', home: '.mylogin.cnf' },
  { name: '.vault-token', match: 'file', home: '.vault-token' },
  { name: '.s3cfg', match: 'file', home: '.s3cfg' },
  { name: '.boto', match: 'file', home: '.boto' },
  { name: '.envrc', match: 'file', home: '.envrc' },
  { name: '.dockercfg', match: 'file', home: '.dockercfg' },
  { name: 'containers/auth.json', match: 'file', home: '.config/containers/auth.json' },
  { name: 'helm/repositories.yaml', match: 'file', home: '.config/helm/repositories.yaml' },
  { name: 'helm/registry/config.json', match: 'file', home: '.config/helm/registry/config.json' },
  { name: '.config/hub', match: 'file', home: '.config/hub' },
  { name: 'pnpm/rc', match: 'file', home: '.config/pnpm/rc' },
  { name: 'pip/pip.conf', match: 'file', home: '.config/pip/pip.conf' },
  { name: '.pip/pip.conf', match: 'file', home: '.pip/pip.conf' },
  { name: '.gem/credentials', match: 'file', home: '.gem/credentials' },
  { name: 'gem/credentials', match: 'file', home: '.local/share/gem/credentials' },
  { name: 'composer/auth.json', match: 'file', home: '.config/composer/auth.json' },
  { name: '.composer/auth.json', match: 'file', home: '.composer/auth.json' },
  { name: 'nuget/nuget.config', match: 'file', home: '.nuget/NuGet/NuGet.Config' },
  { name: 'nuget/nuget.config', match: 'file', home: '.config/NuGet/NuGet.Config' },
  { name: '.m2/settings.xml', match: 'file', home: '.m2/settings.xml' },
  { name: '.m2/settings-security.xml', match: 'file', home: '.m2/settings-security.xml' },
  {
    name: '.terraform.d/credentials.tfrc.json',
    match: 'file',
    home: '.terraform.d/credentials.tfrc.json',
  },
  { name: '.terraformrc', match: 'file', home: '.terraformrc' },
  { name: '.pulumi/credentials.json', match: 'file', home: '.pulumi/credentials.json' },
  { name: 'netlify/config.json', match: 'file', home: '.config/netlify/config.json' },
  { name: '.netlify/config.json', match: 'file', home: '.netlify/config.json' },
  { name: '.vercel/auth.json', match: 'file', home: '.vercel/auth.json' },
  { name: '.now/auth.json', match: 'file', home: '.now/auth.json' },
  { name: '.fly/config.yml', match: 'file', home: '.fly/config.yml' },
  { name: '.rclone.conf', match: 'file', home: '.rclone.conf' },
  // Shell and REPL histories: whatever a user once typed, tokens on command lines included.
  { name: '.bash_history', match: 'file', home: '.bash_history' },
  { name: '.zsh_history', match: 'file', home: '.zsh_history' },
  { name: '.sh_history', match: 'file', home: '.sh_history' },
  { name: 'fish_history', match: 'file', home: '.local/share/fish/fish_history' },
  { name: '.psql_history', match: 'file', home: '.psql_history' },
  { name: '.mysql_history', match: 'file', home: '.mysql_history' },
  { name: '.sqlite_history', match: 'file', home: '.sqlite_history' },
  { name: '.python_history', match: 'file', home: '.python_history' },
  { name: '.node_repl_history', match: 'file', home: '.node_repl_history' },
  { name: '.rediscli_history', match: 'file', home: '.rediscli_history' },
  // SSH private keys wherever they are (in the home's top level too); the `.pub` halves stay
  // readable.
  ...['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk'].map(
    (name): CredentialStore => ({ name, match: 'file', home: name }),
  ),
];
