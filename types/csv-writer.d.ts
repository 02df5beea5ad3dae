// csv-writer's package.json points `types` at its TypeScript sources, which
// this project's stricter settings (verbatimModuleSyntax, ESM) reject and
// skipLibCheck does not cover. These declarations describe the part we use
// (csv-writer 1.6); tsconfig.typecheck.json maps the module name here.
declare module 'csv-writer' {
  export interface ObjectHeaderItem {
    id: string;
    title: string;
  }
  export interface ObjectCsvStringifierParams {
    header: ObjectHeaderItem[] | string[];
    fieldDelimiter?: string;
    recordDelimiter?: string;
    headerIdDelimiter?: string;
    alwaysQuote?: boolean;
  }
  export interface ObjectCsvStringifier {
    getHeaderString(): string | null;
    stringifyRecords(records: Record<string, unknown>[]): string;
  }
  export function createObjectCsvStringifier(
    params: ObjectCsvStringifierParams,
  ): ObjectCsvStringifier;
}
