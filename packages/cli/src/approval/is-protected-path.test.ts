import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProtectedPath } from './is-protected-path.js';

const context = {
  root: '/w/app',
  configFile: '/w/app/toolhost.config.json',
  stateDir: '/home/u/.local/state/toolhost',
  files: ['/w/app/logs/audit.jsonl'],
};

describe('isProtectedPath', () => {
  it.each([
    ['a parent escape', '../app-evil/x'],
    ['an absolute path outside', '/etc/passwd'],
    ['the root itself', '.'],
    ['the config file', 'toolhost.config.json'],
    ['the config file by absolute path', '/w/app/toolhost.config.json'],
    ['a git hook', '.git/hooks/pre-commit'],
    ['a case-folded git dir', '.GIT/config'],
    ['a trailing-dot git dir', '.git./config'],
    ['a CI workflow', '.github/workflows/ci.yml'],
    ['a shell startup file', 'sub/.bashrc'],
    ['an env file', '.env.local'],
    ['a NUL byte', 'a\0b'],
    ['the audit log', 'logs/audit.jsonl'],
  ])('protects %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(true);
  });

  it.each([
    ['a source file', 'src/index.ts'],
    ['an absolute path inside', '/w/app/notes/todo.md'],
    ['a dotfile that is not special', '.prettierrc.json'],
    ['a name containing git', 'docs/github-guide.md'],
  ])('does not protect %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(false);
  });
});

// Files another tool executes (or an agent obeys) without the user reviewing them, one per family.
describe('isProtectedPath for configs other tools execute without review', () => {
  it.each([
    // Coding agents.
    ['Claude Code project MCP servers', '.mcp.json'],
    ['Claude Code hooks', '.claude/settings.json'],
    ['a nested Claude instruction file', 'packages/api/CLAUDE.md'],
    ['an agent instruction file', 'AGENTS.md'],
    ['Cursor MCP servers', '.cursor/mcp.json'],
    ['Cursor rules', '.cursorrules'],
    ['Gemini CLI settings', '.gemini/settings.json'],
    ['Codex project config', '.codex/config.toml'],
    ['aider config (lint and test commands)', '.aider.conf.yml'],
    ['Continue config', '.continue/config.yaml'],
    ['Windsurf rules', '.windsurfrules'],
    ['Windsurf workflows', '.windsurf/workflows/x.md'],
    ['Amazon Q MCP servers', '.amazonq/mcp.json'],
    ['Cline rules', '.clinerules'],
    ['Roo MCP servers', '.roo/mcp.json'],
    ['opencode config', 'opencode.json'],
    ['opencode plugins', '.opencode/plugin/x.ts'],
    ['Kiro hooks', '.kiro/hooks/on-save.json'],
    // Editors.
    ['VS Code MCP servers', '.vscode/mcp.json'],
    ['VS Code tasks that run on folder open', '.vscode/tasks.json'],
    ['a VS Code workspace file', 'app.code-workspace'],
    ['JetBrains run configurations', '.idea/workspace.xml'],
    ['Zed settings', '.zed/settings.json'],
    ['a local Neovim config', '.nvim.lua'],
    ['Emacs directory locals', '.dir-locals.el'],
    // Development environments.
    ['a dev container (initializeCommand runs on the host)', '.devcontainer/devcontainer.json'],
    ['a root dev container file', '.devcontainer.json'],
    ['a direnv file in a subdirectory', 'services/api/.envrc'],
    ['mise config', '.mise.toml'],
    ['mise config without the dot', 'mise.toml'],
    ['mise config directory', 'mise/config.toml'],
    ['asdf/mise tool versions', '.tool-versions'],
    ['devbox init hooks', 'devbox.json'],
    ['a Nix flake (use flake in .envrc)', 'flake.nix'],
    ['a Nix shell (use nix in .envrc)', 'shell.nix'],
    ['Gitpod tasks', '.gitpod.yml'],
    // Git hooks and CI.
    ['pre-commit hooks', '.pre-commit-config.yaml'],
    ['lefthook hooks', 'lefthook.yml'],
    ['lint-staged commands', '.lintstagedrc.json'],
    ['a shared hooks directory', '.githooks/pre-push'],
    ['CircleCI', '.circleci/config.yml'],
    ['a Jenkinsfile', 'Jenkinsfile'],
    ['a GitLab CI include', '.gitlab/ci/deploy.yml'],
    ['Azure Pipelines', 'azure-pipelines.yml'],
    ['Buildkite', '.buildkite/pipeline.yml'],
    ['Gitea Actions', '.gitea/workflows/ci.yml'],
    // Package managers and credentials.
    ['pnpm install hooks', '.pnpmfile.cjs'],
    ['Bun preload scripts', 'bunfig.toml'],
    ['a vendored Yarn release', '.yarn/releases/yarn-4.cjs'],
    ['Cargo config (build wrappers)', '.cargo/config.toml'],
    ['a kubeconfig (exec plugins)', '.kube/config'],
    ['git credentials', '.git-credentials'],
    // Case-folding and Windows spellings still apply.
    ['an upper-cased MCP file', '.MCP.JSON'],
    ['a trailing-dot agent dir', '.claude./settings.json'],
  ])('protects %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(true);
  });

  it.each([
    ['package.json (scripts run only when the user runs them)', 'package.json'],
    ['a Makefile', 'Makefile'],
    ['a Dockerfile', 'Dockerfile'],
    ['a build config', 'vite.config.ts'],
    ['an .nvmrc (a released Node version)', '.nvmrc'],
    ['a .python-version', '.python-version'],
    ['a README', 'README.md'],
    ['a doc that mentions agents', 'docs/agents-guide.md'],
    ['a source file named after a tool', 'src/cursor.ts'],
    ['a source directory named claude', 'src/claude/client.ts'],
    ['an MCP client source', 'src/mcp.json.ts'],
    ['a file with a lookalike prefix', '.prettierrc'],
    ['a name that only ends like an env file', 'config/app.env.example.md'],
  ])('does not protect %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(false);
  });
});

describe('isProtectedPath through symlinked directories (a real checkout)', () => {
  let base = '';
  let real: { root: string; configFile: string; stateDir: string };
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-protected-')));
    const root = path.join(base, 'app');
    await mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await mkdir(path.join(root, '.claude'));
    await mkdir(path.join(root, 'settings'));
    await mkdir(path.join(root, 'src'));
    await mkdir(path.join(base, 'state'));
    await writeFile(path.join(root, 'settings', 'agent.json'), '{}');
    // Innocent names a checkout may ship, each aliasing a protected place.
    await symlink('.github', path.join(root, 'ci'));
    await symlink('.git', path.join(root, 'vcs'));
    await symlink('.claude', path.join(root, 'agent'));
    await symlink('settings', path.join(root, 'conf'));
    await symlink(path.join(base, 'state'), path.join(root, 'cache'));
    await symlink('src', path.join(root, 'code'));
    // Dangling: the write walk follows them and creates the target with createDirs.
    await symlink('.github/new-workflows', path.join(root, 'pending'));
    await symlink('src/new', path.join(root, 'drafts'));
    await symlink('pending', path.join(root, 'chained'));
    real = {
      root,
      configFile: path.join(root, 'settings', 'agent.json'),
      stateDir: path.join(base, 'state'),
    };
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it.each([
    ['a workflow through ci -> .github', 'ci/workflows/deploy.yml'],
    ['a hook through vcs -> .git', 'vcs/hooks/pre-commit'],
    ['agent hooks through agent -> .claude', 'agent/settings.json'],
    ['a custom config file through conf -> settings', 'conf/agent.json'],
    ['the state dir through cache -> state', 'cache/spill/x.txt'],
    ['a new directory under an alias', 'ci/new/deeper/file.yml'],
    ['a workflow through a dangling alias of .github', 'pending/deploy.yml'],
    ['a workflow through a chain ending in a dangling alias', 'chained/deploy.yml'],
  ])('protects %s', (_case, target) => {
    expect(isProtectedPath(target, real)).toBe(true);
  });

  it.each([
    ['a source file through code -> src', 'code/index.ts'],
    ['a new file in a plain directory', 'src/new/file.ts'],
    ['a new file through a dangling alias of src', 'drafts/file.ts'],
  ])('does not protect %s', (_case, target) => {
    expect(isProtectedPath(target, real)).toBe(false);
  });
});
