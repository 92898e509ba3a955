import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { OWNER_ONLY } from './private-dir';

type Mod = { NODEFS: { node_ops: { setattr: (node: unknown, attr: { mode?: number }) => void } } };

/**
 * PGlite's Emscripten file system chmods every file it creates to the mode the WASM side asked for (0666),
 * which the process umask cannot narrow; this strips the group and other bits from every such chmod.
 */
export class PrivateNodeFS extends NodeFS {
  async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const result = await super.init(pg, opts);
    const preRun = [...(result.emscriptenOpts.preRun ?? [])];
    preRun.push((mod: unknown) => {
      const ops = (mod as Mod).NODEFS.node_ops;
      const setattr = ops.setattr;
      ops.setattr = (node, attr) => setattr(node, attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~OWNER_ONLY });
    });
    return { emscriptenOpts: { ...result.emscriptenOpts, preRun } };
  }
}

export const privatePgliteOptions = (dir: string): PGliteOptions => ({ fs: new PrivateNodeFS(dir) });
