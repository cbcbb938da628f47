// The build benchmarks' options: `--name=value` on the command line, else the environment variable
// `npm run bench` passes (it gives no arguments).
export function option(name: string, env: string): string | undefined {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : process.env[env];
}
