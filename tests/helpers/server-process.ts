import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { WAIT_MS, waitFor } from './webhooks';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `npm start` as a child process (scripts/start.ts, without Next.js), its own pid (node --import tsx, not the
 * tsx CLI, which forks), on a free port; resolves once /healthz answers. `env` adds to (or, with undefined,
 * removes from) the test process's environment.
 */
export async function startServerProcess(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = await freePort();
  const merged: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', FR_NO_NEXT: '1', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'false' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = { child, baseUrl, output: () => out, exited };
  return server;
}

/** Waits until the process answers /healthz (or fails with its output if it exits first). */
export async function untilListening(server: ServerProcess): Promise<void> {
  let gone = false;
  void server.exited.then(() => (gone = true));
  await waitFor(
    async () => {
      if (gone) throw new Error(`the server exited before listening:\n${server.output()}`);
      return (await get(server.baseUrl, '/healthz').catch(() => null))?.status === 200;
    },
    { timeoutMs: 120_000, what: 'the server to listen' },
  );
}

/**
 * One GET on a connection of its own (no keep-alive pool), so a cluster's round-robin sees a new connection.
 * A connection that goes quiet for WAIT_MS fails the GET with what it waited for, instead of holding the test
 * until vitest's own timeout, which says nothing.
 */
export function get(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.setTimeout(WAIT_MS, () => req.destroy(Object.assign(new Error(`no answer to GET ${path} within ${WAIT_MS / 1000} s`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
  });
}

/** The node processes whose parent is `pid` (Linux /proc): the web processes, not tsx's esbuild service. */
export function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return comm === 'node' && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
