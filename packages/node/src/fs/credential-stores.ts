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

/** The read floor's credential stores, by name and by place in a home. */
export const CREDENTIAL_STORES: readonly CredentialStore[] = [
  // Whole directories that hold nothing but keys and tokens.
  { name: '.ssh', match: 'tree', home: '.ssh' },
  { name: '.aws', match: 'tree', home: '.aws' },
  { name: '.gnupg', match: 'tree', home: '.gnupg' },
  // `.env` as a directory (compose env dirs); `.env` and `.env.*` files are matched below.
  { name: '.env', match: 'tree' },
  { name: '.password-store', match: 'tree', home: '.password-store' },
  { name: '.config/gh', match: 'tree', home: '.config/gh' },
  { name: '.config/gcloud', match: 'tree', home: '.config/gcloud' },
  { name: '.local/share/keyrings', match: 'tree', home: '.local/share/keyrings' },
  // Names a project may also use for ordinary files (`.docker/` of compose files, azd's
  // `.azure/`): anywhere only the secret file, in the home the whole store (TLS keys, caches).
  { name: '.docker/config.json', match: 'file', home: '.docker' },
  { name: '.kube/config', match: 'file', home: '.kube' },
  { name: '.azure/msal_token_cache.json', match: 'file', home: '.azure' },
  { name: '.azure/accesstokens.json', match: 'file' },
  { name: 'gh/hosts.yml', match: 'file' },
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
  { name: '.envrc', match: 'file' },
  { name: '.dockercfg', match: 'file', home: '.dockercfg' },
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
  // SSH private keys wherever they are; the `.pub` halves stay readable.
  ...['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk'].map(
    (name): CredentialStore => ({ name, match: 'file' }),
  ),
];
