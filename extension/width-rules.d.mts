// width-rules.d.mts — types of width-rules.mjs for the TypeScript side.
export interface WidthRules {
  spacingMarks: boolean;
  currentEastAsianWidth: boolean;
}
export declare function selectWidthRules(
  native: { setWidthRules(rules: WidthRules): void; visibleWidth(text: string): number },
  hostWidth: (text: string) => number,
): WidthRules & { exact: boolean };
