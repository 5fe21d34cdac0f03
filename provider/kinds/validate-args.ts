export * from "./certificates/declarations";
export * from "./postgres-password-rotation/declaration";
export * from "./volume/declaration";
export * from "./volume-snapshot/declaration";
