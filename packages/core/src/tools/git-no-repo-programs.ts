/**
 * Git's global options that keep every program a repository names from running: its hooks, its
 * fsmonitor, its signature programs, its pager and editor, and every transport. A repository's
 * config, hooks and attributes are the workspace's, never the author's, and `git_status` runs
 * without asking. Command-line `-c` is the strongest scope: it wins over system, global, local,
 * worktree and included files, and git passes it on to every git it runs itself (gc, submodules).
 *
 * Drivers (`filter.<name>.clean`, `diff.<name>.textconv`, `merge.<name>.driver`) are per name,
 * and the names come from the repository: the host neutralises those (it must read the config),
 * see `neutraliseGitDrivers` in @toolhost/node.
 */
export const GIT_NO_REPO_PROGRAMS: readonly string[] = [
  // No pager at all, whatever `core.pager` or `pager.<command>` say.
  '--no-pager',
  // Every hook (`post-index-change` on a status that refreshes the index, `pre-commit`,
  // `commit-msg`, `reference-transaction` …) is looked up in a directory that holds none.
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  // Signatures: nothing is signed or verified, and a program an author's flag (`--show-signature`,
  // a `%G?` format) would still reach is a path that cannot be executed.
  '-c',
  'log.showSignature=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'gpg.program=/dev/null',
  '-c',
  'gpg.openpgp.program=/dev/null',
  '-c',
  'gpg.ssh.program=/dev/null',
  '-c',
  'gpg.x509.program=/dev/null',
  // `:` is git's own "no editor" (it runs nothing); `commit -m` never asks, this keeps it so.
  '-c',
  'core.editor=:',
  '-c',
  'sequence.editor=:',
  // `commit` runs `gc --auto`, which may run `maintenance` and its hooks.
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
  // No transport: a partial clone's lazy fetch would run `core.sshCommand`, a remote helper or a
  // `remote.<name>.uploadpack`. (A per-protocol `protocol.<name>.allow` is the host's to undo.)
  '-c',
  'protocol.allow=never',
  // A submodule is another repository with its own config and drivers, which the host never
  // read: status, diff and commit must not run git inside it.
  '-c',
  'diff.ignoreSubmodules=all',
  '-c',
  'status.submoduleSummary=false',
  '-c',
  'diff.submodule=short',
];
