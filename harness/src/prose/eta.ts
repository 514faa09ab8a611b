import { markdown } from "../charts/display";
import { settings } from "../core/settings";
import { durationText } from "./describe";

/** How long a cell that loads will take, said before it starts (the workbook's promise for any cell over ~30 s). */
export interface EtaPlan {
  /** Apps (or variants) loaded in each round. Default 1. */
  targets?: number;
  /** Measured rounds (runs) of each. Default settings().repeats. */
  rounds?: number;
  /** Seconds of each run, and of the one warm-up of each target. Default: the profile's. */
  duration?: number;
  warmup?: number;
  /** Seconds of anything else (profilers writing, clinic analysing, apps starting). Default 0. */
  extra?: number;
}

/** The seconds a plan of loads takes: targets x (warm-up + rounds x duration), plus 0.3 s of start and stop per run, plus extra. */
export function etaSeconds(plan: EtaPlan = {}): number {
  const s = settings();
  const targets = plan.targets ?? 1;
  const rounds = plan.rounds ?? s.repeats;
  const duration = plan.duration ?? s.durationSeconds;
  const warmup = plan.warmup ?? s.warmupSeconds;
  return targets * (warmup + rounds * (duration + 0.3)) + (plan.extra ?? 0);
}

/**
 * Print what a cell is about to do and how long it will take: "Takes about 2 min (profile "full"):
 * the table, 12 apps in rounds." The estimate is targets x (warmup + rounds x (duration + 0.3)) +
 * extra seconds: `targets` default 1, `rounds` default `settings().repeats`, `duration` and `warmup`
 * the profile's, `extra` 0 (profilers writing, clinic analysing). Returns the seconds.
 *
 * @example
 * wb.eta("fixed and optimised in turns", { targets: 2, rounds: 5 });
 */
export function eta(what: string, plan: EtaPlan = {}): number {
  const seconds = etaSeconds(plan);
  markdown(`**Takes ${durationText(seconds)}** (profile "${settings().name}"): ${what}.`);
  return seconds;
}
