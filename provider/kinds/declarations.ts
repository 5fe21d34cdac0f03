/** Every kind's declaration and its `validate<Kind>Args`, from each kind's home. @module */
export * from "./certificates/declarations";
export * from "./postgres-password-rotation/declaration";
export * from "./volume/declaration";
export * from "./volume-snapshot/declaration";
