/**
 * @workbook/harness: the measurement harness of the Node Performance Workbook.
 * One entry point; each module does one thing (see harness/README.md).
 */
export * from "./settings";
export * from "./fingerprint";
export * from "./stats";
export * from "./loopback";
export * from "./registry";
export * from "./apps";
export { stopAll, running } from "./lifecycle";
export { UsageSampler, UsageSample } from "./sampler";
export { repoRoot, appsDir, resultsDir, workbookVersion } from "./paths";
export * from "./load";
export { SecondSample, LiveChart, LIVE_INTERVAL_MS } from "./live";
export { perSecond } from "./live-chart";
export { tickLabel } from "./chart-axes";
export * from "./charts";
export * from "./charts-ready";
export { markdown, newOutput, show as showBundle, inKernel, Output, MimeBundle } from "./display";
export * from "./results";
export * from "./flame";
export * from "./flame-chart";
export * from "./cpuprofile";
export * from "./frameworks";
export * from "./conformance";
export * from "./validator-cost";
export * from "./clinic";
export * from "./exercise-check";
export * from "./experiments";
export * from "./paced";
export * from "./loop-metrics";
export * from "./contention";
export * from "./loop-plan";
export * from "./charts-grouped";
export * from "./doctor-charts";
export * from "./published-etag";
export * from "./fresh-load";
export * from "./profile-detail";
export * from "./runtimes";
export * from "./published";
export * from "./tables";
export * from "./interleave";
