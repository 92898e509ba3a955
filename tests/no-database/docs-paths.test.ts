import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every repository path the documents name exists (issue 51 item 3), so a rename cannot leave a reader at a
 * file that is gone. Read: every Markdown file under docs/, README.md and examples/<name>/README.md.
 *
 * What is checked: an inline code span (`…`, outside fenced blocks) whose first word starts with a top-level
 * folder of the repository followed by `/` (`server/…`, `tests/…`, `.ci/…`; also `lib/`, the folder that became
 * `web/`, so a stale reference fails even in a clone without it), or is one of ROOT_FILES. The rules:
 *   - `[id]`, `[...nextauth]`, `(console)`: literal; they are real folder names under app/.
 *   - `<area>`, `{id}`, `*`: a wildcard for part of one segment (`**`: any depth); the path passes when some file
 *     or folder matches. `{a,b}` (with a comma) expands to each alternative, and each must exist.
 *   - `…` (or `...` outside square brackets): only the part before it is checked, as the start of some path.
 *   - a `:12` or `:12-30` line suffix and a `#anchor` suffix are dropped; a trailing `/` requires a folder;
 *     a module path without an extension may name a .ts, .tsx, .js or .mjs file.
 *   - a path that no longer exists may be named only outside backquotes (in a History section, say);
 *   - build outputs (BUILD_OUTPUTS, e.g. `sdk/dist`) exist only after a build and are not checked (nor are
 *     `dist/`, `.next/` and `.data/`, which are no folders of the repository).
 * Relative Markdown links `[text](target#anchor)` must reach a file, and an anchor into a Markdown file a heading.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.next', '.data', 'dist', 'test-results', 'playwright-report', 'coverage']);
/** Folders that no longer exist, still checked so a reference to them fails. */
const FORMER_FOLDERS = ['lib'];
const ROOT_FILES = new Set([
  'package.json', 'package-lock.json', 'tsconfig.json', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js',
  'knip.jsonc', 'next.config.mjs', 'next.config.ts', 'drizzle.config.ts', 'postcss.config.mjs', 'proxy.ts', 'LICENSE', 'README.md',
]);
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];
const BUILD_OUTPUTS = ['sdk/dist'];

function listTree(): { files: Set<string>; dirs: Set<string> } {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        dirs.add(p);
        walk(p);
      } else files.add(p);
    }
  };
  walk('');
  return { files, dirs };
}

const tree = listTree();
const topFolders = new Set([...[...tree.dirs].filter((d) => !d.includes('/')), ...FORMER_FOLDERS]);
const everything = [...tree.files, ...tree.dirs];

function documents(): string[] {
  const docs = [...tree.files].filter((f) => f.startsWith('docs/') && f.endsWith('.md'));
  const examples = [...tree.files].filter((f) => /^examples\/[^/]+\/README\.md$/.test(f));
  return ['README.md', ...docs.sort(), ...examples.sort()];
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((t, i) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(t);
    if (m) {
      if (fence === null) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text: t });
  });
  return out;
}

function isRepoPath(token: string): boolean {
  if (BUILD_OUTPUTS.some((out) => token === out || token.startsWith(`${out}/`))) return false;
  const slash = token.indexOf('/');
  if (slash === -1) return ROOT_FILES.has(token);
  return topFolders.has(token.slice(0, slash));
}

/** `{a,b}` alternatives expanded (the first group at a time, recursively). */
function expandBraces(token: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(token);
  if (!m) return [token];
  return m[1].split(',').flatMap((alt) => expandBraces(token.slice(0, m.index) + alt + token.slice(m.index + m[0].length)));
}

/** The index of an ellipsis (`…`, or `...` outside square brackets), or -1. */
function ellipsisAt(token: string): number {
  let depth = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '…') return i;
    else if (depth === 0 && token.startsWith('...', i)) return i;
  }
  return -1;
}

const escape = (s: string) => s.replace(/[.+?^$()|[\]\\]/g, '\\$&');

/** A wildcard path (`<x>`, `{x}`, `*`, `**`) as a regular expression over whole paths. */
function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith('**', i)) {
      re += '.*';
      i += 2;
    } else if (pattern[i] === '*') {
      re += '[^/]*';
      i += 1;
    } else if (pattern[i] === '<' || pattern[i] === '{') {
      const close = pattern.indexOf(pattern[i] === '<' ? '>' : '}', i);
      if (close === -1) {
        re += escape(pattern[i]);
        i += 1;
      } else {
        re += '[^/]+';
        i = close + 1;
      }
    } else {
      re += escape(pattern[i]);
      i += 1;
    }
  }
  return new RegExp(`^${re}$`);
}

/** Why a path named in a document does not resolve, or null when it does. */
function problemWith(raw: string): string | null {
  let token = raw.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '');
  const cut = ellipsisAt(token);
  if (cut !== -1) {
    const prefix = token.slice(0, cut);
    return everything.some((p) => `${p}/`.startsWith(prefix) || p.startsWith(prefix)) ? null : 'nothing starts with it';
  }
  for (const one of expandBraces(token)) {
    token = one;
    const wantsDir = token.endsWith('/');
    const bare = wantsDir ? token.slice(0, -1) : token;
    if (/[<{*]/.test(bare)) {
      const re = globToRegExp(bare);
      const pool = wantsDir ? [...tree.dirs] : everything;
      if (!pool.some((p) => re.test(p))) return `no ${wantsDir ? 'folder' : 'path'} matches ${one}`;
      continue;
    }
    if (wantsDir ? tree.dirs.has(bare) : tree.files.has(bare) || tree.dirs.has(bare)) continue;
    if (!wantsDir && MODULE_EXTENSIONS.some((ext) => tree.files.has(bare + ext) || tree.files.has(`${bare}/index${ext}`))) continue;
    return `${one} does not exist`;
  }
  return null;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text: t } of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(t);
    if (!m) continue;
    const base = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('paths named in the documents exist', () => {
  it('every backquoted repository path resolves (rules at the top of this file)', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const doc of documents()) {
      for (const { line, text } of proseLines(fs.readFileSync(path.join(ROOT, doc), 'utf8'))) {
        for (const m of text.matchAll(/(`+)(.+?)\1/g)) {
          const token = m[2].trim().split(/\s/)[0];
          if (!isRepoPath(token)) continue;
          checked++;
          const problem = problemWith(token);
          if (problem) failures.push(`${doc}:${line}: \`${token}\`: ${problem}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('every relative Markdown link reaches a file, and its anchor a heading', () => {
    const failures: string[] = [];
    for (const doc of documents()) {
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
      for (const { line, text: t } of proseLines(text)) {
        for (const m of t.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = m[1];
          if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
          const [file, anchor] = target.split('#');
          const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(doc), file)) : doc;
          if (!tree.files.has(resolved) && !tree.dirs.has(resolved.replace(/\/$/, ''))) {
            failures.push(`${doc}:${line}: ${target}: ${resolved} does not exist`);
            continue;
          }
          if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(path.join(ROOT, resolved), 'utf8')).has(anchor)) {
            failures.push(`${doc}:${line}: ${target}: no heading #${anchor} in ${resolved}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
