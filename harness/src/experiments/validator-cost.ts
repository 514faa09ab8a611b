import path from "node:path";
import { appsDir } from "../core/paths";
import { measureScript } from "./script";

/** One validator's price, measured outside any server by apps/frameworks/lib/validator-cost.js. */
export interface ValidatorCost {
  /**
   * "ajv" (fastify.js, express.js), "typebox" (what Elysia runs: its exact-mirror normalisation,
   * then TypeBox's compiled check) or "none" (the control).
   */
  validator: string;
  /** "Node 26.10.0", "Bun 1.4.5": where it ran. */
  runtime: string;
  /** Size of the JSON body (SAMPLE_VALID_BODY, the order of apps/frameworks/lib/payloads.js) and its line items. */
  bodyBytes: number;
  items: number;
  /** Parses (and validations) per batch, chosen so that a batch lasts at least 20 ms. */
  iterations: number;
  batches: number;
  /** Median ns to parse the body, and to parse and validate it. */
  parseNs: number;
  parseAndValidateNs: number;
  /** Median of the batches' (parse and validate - parse) in ns: the validation alone. */
  validateNs: number;
  /**
   * Median of the batches' parse / (parse and validate): the share of its throughput a loop that
   * only parses keeps when it validates too. Not a server's on/off: a server does much more.
   */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
}

export interface ValidatorCostOptions {
  validator: "ajv" | "typebox" | "none";
  /** Binary of the runtime to measure on (a RuntimeEntry's `binary`); default: this Node. */
  runtime?: string;
  /** Measured batches; default 21. */
  batches?: number;
  /** Time limit of the measurement; default 60,000 ms. */
  timeoutMs?: number;
}

const SCRIPT = path.join(appsDir, "frameworks", "lib", "validator-cost.js");

/**
 * Times a body validator of POST /validate on its own, in a child process on the runtime given:
 * parse-only against parse-and-validate of the same body, in alternating batches. A load test
 * shows what validation costs a whole request; this shows the validator's own share of it.
 * Rejects with the script's stderr when it fails (a validator that rejects the valid body or
 * accepts the invalid one fails) or outlives `timeoutMs` (default 60000). Runs
 * `apps/frameworks/lib/validator-cost.js` through `measureScript` (on the apps' CPU): batches of at
 * least 20 ms, after 5 warm-up batches; `batches` (default 21) measured. `validator`: "ajv" (Ajv 8
 * with fastify's default options: fastify.js and express.js), "typebox" (what Elysia runs: its
 * exact-mirror normalisation, then TypeBox's compiled check) or "none" (the control). `ratio` is the
 * median of the batches' parse / parse-and-validate: the throughput a parse-only loop keeps when it
 * validates too, not a server's on/off.
 */
export function validatorCost(opts: ValidatorCostOptions): Promise<ValidatorCost> {
  return measureScript<ValidatorCost>(SCRIPT, {
    args: [opts.validator, String(opts.batches ?? 21)],
    runtime: opts.runtime,
    timeoutMs: opts.timeoutMs,
  });
}
