export * from "./certificates";
export * from "./postgres-password-rotation";
export * from "./volume";
export * from "./volume-snapshot";
