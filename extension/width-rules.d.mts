// width-rules.d.mts — types of width-rules.mjs for the TypeScript side.
export interface WidthRules {
  spacingMarks: boolean;
  currentEastAsianWidth: boolean;
  /** Clusters as Bun 1.3's Intl.Segmenter (ICU 75, Unicode 15.1) splits them: pi's binary. */
  unicode15Clusters: boolean;
}
export declare function selectWidthRules(
  native: { setWidthRules(rules: WidthRules): void; visibleWidth(text: string): number },
  hostWidth: (text: string) => number,
): WidthRules & { exact: boolean };
