import { publishedElysiaEncore } from "./frameworks";
import { publishedOsgood } from "./osgood";
import { publishedSwiftNode } from "./swift-node";

/**
 * The published studies two notebooks read, as the articles print them (never measured here): each
 * is read by the notebook that reproduces it and by notebook 07's table of studies that turn on
 * threads. `elysiaEncore`: the Elysia-vs-Encore post, 2025 (notebook 03); `osgood`: Osgood 0.1 -> 0.2,
 * 2019 (notebook 05); `swiftNode`: server-side Swift vs Node, 2016 (notebook 03). Each table's own
 * doc comment says what it holds.
 *
 * @example
 * const ee = wb.published.elysiaEncore;
 * wb.markdown(`${ee.title}: Elysia over Encore ${wb.times(ee.headline.bare)} bare, as the post printed it.`);
 */
export const published = Object.freeze({
  elysiaEncore: publishedElysiaEncore,
  osgood: publishedOsgood,
  swiftNode: publishedSwiftNode,
});
