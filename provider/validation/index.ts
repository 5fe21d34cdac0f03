export * from "./certificate";
export * from "./common";
export * from "./hostname";
export * from "./postgres";
export * from "./snapshot";
export * from "./volume";
