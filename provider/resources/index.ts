export * from "./acme-certificate";
export * from "./custom-certificate";
export * from "./postgres-password-rotation";
export * from "./volume";
export * from "./volume-snapshot";
