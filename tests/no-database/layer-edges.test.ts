import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LAYER_EDGES, LAYERS, type Layer } from '@/scripts/layer-edges';

/*
 * Issue 51, item 4: the folder-level import graph, computed from the source, is exactly the edges
 * scripts/layer-edges.ts declares, and docs/architecture.md draws exactly those. An import that makes an edge
 * nobody declared fails here with its file and specifier: declare it (with why, and draw it) or move the code.
 * Every import counts, type-only and dynamic ones too: a layer that knows another's types depends on it.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
// Installed packages, builds, and the SDK's generated types (sdk/src/generated: written by `npm run sdk:types`, no imports).
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', '.next']);
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const layerOf = (file: string): Layer | undefined => LAYERS.find((l) => file === l || file.startsWith(`${l}/`));

function sourceFiles(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [rel];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const p = `${rel}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(p);
    return SOURCE.test(entry.name) ? [p] : [];
  });
}

/** Where an import specifier points inside the repository (no extension needed), or null for a package. */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith('@/')) return specifier.slice(2);
  if (specifier === '@fulfillment-rail/sdk') return 'sdk';
  if (specifier.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return null;
}

interface Import {
  file: string;
  specifier: string;
  from: Layer;
  to: Layer;
}

/** Every import of one layer's file into another layer. */
function crossLayerImports(): Import[] {
  const found: Import[] = [];
  for (const file of LAYERS.flatMap(sourceFiles)) {
    const from = layerOf(file)!;
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      const to = layerOf(target(file, specifier) ?? '');
      if (to && to !== from) found.push({ file, specifier, from, to });
    }
  }
  return found;
}

/** The module file an import inside the repository names (a path without extension, or a folder's index). */
function moduleFile(rel: string): string | undefined {
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => rel + ext).find((f) => SOURCE.test(f) && fs.existsSync(path.join(ROOT, f)));
}

/** A cycle among `files` (as the files in order, the first again at the end), or null. */
function importCycle(files: string[]): string[] | null {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    graph.set(file, importedFiles.flatMap(({ fileName }) => moduleFile(target(file, fileName) ?? '') ?? []).filter((f) => files.includes(f)));
  }
  const done = new Set<string>();
  const visit = (file: string, trail: string[]): string[] | null => {
    if (trail.includes(file)) return [...trail.slice(trail.indexOf(file)), file];
    if (done.has(file)) return null;
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next, [...trail, file]);
      if (cycle) return cycle;
    }
    done.add(file);
    return null;
  };
  for (const file of files) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return null;
}

const key = (from: string, to: string) => `${from} → ${to}`;
const declared = new Map(LAYER_EDGES.map((e) => [key(e.from, e.to), e]));
const imports = crossLayerImports();

describe('the layer edges (scripts/layer-edges.ts)', () => {
  it('every import between layers is a declared edge, from a file the edge allows', () => {
    const undeclared = imports
      .filter((i) => {
        const edge = declared.get(key(i.from, i.to));
        return !edge || (edge.only !== undefined && !edge.only.includes(i.file));
      })
      .map((i) => `${i.file} imports '${i.specifier}': ${key(i.from, i.to)} is ${declared.has(key(i.from, i.to)) ? 'not allowed from this file' : 'not a declared edge'}`);
    expect(undeclared, 'declare the edge in scripts/layer-edges.ts and draw it in docs/architecture.md, or move the import').toEqual([]);
  });

  it('every declared edge is still made by some import', () => {
    const used = new Set(imports.map((i) => key(i.from, i.to)));
    expect([...declared.keys()].filter((k) => !used.has(k)), 'nothing imports along these: remove them from scripts/layer-edges.ts and docs/architecture.md').toEqual([]);
  });

  it('docs/architecture.md draws exactly the declared edges, each with its why', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    // Rows of the page's edge table, `| \`from\` | \`to\` | why |`, in the table's order.
    const drawn = [...page.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (.*) \|$/gm)].map((m) => `${key(m[1], m[2])}: ${m[3]}`);
    expect(drawn).toEqual(LAYER_EDGES.map((e) => `${key(e.from, e.to)}: ${e.why}`));
  });

  // The CLI's command table and the modules whose commands it lists once imported each other (issue 51): what a
  // command is lives in bin/cli-command.ts, which imports none of them.
  it('bin/ has no import cycle', () => {
    expect(importCycle(sourceFiles('bin'))).toBeNull();
  });

  it('reads the imports it is meant to: static, type-only, dynamic and relative ones', () => {
    const seen = (file: string, specifier: string) => imports.some((i) => i.file === file && i.specifier === specifier);
    expect(seen('server/http/main.ts', '@/server/jobs/global')).toBe(true);
    expect(seen('components/flows/types.ts', '@/server/api/root')).toBe(true);
    expect(seen('scripts/start.ts', '../server/http/main')).toBe(true);
    expect(imports.some((i) => i.from === 'examples' && i.specifier === '@fulfillment-rail/sdk')).toBe(true);
  });
});
