import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import type { JSDOM } from "jsdom";
import { FONT_FAMILY } from "./theme";

/**
 * Server-side rendering of Observable Plot: Plot builds SVG in a jsdom document, resvg turns
 * the SVG into PNG with a font shipped by npm (DejaVu Sans), so charts look the same on
 * every machine, with or without system fonts.
 */
let dom: JSDOM | null = null;

/** jsdom is loaded on the first chart, not with the harness: it is most of the harness's 1.3 s to
 * load, which every process that draws nothing (a test, a grader, a script) would pay. */
export function document(): Document {
  dom ??= new (require("jsdom") as typeof import("jsdom")).JSDOM("<!DOCTYPE html><body></body>");
  return dom.window.document;
}

const FONT_DIR = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");

/** An SVG element (or markup) as a standalone SVG string. */
export function svgString(node: Element | string): string {
  let svg = typeof node === "string" ? node : node.outerHTML;
  if (!/^<svg[^>]*xmlns=/.test(svg)) svg = svg.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return svg;
}

/** PNG bytes of an SVG string, at `scale` x its size. */
export function toPng(svg: string, scale = 2): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    background: "white",
    font: {
      fontFiles: [path.join(FONT_DIR, "DejaVuSans.ttf"), path.join(FONT_DIR, "DejaVuSans-Bold.ttf")],
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  });
  return resvg.render().asPng();
}
