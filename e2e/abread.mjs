// abread.mjs compares the server CPU time per `read` call of several harness binaries on this
// machine, interleaving them round by round so a change in the machine's speed hits all alike:
//   ROUNDS=8 CALLS=1000 node e2e/abread.mjs /tmp/harness-a /tmp/harness-b
// Each round starts one `harness serve` per binary, warms it with 50 reads of a 2,000-line file, then
// times CALLS sequential reads (TypeScript SDK client) and reads the server's user+system CPU time
// from /proc (Linux only). It prints each run, then the median, min and max per binary.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, stateEnv, tempDir } from "./lib.mjs";

const bins = process.argv.slice(2);
if (bins.length === 0) {
  console.error("usage: node e2e/abread.mjs BINARY...");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const CALLS = Number(process.env.CALLS ?? 1000);
const ticks = 10; // ms per clock tick in /proc/<pid>/stat (USER_HZ 100)
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * ticks;
};
const dir = tempDir("abread-");
const file = join(dir, "big.txt");
const lines = [];
for (let i = 1; i <= 2000; i++) lines.push(`line ${String(i).padStart(5, "0")} abcdefghij`);
writeFileSync(file, lines.join("\n") + "\n");

const read = async (client) => {
  const r = await client.callTool({ name: "read", arguments: { file_path: file } });
  if (r.isError) throw new Error(`read failed: ${JSON.stringify(r.content)}`);
};
const runs = Object.fromEntries(bins.map((b) => [b, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const bin of bins) {
    const { client, transport } = await connect(bin, ["serve", "--cwd", dir, "--log-level", "error"], { env: stateEnv() });
    for (let i = 0; i < 50; i++) await read(client);
    const c0 = cpuMs(transport.pid);
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await read(client);
    const rate = CALLS / ((performance.now() - t0) / 1000);
    const cpu = (cpuMs(transport.pid) - c0) / CALLS;
    runs[bin].push(cpu);
    console.log(`${bin}: server CPU ${cpu.toFixed(3)} ms/call, ${rate.toFixed(0)} calls/s`);
    await client.close();
  }
}
for (const bin of bins) {
  const s = [...runs[bin]].sort((a, b) => a - b);
  console.log(`${bin}: median ${s[s.length >> 1].toFixed(3)}, min ${s[0].toFixed(3)}, max ${s[s.length - 1].toFixed(3)} ms/call over ${s.length} runs`);
}
