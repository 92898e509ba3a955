import { runCli } from './run-cli';

/** The `npm run cli` entry: the commands live in run-cli.ts; this only connects them to the process. */
const write = (stream: NodeJS.WriteStream, text: string) =>
  // Wait for the write: process.exit does not flush a piped stdout, and --json output must arrive whole.
  text ? new Promise<void>((resolve) => stream.write(text, () => resolve())) : Promise.resolve();

runCli(process.argv.slice(2)).then(async ({ code, stdout, stderr }) => {
  await write(process.stdout, stdout);
  await write(process.stderr, stderr);
  process.exit(code);
});
