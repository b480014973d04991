import type { GitConfigEntry } from './filter-git-config-syntax.js';

/**
 * The entry a sandboxed git may see, or undefined to drop it. An allowlist: a key that is not
 * named here is dropped, so a key git learns tomorrow is dropped too. What stays is what git needs
 * to read and work on the repository (format, work tree shape, remotes, branches, submodules)
 * and nothing that names a program, a credential, a helper, an include or a file to load.
 */
export function keepGitConfigEntry(entry: GitConfigEntry): GitConfigEntry | undefined {
  const { section, subsection, variable, value } = entry;
  const key = `${section}.${variable}`;
  if (subsection === undefined) {
    // Every extension stays, known or not: git refuses a format-1 repository with an extension
    // it does not know (fail closed), while dropping one it knows (objectFormat, partialClone)
    // makes it misread the repository. Except worktreeConfig: it makes git also read
    // `config.worktree`, a file this filter never saw.
    if (section === 'extensions') return variable === 'worktreeconfig' ? undefined : entry;
    if (!PLAIN_KEYS.has(key)) return undefined;
  } else if (!SUBSECTION_KEYS.has(key)) {
    return undefined;
  }
  if (!URL_KEYS.has(subsection === undefined ? key : `${section}.*.${variable}`)) return entry;
  // A bare `url` is boolean true: not a URL git can use, and not a secret either.
  if (value === undefined) return entry;
  const url = stripUrlCredentials(value);
  return url === undefined ? undefined : { ...entry, value: url };
}

/**
 * A remote URL without its secret, or undefined when the URL itself names a program. Userinfo is
 * removed from every URL form (`https://x-access-token:T@host` carries the token as the user),
 * except that ssh keeps its user name (`ssh://git@host`, not a secret) without the password.
 * A `<helper>::<address>` URL, or a scheme git does not speak natively, makes git run
 * `git-remote-<helper>` (`ext::` runs any command line): dropped, never rewritten.
 * The scp-like `[user@]host:path` and local paths have no password field and pass unchanged.
 */
export function stripUrlCredentials(url: string): string | undefined {
  if (HELPER_URL.test(url)) return undefined;
  const scheme = URL_SCHEME.exec(url)?.[1];
  if (scheme === undefined) return url;
  if (!NATIVE_SCHEMES.has(scheme)) return undefined;
  const afterScheme = scheme.length + 3;
  const slash = url.indexOf('/', afterScheme);
  const authority = url.slice(afterScheme, slash === -1 ? url.length : slash);
  // The last `@` before the path, not the first: a raw `@` in a password must not leave its
  // tail behind as a "host". A `?` or `#` does not end the search, for the same reason.
  const at = authority.lastIndexOf('@');
  if (at === -1) return url;
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = SSH_SCHEMES.has(scheme) ? userinfo.slice(0, colon === -1 ? undefined : colon) : '';
  const host = url.slice(afterScheme + at + 1);
  return `${scheme}://${user === '' ? '' : `${user}@`}${host}`;
}

// The shapes git itself tests (transport.c, url.c): a scheme-like prefix then `::` selects a
// remote helper, even an empty one; `scheme://` is a URL. Case-sensitive, as in git.
const HELPER_URL = /^(?:[A-Za-z][A-Za-z0-9+.-]*)?::/;
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

// Transports git runs itself (http/ftp through its own git-remote-http); any other scheme is
// handed to a `git-remote-<scheme>` found on PATH.
const NATIVE_SCHEMES: ReadonlySet<string> = new Set([
  'file',
  'git',
  'ssh',
  'git+ssh',
  'ssh+git',
  'http',
  'https',
  'ftp',
  'ftps',
]);
const SSH_SCHEMES: ReadonlySet<string> = new Set(['ssh', 'git+ssh', 'ssh+git']);

// Values git reads as a URL (a branch's remote may be a URL instead of a remote's name).
const URL_KEYS: ReadonlySet<string> = new Set([
  'remote.pushdefault',
  'remote.*.url',
  'remote.*.pushurl',
  'branch.*.remote',
  'branch.*.pushremote',
  'submodule.*.url',
]);

// Keys outside any subsection, as `section.variable` in git's lowercase.
const PLAIN_KEYS: ReadonlySet<string> = new Set([
  // Repository format and how the work tree maps to the index.
  'core.repositoryformatversion',
  'core.bare',
  // A path, not a program: it moves the work tree only within what the sandbox's view shows,
  // and every submodule's git dir (`.git/modules/<name>`) needs it to find its work tree.
  'core.worktree',
  'core.filemode',
  'core.symlinks',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.logallrefupdates',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.abbrev',
  'core.compression',
  'core.loosecompression',
  'core.bigfilethreshold',
  'core.sharedrepository',
  'core.commentchar',
  'core.commentstring',
  'core.whitespace',
  'core.splitindex',
  'core.untrackedcache',
  'core.checkstat',
  'core.trustctime',
  'core.preloadindex',
  'core.multipackindex',
  'core.commitgraph',
  // Without these a sparse checkout reads as one with every other file deleted.
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'index.sparse',
  'index.version',
  'index.threads',
  'feature.manyfiles',
  // Identity and everyday defaults.
  'user.name',
  'user.email',
  'init.defaultbranch',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'fetch.prune',
  'merge.ff',
  'status.showuntrackedfiles',
  'diff.renames',
  'diff.algorithm',
  'gc.auto',
  'remote.pushdefault',
]);

// Keys inside a named subsection (`[remote "origin"]`), as `section.variable`. Absent on
// purpose: `url.<base>.insteadOf` (rewrites a URL after it was vetted, into a helper form such as
// `ext::` or back to one carrying a token), `submodule.<name>.update` (`!command`),
// `branch.<name>.mergeOptions` (`-s <strategy>` runs `git-merge-<strategy>`), and
// `remote.<name>.{vcs,receivepack,uploadpack,proxy}` (a helper, programs, a proxy).
const SUBSECTION_KEYS: ReadonlySet<string> = new Set([
  'remote.url',
  'remote.pushurl',
  'remote.fetch',
  'remote.push',
  'remote.tagopt',
  'remote.prune',
  'remote.prunetags',
  'remote.mirror',
  'remote.skipdefaultupdate',
  'remote.skipfetchall',
  // A partial clone's promisor remote: without them git cannot fetch the objects it omitted.
  'remote.promisor',
  'remote.partialclonefilter',
  'branch.remote',
  'branch.pushremote',
  'branch.merge',
  'branch.rebase',
  'branch.description',
  'submodule.url',
  'submodule.path',
  'submodule.active',
  'submodule.branch',
  'submodule.fetchrecursesubmodules',
  'submodule.ignore',
]);
