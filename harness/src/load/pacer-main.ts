/**
 * The paced load generator's own process (load/pacer.ts starts it): one JSON job per line on stdin,
 * `{ id, loads: PacedOptions[] }` with loopback URLs as targets; it runs the loads side by side
 * (pacedLoad) and answers one line on stdout, `{ id, results }` or `{ id, error }`. It exits when its
 * stdin closes: with the harness that started it, whatever happens to it.
 */
import readline from "node:readline";
import { type PacedOptions, pacedLoad } from "./paced";

const reply = (msg: object) => process.stdout.write(`${JSON.stringify(msg)}\n`);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let job: { id: number; loads: PacedOptions[] };
  try {
    job = JSON.parse(line);
  } catch {
    return reply({ id: -1, error: `not a job: ${line.slice(0, 100)}` });
  }
  Promise.all(job.loads.map((l) => pacedLoad({ ...l, pin: false }))).then(
    (results) => reply({ id: job.id, results }),
    (err: Error) => reply({ id: job.id, error: err.message }),
  );
});
process.stdin.on("end", () => process.exit(0));
reply({ id: 0, ready: true });
