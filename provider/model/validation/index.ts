export * from "./certificate";
export * from "./common";
export * from "./fields";
export * from "./hostname";
export * from "./postgres";
export * from "./region";
