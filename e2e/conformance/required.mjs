// required.mjs DIR SCENARIO... checks that each named scenario ran (the suite wrote DIR/server-<name>-<time>/
// checks.json) and passed: no failure or warning, and at least one success (a scenario that checked nothing
// does not count). The baseline comparison alone would not notice a scenario that stopped running.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, ...names] = process.argv.slice(2);
const runs = readdirSync(dir);
let bad = 0;
for (const name of names) {
  const run = runs.find((d) => d.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "") === `server-${name}`);
  const checks = run ? JSON.parse(readFileSync(join(dir, run, "checks.json"), "utf8")) : [];
  const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);
  const passed = checks.filter((c) => c.status === "SUCCESS").length;
  if (!run || failed.length > 0 || passed === 0) {
    bad++;
    console.log(`  required ${name}: FAIL (${!run ? "did not run" : `${passed} passed, failing: ${failed.join(", ") || "none"}`})`);
  } else {
    console.log(`  required ${name}: ${passed} checks passed`);
  }
}
process.exitCode = bad === 0 ? 0 : 1;
