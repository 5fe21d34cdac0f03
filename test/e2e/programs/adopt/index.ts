// The e2e test writes adopted.ts with `pulumi-platform adopt --app demo-app --out adopted.ts`.
export * from "./adopted";
