import { markdownTable } from "../charts/tables";
import type { StudyClaim } from "./study";

/**
 * A study's claims as a Markdown table: each in the workbook's words, beside where the workbook measures
 * it, or "not tested here, because ..." with the reason. `title` names the study in the header.
 *
 * @example
 * wb.markdown(wb.published.claimsTable(wb.published.osgood.claims, "The post"));
 */
export function claimsTable(claims: readonly StudyClaim[], title: string): string {
  return markdownTable(
    claims.map((c) => ({
      [`${title} says`]: c.claim,
      "the workbook": c.testedIn ?? `not tested here, because ${c.because ?? "no reason was recorded"}`,
    })),
  );
}
