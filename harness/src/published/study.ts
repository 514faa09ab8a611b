/**
 * What every study of published/ gives alike: a load as the study ran it (its command, where its load
 * generator ran, its machine, the versions it names), and its claims, each with where the workbook
 * measures it or why it does not. asPublished (as-published.ts) sets a study's load beside the one that
 * ran here; claimsTable (claims.ts) prints the claims.
 */

/** One load of a study: its command as the study printed it, and what the study says around it. */
export interface StudyLoad {
  /** The command line, verbatim (where the study printed none, `printed` is false and `note` says so). */
  command: string;
  /** False where the study printed no command for this load and `command` is its caption's load written out. */
  printed?: boolean;
  /** Where the load generator ran, as the study states it. */
  generatorRan: string;
  /** True: on the machine it measured (as here); false: on another; null: the study does not say. */
  generatorOnServer: boolean | null;
  /** The server's machine, as the study gives it ("not given" where it gives none). */
  machine: string;
  /** The versions the study names, by the names the rows here use ("Node", "express", "Bun"). */
  versions: Record<string, string>;
  /** Seconds of warm-up before the measured run, where the study says (0: none). */
  warmupSeconds?: number;
  /** Anything else about this load that the study says and a reader should see beside it. */
  note?: string;
}

/** One claim of a study, in the workbook's words, and where the workbook measures it. */
export interface StudyClaim {
  /** What the study says, in the workbook's words. */
  claim: string;
  /** Where the workbook measures it ("step 3, the timer and the busy loop"); null where it does not. */
  testedIn: string | null;
  /** Why not, where `testedIn` is null: printed as "not tested here, because ...". */
  because?: string;
}
