export * from "./certificate";
export * from "./common";
export * from "./events";
export * from "./postgres";
export * from "./regions";
export * from "./task";
export * from "./volume";
