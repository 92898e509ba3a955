import { runCli } from './run-cli';

/** The `npm run cli` entry: the commands live in run-cli.ts; this only connects them to the process. */
const write = (stream: NodeJS.WriteStream, text: string) =>
  // Wait for the write: process.exit does not flush a piped stdout, and --json output must arrive whole.
  text ? new Promise<void>((resolve) => stream.write(text, () => resolve())) : Promise.resolve();

// ^C stops `listen` cleanly (it finishes the delivery in hand and says so); a second ^C, or any other command,
// ends the process at once as before.
const stop = new AbortController();
if (process.argv[2] === 'listen') {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop.abort();
      process.once(signal, () => process.exit(130));
    });
  }
}
const print = (line: string) => void process.stdout.write(`${line}\n`);

runCli(process.argv.slice(2), process.env, { print, signal: stop.signal }).then(async ({ code, stdout, stderr }) => {
  await write(process.stdout, stdout);
  await write(process.stderr, stderr);
  process.exit(code);
});
