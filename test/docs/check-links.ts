import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { findLinks, isExternal } from './find-links.js';
import { githubAnchors } from './github-anchors.js';
import { parseMarkdown, type ParsedMarkdown } from './parse-markdown.js';

/** Returns a problem for each relative link in `file` whose file or `#anchor` does not exist. */
export function checkLinks(repo: string, file: string, page: ParsedMarkdown): string[] {
  const problems: string[] = [];
  for (const { target, line } of findLinks(page)) {
    if (isExternal(target)) continue; // No network: external links are not fetched.
    const hash = target.indexOf('#');
    const pathPart = decode(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
    const anchor = hash === -1 ? undefined : decode(target.slice(hash + 1));
    // GitHub resolves a leading `/` from the repository root, anything else from the page's folder.
    const absolute =
      pathPart === ''
        ? join(repo, file)
        : pathPart.startsWith('/')
          ? join(repo, pathPart)
          : resolve(repo, dirname(file), pathPart);
    const where = `${file}:${line}`;
    if (relative(repo, absolute).startsWith('..')) {
      problems.push(`${where}: link ${target} leaves the repository`);
      continue;
    }
    if (!existsSync(absolute)) {
      problems.push(`${where}: link ${target} points to a missing file`);
      continue;
    }
    // Anchors are checked in markdown only: `file.ts#L10` is GitHub's line anchor, always valid.
    if (
      anchor === undefined ||
      anchor === '' ||
      !absolute.endsWith('.md') ||
      statSync(absolute).isDirectory()
    )
      continue;
    const targetPage =
      absolute === join(repo, file) ? page : parseMarkdown(readFileSync(absolute, 'utf8'));
    if (!githubAnchors(targetPage).has(anchor)) {
      problems.push(`${where}: link ${target}: no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
