import { asPublished } from "./as-published";
import { claimsTable } from "./claims";
import { publishedEtag } from "./etag";
import { publishedElysiaEncore } from "./frameworks";
import { published2022 } from "./frameworks2022";
import { publishedOsgood } from "./osgood";
import { publishedSwiftNode } from "./swift-node";

/**
 * The five published studies the workbook reproduces, as the articles print them (never measured
 * here), each read by the notebook that reproduces it, by `make as-published` (which runs each study's
 * commands at their own length) and, for those that turn on threads, by notebook 07's table of studies.
 * `etag`: "Keeping Node.js Fast", 2018 (notebook 01; its Fastify-over-restify figure in notebook 03);
 * `frameworks2022`: a 2022 table of frameworks (notebook 03); `osgood`: Osgood 0.1 -> 0.2, 2019
 * (notebook 05); `swiftNode`: server-side Swift vs Node, 2016 (notebook 03); `elysiaEncore`: the
 * Elysia-vs-Encore post, 2025 (notebook 03). Each table's own doc comment says what it holds; each has
 * its loads as the study gives them and its claims. Beside the studies, the two functions that set a
 * study beside a run, which notebooks 01, 03 and 05 share: `beside(rows)`, a study's commands beside the
 * ones that ran here with every way they differ and `make as-published`'s full-length run
 * (as-published.ts: `asPublished`); `claimsTable(claims, who)`, a study's claims with where each is
 * tested or why not (claims.ts).
 *
 * @example
 * const ee = wb.published.elysiaEncore;
 * wb.markdown(`${ee.title}: Elysia over Encore ${wb.times(ee.headline.bare)} bare, as the post printed it.`);
 * wb.markdown(wb.published.claimsTable(ee.claims, "The post"));
 */
export const published = Object.freeze({
  etag: publishedEtag,
  frameworks2022: published2022,
  osgood: publishedOsgood,
  swiftNode: publishedSwiftNode,
  elysiaEncore: publishedElysiaEncore,
  beside: asPublished,
  claimsTable: claimsTable,
});
